"""The seating draw as a service: who is seated, reproducibility, ranked order, groups,
violations, swaps and the series' status."""

from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import make_sort_key
from scoring.models import Sheet
from tests.factories import SeriesFactory, seated_table
from tests.tournaments.conftest import make_participants
from tournaments import draw, services
from tournaments import seating as tournaments_seating
from tournaments.models import Event, Seat, Series, Table

pytestmark = pytest.mark.django_db


def seating_of(series) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, pid in (
        Seat.objects.filter(series=series)
        .order_by("table__number", "position")
        .values_list("table__number", "participant_id")
    ):
        tables.setdefault(number, []).append(pid)
    return [tables[n] for n in sorted(tables)]


@pytest.fixture
def series_1(event_a):
    return SeriesFactory(event=event_a, number=1)


@pytest.mark.parametrize("count", [3, 5, 6, 13, 22])
def test_everyone_checked_in_is_seated_exactly_once(event_a, organiser_a, series_1, count):
    players = make_participants(event_a, count)
    make_participants(event_a, 2, checked_in=False)
    series = tournaments_seating.draw_series(organiser_a, series_1, seed=42)
    tables = seating_of(series)
    seated = [pid for table in tables for pid in table]
    assert sorted(seated) == sorted(p.pk for p in players)
    assert [len(t) for t in tables] == draw.table_sizes(count)
    assert series.status == Series.Status.SEATED and series.draw_seed == 42
    assert series.draw_method == "lot" and series.drawn_by == organiser_a
    assert series.drawn_at is not None
    assert Seat.history.filter(series_id=series.pk).count() == count
    assert Seat.history.first().history_user == organiser_a


def test_a_seed_is_made_and_stored_when_none_is_given(event_a, organiser_a, series_1):
    make_participants(event_a, 8)
    series = tournaments_seating.draw_series(organiser_a, series_1)
    series.refresh_from_db()
    assert isinstance(series.draw_seed, int)


def test_the_stored_seed_reproduces_the_seating(event_a, organiser_a, series_1):
    make_participants(event_a, 23)
    first = tournaments_seating.draw_series(organiser_a, series_1)
    seating = seating_of(first)
    other = tournaments_seating.draw_series(organiser_a, series_1, seed=first.draw_seed + 1)
    assert seating_of(other) != seating
    again = tournaments_seating.draw_series(organiser_a, series_1, seed=first.draw_seed)
    assert seating_of(again) == seating
    # The re-draw replaced the tables instead of adding to them.
    assert Table.objects.filter(series=series_1).count() == 6


def test_later_series_skip_withdrawn_players(event_a, organiser_a):
    players = make_participants(event_a, 9)
    services.withdraw_participant(organiser_a, players[0], 2)
    one = SeriesFactory(event=event_a, number=1)
    two = SeriesFactory(event=event_a, number=2)
    first = tournaments_seating.draw_series(organiser_a, one, seed=1)
    assert sum(len(table) for table in seating_of(first)) == 9
    second = tournaments_seating.draw_series(organiser_a, two, seed=1)
    seated = [pid for table in seating_of(second) for pid in table]
    assert len(seated) == 8 and players[0].pk not in seated


def test_ranked_draw_seats_by_the_running_order(event_a, organiser_a):
    event_a.later_series_seating = Event.Seating.RANKED
    event_a.save()
    players = make_participants(event_a, 12)
    SeriesFactory(event=event_a, number=1)
    two = SeriesFactory(event=event_a, number=2)
    order = [p.pk for p in reversed(players)][:10]  # two players missing: they come last
    series = tournaments_seating.draw_series(organiser_a, two, seed=5, running_order=order)
    tables = seating_of(series)
    assert series.draw_method == "ranked"
    assert tables[0][0] == order[0]
    assert tables[0] == order[:4] and tables[1] == order[4:8]
    assert set(tables[2][2:]) == {players[0].pk, players[1].pk}


def test_series_1_is_drawn_by_lot_even_for_ranked_events(event_a, organiser_a, series_1):
    players = make_participants(event_a, 8)
    series = tournaments_seating.draw_series(
        organiser_a, series_1, seed=3, running_order=[p.pk for p in players]
    )
    assert series.draw_method == "lot"


def test_partners_never_share_a_table(event_a, organiser_a, series_1):
    players = make_participants(event_a, 24)
    for i in range(0, 24, 2):
        services.create_group(
            organiser_a, event_a, kind="pair", name=f"P{i}", members=players[i : i + 2]
        )
    for i in range(0, 24, 4):
        services.create_group(
            organiser_a, event_a, kind="team", name=f"T{i}", members=players[i : i + 4]
        )
    for seed in range(5):
        series = tournaments_seating.draw_series(organiser_a, series_1, seed=seed)
        assert series.draw_violations == []
        where = {pid: t for t, table in enumerate(seating_of(series)) for pid in table}
        for i in range(0, 24, 4):
            team = [where[p.pk] for p in players[i : i + 4]]
            assert len(set(team)) == 4


def test_unavoidable_violations_are_stored_and_shown(client, event_a, organiser_a, series_1):
    players = make_participants(event_a, 6)  # two tables of 3: a team of 4 cannot split
    services.create_group(organiser_a, event_a, kind="team", name="Vier", members=players[:4])
    series = tournaments_seating.draw_series(organiser_a, series_1, seed=9)
    codes = Counter(v["code"] for v in series.draw_violations)
    assert codes == {draw.GROUP_TOGETHER: 2}
    violation = series.draw_violations[0]
    assert set(violation) == {"code", "table", "players", "detail"}
    client.force_login(organiser_a)
    url = reverse("tournaments:seating", args=[series.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    names = [p.player for p in players if p.pk in violation["players"]]
    assert f"Table {violation['table']}: {names[0]} and {names[1]} belong to one pair or team" in (
        english.replace("&#x27;", "'")
    )
    assert f"seed {series.draw_seed}, by lot" in english


def test_same_club_and_repeat_opponents_are_reported(event_a, organiser_a, club_a):
    event_a.avoid_same_club = True
    event_a.avoid_repeat_opponents = True
    event_a.save()
    make_participants(event_a, 4, club=club_a)
    one = SeriesFactory(event=event_a, number=1)
    two = SeriesFactory(event=event_a, number=2)
    tournaments_seating.draw_series(organiser_a, one, seed=1)
    series = tournaments_seating.draw_series(organiser_a, two, seed=1)
    assert {v["code"] for v in series.draw_violations} == {
        draw.SAME_CLUB,
        draw.REPEAT_OPPONENTS,
    }


def test_too_few_players_is_a_translated_refusal(event_a, organiser_a, series_1):
    make_participants(event_a, 2)
    with pytest.raises(ValidationError) as caught:
        tournaments_seating.draw_series(organiser_a, series_1)
    assert caught.value.code == draw.TOO_FEW_PLAYERS
    assert "at least 3 players" in caught.value.messages[0]
    series_1.refresh_from_db()
    assert series_1.status == Series.Status.PLANNED


def test_no_redraw_once_sheets_exist_or_play_started(event_a, organiser_a, series_1):
    players = make_participants(event_a, 8)
    series = tournaments_seating.draw_series(organiser_a, series_1, seed=1)
    Sheet.objects.create(table=series.tables.first(), status="draft")
    with pytest.raises(ValidationError, match="Sheets exist"):
        tournaments_seating.draw_series(organiser_a, series, seed=2)
    other = SeriesFactory(event=event_a, number=2, status=Series.Status.IN_PLAY)
    seated_table(other, players[:4])
    with pytest.raises(ValidationError, match="started"):
        tournaments_seating.draw_series(organiser_a, other)


def test_swap_is_recorded_and_violations_recomputed(client, event_a, organiser_a, series_1):
    players = make_participants(event_a, 8)
    services.create_group(organiser_a, event_a, kind="pair", name="Duo", members=players[:2])
    series = tournaments_seating.draw_series(organiser_a, series_1, seed=4)
    assert series.draw_violations == []
    tables = seating_of(series)
    partner_table = 0 if players[0].pk in tables[0] else 1
    a = players[1].pk
    b = next(pid for pid in tables[partner_table] if pid != players[0].pk)
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:seat_swap", args=[series.pk]),
        {"player_a": a, "player_b": b},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    after = seating_of(series)
    assert players[1].pk in after[partner_table]
    series.refresh_from_db()
    assert [v["code"] for v in series.draw_violations] == [draw.GROUP_TOGETHER]
    changes = Seat.history.filter(series_id=series.pk, history_type="~")
    assert changes.count() == 2
    assert {c.history_user for c in changes} == {organiser_a}
    assert all("swapped" in c.history_change_reason for c in changes)
    page = client.get(reverse("tournaments:seating", args=[series.pk])).content.decode()
    assert "Seat changes" in page and "belong to one pair or team" in page


def test_swap_within_one_table(event_a, organiser_a, series_1):
    make_participants(event_a, 4)
    series = tournaments_seating.draw_series(organiser_a, series_1, seed=4)
    (table,) = seating_of(series)
    tournaments_seating.swap_seats(organiser_a, series, table[0], table[3])
    assert seating_of(series) == [[table[3], table[1], table[2], table[0]]]


def test_start_and_complete(event_a, organiser_a, series_1):
    make_participants(event_a, 4)
    with pytest.raises(ValidationError):
        services.start_series(organiser_a, series_1)
    tournaments_seating.draw_series(organiser_a, series_1, seed=1)
    series = services.start_series(organiser_a, series_1)
    assert series.status == Series.Status.IN_PLAY
    with pytest.raises(ValidationError):
        tournaments_seating.swap_seats(organiser_a, series, *seating_of(series)[0][:2])
    assert services.complete_series(organiser_a, series).status == Series.Status.COMPLETE
    with pytest.raises(ValidationError):
        services.complete_series(organiser_a, series)


def test_new_series_are_numbered_in_turn(client, event_a, organiser_a):
    client.force_login(organiser_a)
    url = reverse("tournaments:series_create", args=[event_a.pk])
    assert client.get(url).context["form"].initial["planned_rounds"] == 5
    client.post(url, {"planned_rounds": 5, "day": 1})
    client.post(url, {"planned_rounds": 4, "day": 2})
    assert list(event_a.series.values_list("number", "planned_rounds", "day")) == [
        (1, 5, 1),
        (2, 4, 2),
    ]


def test_the_seating_page_lists_by_table_and_by_name(client, event_a, organiser_a, series_1):
    make_participants(event_a, 7)
    client.force_login(organiser_a)
    tournaments_seating.draw_series(organiser_a, series_1)
    page = client.get(reverse("tournaments:seating", args=[series_1.pk]))
    data = page.context["seating"]
    assert [len(rows) for _, rows in data.tables] == [4, 3]
    players = [r.participant.player for r in data.alphabetical]
    # German order (Tröst before Trub: ö sorts as o), not code points.
    german = sorted(
        players, key=lambda p: make_sort_key(p.given_name, p.family_name, p.player_number)
    )
    assert players == german
    assert "Swap two seats" in page.content.decode()


def test_the_seating_page_warns_about_players_withdrawn_after_the_draw(
    client, event_a, organiser_a, series_1
):
    players = make_participants(event_a, 5)
    tournaments_seating.draw_series(organiser_a, series_1, seed=1)
    services.withdraw_participant(organiser_a, players[0], 1)
    client.force_login(organiser_a)
    page = client.get(reverse("tournaments:seating", args=[series_1.pk]))
    assert page.context["seating"].not_playing == [players[0]]
    assert "no longer playing" in page.content.decode()


def test_a_ranked_event_without_running_order_draws_by_lot(event_a, organiser_a):
    make_participants(event_a, 8)
    SeriesFactory(event=event_a, number=1)
    two = SeriesFactory(event=event_a, number=2)
    assert tournaments_seating.draw_series(organiser_a, two, seed=2).draw_method == "lot"


def test_completing_a_series_with_open_tables_asks_once_more(
    client, event_a, organiser_a, series_1
):
    """Completing closes the table links; before, one click did it while phones were still
    entering at tables without a confirmed sheet."""
    make_participants(event_a, 8)
    tournaments_seating.draw_series(organiser_a, series_1, seed=1)
    series = services.start_series(organiser_a, series_1)
    first, second = Table.objects.filter(series=series).order_by("number")
    Sheet.objects.create(table=first, status=Sheet.Status.CONFIRMED)
    Sheet.objects.create(table=second, status=Sheet.Status.ENTERED)
    client.force_login(organiser_a)
    url = reverse("tournaments:series_complete", args=[series.pk])
    page = client.post(url, HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Serie 1 abschließen?" in text
    assert "An Tisch 2 ist die Spielliste noch nicht bestätigt" in text
    assert 'name="open_tables" value="ok"' in text
    series.refresh_from_db()
    assert series.status == Series.Status.IN_PLAY
    assert client.post(url, {"open_tables": "ok"}).status_code == 302
    series.refresh_from_db()
    assert series.status == Series.Status.COMPLETE
