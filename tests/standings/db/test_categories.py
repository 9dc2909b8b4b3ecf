"""Category standings: the overall standing's rows of a category's members, re-ranked."""

import pytest

from scoring.standings import selectors
from scoring.standings.categories import category_standings, find, rerank
from tournaments import categories as cat_services
from tournaments.models import Category

from .conftest import add_series, director, generated, make_event

pytestmark = pytest.mark.django_db


def H(winner, *seats, romme=False):
    return (winner, romme, list(seats))


def set_player(participant, **fields):
    for name, value in fields.items():
        setattr(participant.player, name, value)
    participant.player.save()


@pytest.fixture
def ranked(club_a):
    """Six players; totals a 30, b 20, c 20, d 10, e 0, f -80 (b and c tied)."""
    event, people = make_event(club_a, players=6, chain=("total",))
    a, b, c, d, e, f = people
    add_series(
        event,
        [a, b, c],
        [H(0, (0, 30), (10, 20), (10, 20))],
    )
    add_series(event, [d, e, f], [H(0, (0, 10), (0, 0), (80, -80))], table_number=2)
    return event, people


def test_members_are_reranked_among_themselves_keeping_overall_ties(club_a, ranked):
    event, (a, b, c, _d, e, _f) = ranked
    boss = director(club_a)
    women = cat_services.add_category(boss, event, "Damen", Category.Kind.WOMEN)
    for p in (b, c, e):
        set_player(p, gender="f")
    standing = selectors.event_standing(event, only_published=False)
    assert [(r.key, r.rank) for r in standing.rows][:3] == [(a.pk, 1), (b.pk, 2), (c.pk, 2)]
    (women_standing,) = category_standings(event, standing)
    assert women_standing.category.id == women.pk
    assert women_standing.category.name == "Damen"
    assert women_standing.category.kind == "women"
    assert [(r.key, r.rank, r.total) for r in women_standing.rows] == [
        (b.pk, 1, 20),
        (c.pk, 1, 20),
        (e.pk, 3, 0),
    ]
    # the overall standing keeps its ranks
    assert standing.rows[1].rank == 2


def test_seniors_youth_and_club_category_with_choices(club_a, ranked):
    event, (a, b, _c, d, e, f) = ranked  # the event is in 2026
    boss = director(club_a)
    cat_services.add_standard_categories(boss, event)
    club = cat_services.add_category(boss, event, "Vereinsmeisterschaft")
    set_player(a, birth_year=1966)  # 60 in 2026: senior
    set_player(b, birth_year=1967)  # 59: not
    set_player(d, birth_year=2008)  # 18: youth
    set_player(e, birth_year=None)  # unknown: neither
    seniors = Category.objects.get(event=event, kind="seniors")
    youth = Category.objects.get(event=event, kind="youth")
    cat_services.set_category_choice(boss, seniors, f, True)  # the director's word
    cat_services.set_category_choice(boss, club, d, True)
    cat_services.set_category_choice(boss, club, a, True)
    members = cat_services.category_members(event)
    assert members[seniors.pk] == {a.pk, f.pk}
    assert members[youth.pk] == {d.pk}
    assert members[club.pk] == {a.pk, d.pk}
    standing = selectors.event_standing(event, only_published=False)
    result = category_standings(event, standing)
    assert [s.category.name for s in result] == [
        "Women",
        "Seniors from 60",
        "Youth up to 18",
        "Vereinsmeisterschaft",
    ]
    assert [(r.key, r.rank) for r in find(result, seniors.pk).rows] == [(a.pk, 1), (f.pk, 2)]
    assert [(r.key, r.rank) for r in find(result, club.pk).rows] == [(a.pk, 1), (d.pk, 2)]
    assert find(result, youth.pk).rows[0].rank == 1
    # out by choice wins over the registry
    cat_services.set_category_choice(boss, seniors, a, False)
    assert cat_services.category_members(event)[seniors.pk] == {f.pk}


def test_disqualified_players_stay_marked_in_every_standing(club_a, ranked):
    event, (a, b, _c, _d, _e, _f) = ranked
    boss = director(club_a)
    cat_services.add_category(boss, event, "Alle", Category.Kind.CUSTOM)
    category = Category.objects.get(event=event)
    for p in (a, b):
        cat_services.set_category_choice(boss, category, p, True)
    cat_services.disqualify(boss, a, "Kartenmanipulation")
    standing = selectors.event_standing(event, only_published=False)
    by_key = {r.key: r for r in standing.rows}
    assert by_key[a.pk].disqualified is True and by_key[a.pk].rank == 1
    assert by_key[b.pk].disqualified is False
    (cs,) = category_standings(event, standing)
    assert [(r.key, r.rank, r.disqualified) for r in cs.rows] == [
        (a.pk, 1, True),
        (b.pk, 2, False),
    ]


def test_rerank_of_nobody_is_empty(club_a, ranked):
    event, _people = ranked
    standing = selectors.event_standing(event, only_published=False)
    assert rerank(standing.rows, set()) == []


def test_category_standings_of_a_pair_standing_are_refused(club_a, ranked):
    event, _people = ranked
    standing = selectors.event_standing(event, competition="pair", only_published=False)
    with pytest.raises(ValueError):
        category_standings(event, standing)


@pytest.mark.parametrize("players", [8, 24])
def test_the_category_standing_reads_a_fixed_number_of_queries(
    club_a, players, django_assert_num_queries
):
    event = generated(club_a, players, series=1, rounds=1, seed=3)
    boss = director(club_a)
    cat_services.add_standard_categories(boss, event)
    club = cat_services.add_category(boss, event, "Verein")
    for p in event.participants.all()[:3]:
        cat_services.set_category_choice(boss, club, p, True)
    standing = selectors.event_standing(event, only_published=False)
    # categories, choices, participants (gender, birth year)
    with django_assert_num_queries(3):
        result = category_standings(event, standing)
    assert len(result) == 4 and len(find(result, club.pk).rows) == 3
    members = cat_services.category_members(event)
    with django_assert_num_queries(1):  # the categories' names only
        category_standings(event, standing, members)


def test_json_and_public_page_show_the_categories(client, club_a, ranked):
    from django.urls import reverse

    event, (_a, _b, c, _d, e, _f) = ranked
    boss = director(club_a)
    women = cat_services.add_category(boss, event, "Damen", Category.Kind.WOMEN)
    for p in (c, e):
        set_player(p, gender="f")
    cat_services.disqualify(boss, e, "Absprache")
    api = reverse("standings:api", args=[event.pk])
    data = client.get(api, {"category": women.pk}).json()
    assert data["category"] == {"id": women.pk, "name": "Damen", "kind": "women"}
    assert [
        (r["player"]["participant_id"], r["rank"], r["disqualified"]) for r in data["rows"]
    ] == [
        (c.pk, 1, False),
        (e.pk, 2, True),
    ]
    assert client.get(api, {"category": 999999}).status_code == 404
    overall = client.get(api).json()
    assert "category" not in overall and len(overall["rows"]) == 6
    public = reverse("standings:public", args=[event.pk])
    page = client.get(public, {"category": women.pk, "lang": "de"})
    text = page.content.decode()
    assert page.status_code == 200 and "Damen" in text and "disqualifiziert" in text
    names = [r["name"] for r in page.context["table"].data.data]
    assert names == [c.player.full_name, e.player.full_name]
    # no print links for the public
    assert "category-standings" not in text
