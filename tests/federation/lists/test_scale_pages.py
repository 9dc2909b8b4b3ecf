"""The federation's pages at scale (issue 27, point 7): the same number of queries for a
short and a long list, for a player with few and with many results; the long lists come
in pages; a card shows all the player's earlier official results (point 5)."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from federation.models import Championship
from federation.rankings import compute
from tests.factories import EventFactory, ParticipantFactory
from tests.federation.list_helpers import AS_OF, computed_world, hand_lines, hand_snapshot
from tests.federation.status_helpers import approved_version, make_ranking

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def count(client, url) -> int:
    cache.clear()  # uncached: the first reader after a computation
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url, **DE)
    assert answer.status_code == 200, (url, answer.status_code)
    return len(queries)


@pytest.fixture
def two_lists(national, region_a, region_b, affiliation_a, affiliation_b, member_a, member_b):
    """A ranking of 5 lines and one of 450 (the second spans pages), each with a
    championship; the players cycled through two real ones."""
    out = []
    for name, size in (("Klein", 5), ("Groß", 450)):
        ranking = make_ranking(national, name)
        hand_snapshot(ranking, hand_lines(size, region_a, region_b, [member_a, member_b]))
        out.append((ranking, Championship.objects.create(ranking=ranking, name=f"DM {name}")))
    return out


def test_list_pages_cost_the_same_queries_for_5_and_450_lines(client, superuser, two_lists,
                                                              region_a):  # fmt: skip
    client.force_login(superuser)
    anonymous = Client()
    for query in ("", f"?region={region_a.pk}", "?page=2", "?sort=name&page=3"):
        counts = []
        for ranking, championship in two_lists:
            urls = [
                reverse("federation:ranking_lines", args=[ranking.pk]) + query,
                reverse("federation:ranking_detail", args=[ranking.pk]) + query,
                reverse("federation:championship_detail", args=[championship.pk]),
            ]
            public = [reverse("federation_public:ranking", args=[ranking.pk]) + query,
                      reverse("federation_api:ranking", args=[ranking.pk]) + query]  # fmt: skip
            counts.append([count(client, u) for u in urls] + [count(anonymous, u) for u in public])
        assert counts[0] == counts[1], query


def test_the_long_lists_come_in_pages(client, superuser, two_lists):
    client.force_login(superuser)
    ranking = two_lists[1][0]
    members = client.get(reverse("federation:ranking_lines", args=[ranking.pk]), **DE)
    assert len(members.context["table"].page.object_list) == 100
    body = members.content.decode()
    assert "Spieler 00099" in body and "Spieler 00100" not in body
    last = client.get(reverse("federation:ranking_lines", args=[ranking.pk]), {"page": 5}, **DE)
    assert "Spieler 00449" in last.content.decode() and "Spieler 00000" not in last.content.decode()
    by_name = client.get(reverse("federation:ranking_lines", args=[ranking.pk]),
                         {"sort": "-name"}, **DE).content.decode()  # fmt: skip
    assert "Spieler 00449" in by_name and "Spieler 00000" not in by_name
    detail = client.get(reverse("federation:ranking_detail", args=[ranking.pk]), {"page": 5}, **DE)
    text = detail.content.decode()
    assert "Spieler 00449" in text and "Spieler 00399" not in text and "Seite 5 von 5" in text
    public = Client().get(reverse("federation_public:ranking", args=[ranking.pk]), {"page": 3},
                          **DE).content.decode()  # fmt: skip
    assert "Spieler 00449" in public and "Spieler 00399" not in public and "450 Spieler" in public
    # The national count is the last position + 1 (federation.public.selectors._Numbered):
    # each snapshot's own, the short list's beside the long one.
    short = Client().get(reverse("federation_public:ranking", args=[two_lists[0][0].pk]), **DE)
    assert "5 Spieler" in short.content.decode() and short.context["total"] == 5


@pytest.fixture
def world(national, region_a, region_b, affiliation_a, affiliation_b, club_a, club_b):
    return computed_world(national, club_a, club_b)


def older_events(world, club, count_):
    """`count_` approved events of Anna before the ranking's window (official results that
    the ranking does not count)."""
    anna = world["anna"]
    for n in range(count_):
        day = dt.date(2020, 1, 1) + dt.timedelta(days=30 * n)
        event = EventFactory(club=club, name=f"Altes Turnier {n}", start_date=day)
        ParticipantFactory(event=event, player=anna)
        row = {"player": anna.pk, "place": 1 + n % 3, "score": 0, "hands": 0}
        approved_version(world["ranking"], event, [row], field_size=8)
    compute.recompute(world["ranking"], "older")


def test_cards_show_earlier_official_results(client, world, club_a, national_officer):
    older_events(world, club_a, 2)
    private = make_ranking(world["ranking"].association, "Intern")
    private.public = False
    private.save()
    secret = EventFactory(club=club_a, name="Interner Pokal", start_date=dt.date(2025, 2, 1))
    approved_version(private, secret, [{"player": world["anna"].pk, "place": 1, "score": 0,
                                        "hands": 0}])  # fmt: skip
    compute.recompute(private, "intern")
    ranking, anna = world["ranking"], world["anna"]
    public = Client().get(reverse("federation_public:card", args=[ranking.pk, anna.pk]), **DE)
    body = public.content.decode()
    assert "Alle offiziellen Ergebnisse" in body and "Altes Turnier 1" in body
    assert "01.01.2020" in body and "Interner Pokal" not in body  # public rankings only
    assert [o["event_name"] for o in public.context["official"]][-2:] == [
        "Altes Turnier 1", "Altes Turnier 0"]  # fmt: skip
    in_window = public.context["results"]
    assert all(r["event_name"].startswith(("Früh", "Pokal", "Sommer")) for r in in_window)
    client.force_login(national_officer)
    card = client.get(reverse("federation:player_card", args=[ranking.pk, anna.pk]), **DE)
    names = [o.event_name for o in card.context["card"].official]
    assert names[-2:] == ["Altes Turnier 1", "Altes Turnier 0"] and "Interner Pokal" in names
    assert AS_OF.year - 5 == card.context["card"].official[-1].date.year


def test_a_new_computation_of_another_ranking_shows_on_a_cached_card(world, club_a):
    ranking, anna = world["ranking"], world["anna"]
    url = reverse("federation_public:card", args=[ranking.pk, anna.pk])
    reader = Client()
    assert "Hessenpokal" not in reader.get(url, **DE).content.decode()
    other = make_ranking(world["ranking"].association, "Zweite Liste")
    event = EventFactory(club=club_a, name="Hessenpokal", start_date=dt.date(2025, 1, 5))
    approved_version(other, event, [{"player": anna.pk, "place": 2, "score": 0, "hands": 0}],
                     field_size=4)  # fmt: skip
    compute.recompute(other, "other")  # the first ranking's snapshot is unchanged
    assert "Hessenpokal" in reader.get(url, **DE).content.decode()


def test_cards_cost_the_same_queries_for_few_and_many_results(client, world, club_a,
                                                               national_officer):  # fmt: skip
    ranking = world["ranking"]
    client.force_login(national_officer)

    def counts(player):
        return [
            count(client, reverse("federation:player_card", args=[ranking.pk, player.pk])),
            count(Client(), reverse("federation_public:card", args=[ranking.pk, player.pk])),
            count(Client(), reverse("federation_api:player", args=[ranking.pk, player.pk])),
        ]

    few = counts(world["anna"])
    older_events(world, club_a, 12)
    assert counts(world["anna"]) == few
