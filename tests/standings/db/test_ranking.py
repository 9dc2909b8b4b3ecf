"""Standings from stored hands: ranks, each tie-break metric, lots, playoffs, seasons."""

from collections import defaultdict
from itertools import pairwise

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from scoring.models import HandSeat
from scoring.standings import aggregate, selectors, services
from scoring.standings import season as standings_season
from tournaments.models import Series

from .conftest import add_series, director, generated, make_event, store_sheet

pytestmark = pytest.mark.django_db


def H(winner, *seats, romme=False):
    """A hand: ``seats`` are (hand_points, points) per seat."""
    return (winner, romme, list(seats))


def keys(standing):
    return [row.key for row in standing.rows]


# ----------------------------------------------------------------------------- ranks


def test_shared_ranks_end_to_end_from_stored_hands(club_a):
    event, (a, b, c, d) = make_event(club_a, chain=("total",))
    add_series(
        event,
        [a, b, c, d],
        [
            H(0, (0, 30), (10, -10), (10, -10), (40, -40)),
            H(1, (20, -20), (0, 20), (0, 10), (5, -5)),
        ],
    )
    standing = selectors.event_standing(event, only_published=False)
    # a 10, b 10, c 0, d -45
    assert [(r.key, r.rank, r.total) for r in standing.rows] == [
        (a.pk, 1, 10),
        (b.pk, 1, 10),
        (c.pk, 3, 0),
        (d.pk, 4, -45),
    ]
    assert standing.rows[0].reason.metric == "shared"
    assert "share the rank" in standing.rows[0].reason_text
    assert standing.rows[1].reason.metric == "total"
    assert standing.rows[1].reason_text == "Ahead of the next row on “Total”: 10 against 0."


def test_aggregates_match_the_stored_hands(club_a):
    """Totals, hands won (winner == position), hand Rommés and lost hand points per player."""
    event = generated(club_a, 16, series=2, rounds=2)
    expected = defaultdict(lambda: [0, 0, 0, 0])
    for hs in HandSeat.objects.select_related("hand"):
        e = expected[hs.participant_id]
        e[0] += hs.points
        won = hs.hand.winner == hs.position
        e[1] += won
        e[2] += won and hs.hand.hand_romme
        e[3] += 0 if won else (hs.hand_points or 0)
    results = aggregate.aggregate(selectors._visible_series(event, only_published=False))
    got = defaultdict(lambda: [0, 0, 0, 0])
    for r in results:
        g = got[r.participant_id]
        g[0] += r.total
        g[1] += r.hands_won
        g[2] += r.hand_rommes
        g[3] += r.hand_points
    assert dict(got) == dict(expected)
    assert sum(v[1] for v in got.values()) == 2 * 2 * 16  # one winner per hand (no draws)


@pytest.mark.parametrize(
    "metric, hands, better_value, worse_value",
    [
        # a and b both end on 0; a went out twice, b once.
        (
            "hands_won",
            [H(0, (0, 10), (5, -10), (0, 0)), H(0, (0, 10), (5, -10), (0, 0)),
             H(1, (5, -20), (0, 20), (0, 0))],
            2,
            1,
        ),
        # one hand each, a's was a hand Rommé.
        (
            "hand_rommes",
            [H(0, (0, 10), (5, -10), (0, 0), romme=True), H(1, (5, -10), (0, 10), (0, 0))],
            1,
            0,
        ),
        # the same total, a held fewer hand points in lost hands.
        (
            "fewest_hand_points",
            [H(2, (3, -5), (30, 5), (0, -10)), H(2, (4, 5), (1, -5), (0, -10))],
            7,
            31,
        ),
    ],
)  # fmt: skip
def test_each_tie_break_metric_from_db_aggregates(club_a, metric, hands, better_value, worse_value):
    event, (a, b, c) = make_event(club_a, players=3, chain=("total", metric))
    add_series(event, [a, b, c], hands)
    standing = selectors.event_standing(event, only_published=False)
    top = {r.key: r for r in standing.rows[:2]}
    assert set(top) == {a.pk, b.pk}
    assert top[a.pk].total == top[b.pk].total
    first, second = standing.rows[0], standing.rows[1]
    assert first.key == a.pk and (first.rank, second.rank) == (1, 2)
    assert first.reason.metric == metric
    assert (first.reason.this, first.reason.next) == (better_value, worse_value)
    assert first.values[metric] == better_value


@pytest.mark.parametrize("metric", ["last_series", "best_series"])
def test_series_metrics_from_db_aggregates(club_a, metric):
    event, (a, b, c) = make_event(club_a, players=3, chain=("total", metric))
    if metric == "last_series":
        # a: 0 then 10; b: 10 then 0 -> equal totals, a has the better last series.
        add_series(event, [a, b, c], [H(1, (5, 0), (0, 10), (5, -10))])
        add_series(event, [a, b, c], [H(0, (0, 10), (5, 0), (5, -10))])
        expected = (10, 0)
    else:
        # a: 30, -20; b: 5, 5 -> both 10, a has the better best series.
        add_series(event, [a, b, c], [H(0, (0, 30), (5, 5), (5, -35))])
        add_series(event, [a, b, c], [H(1, (5, -20), (0, 5), (5, 15))])
        expected = (30, 5)
    standing = selectors.event_standing(event, only_published=False)
    first, second = standing.rows[0], standing.rows[1]
    assert (first.key, second.key) == (a.pk, b.pk)
    assert first.total == second.total == 10
    assert first.reason.metric == metric
    assert (first.reason.this, first.reason.next) == expected


def test_series_and_day_scopes_and_provisional(club_a):
    event, (a, b, c, d) = make_event(club_a, chain=("total",))
    add_series(event, [a, b, c, d], [H(0, (0, 10), (5, -5), (5, -5), (0, 0))], day=1)
    add_series(event, [a, b, c, d], [H(1, (5, -5), (0, 20), (5, -5), (5, -10))], day=2)
    add_series(
        event, [a, b, c, d], [H(2, (5, -5), (5, -5), (0, 50), (0, -40))], day=2, status="entered"
    )
    s1 = selectors.event_standing(event, scope="series", number=1, only_published=False)
    assert s1.rows[0].key == a.pk and s1.counted_series == [1]
    day2 = selectors.event_standing(event, scope="day", number=2, only_published=False)
    assert day2.rows[0].key == b.pk and day2.counted_series == [2, 3]
    confirmed = selectors.event_standing(event, only_published=False)
    assert not confirmed.provisional and not any(r.provisional for r in confirmed.rows)
    assert {r.key: r.total for r in confirmed.rows}[c.pk] == -10
    provisional = selectors.event_standing(event, include_entered=True, only_published=False)
    assert provisional.provisional and all(r.provisional for r in provisional.rows)
    assert provisional.rows[0].key == c.pk and provisional.rows[0].total == 40


def test_pairs_and_teams_are_sums_of_their_members(club_a):
    event = generated(club_a, 16, series=2, rounds=1, pairs=4, teams=2)
    individual = {
        r.key: r.total for r in selectors.event_standing(event, only_published=False).rows
    }
    for kind, size in (("pair", 2), ("team", 4)):
        standing = selectors.event_standing(event, competition=kind, only_published=False)
        assert len(standing.rows) == (4 if kind == "pair" else 2)
        for row in standing.rows:
            assert len(row.members) == size
            assert row.total == sum(individual[m["participant_id"]] for m in row.members)
            assert sum(row.series_totals.values()) == row.total


# ----------------------------------------------------------------------------- lots


def test_lots_seed_is_drawn_once_stored_and_reproducible(club_a):
    event, (a, b, c) = make_event(club_a, players=3, chain=("total", "lots"))
    add_series(event, [a, b, c], [H(2, (5, 0), (5, 0), (0, 10))])
    assert event.lots_seed is None
    first = selectors.event_standing(event, only_published=False)
    event.refresh_from_db()
    seed = event.lots_seed
    assert seed is not None
    assert first.lots_seed == seed
    assert [r.rank for r in first.rows] == [1, 2, 3]
    assert first.rows[1].reason.metric == "lots"
    lots = {r.key: r.values["lots"] for r in first.rows}
    for _ in range(3):
        again = selectors.event_standing(type(event).objects.get(pk=event.pk), only_published=False)
        assert {r.key: r.values["lots"] for r in again.rows} == lots
    event.refresh_from_db()
    assert event.lots_seed == seed
    from rules.standings.core import lots_order

    assert lots_order([a.pk, b.pk, c.pk], seed) == lots


def test_no_seed_is_drawn_while_no_tie_needs_lots(club_a):
    event, (a, b) = make_event(club_a, players=2, chain=("total", "lots"))
    add_series(event, [a, b], [H(0, (0, 10), (5, -5))])
    selectors.event_standing(event, only_published=False)
    event.refresh_from_db()
    assert event.lots_seed is None


# ----------------------------------------------------------------------------- playoffs


def test_a_tie_on_the_prize_line_is_played_off(club_a):
    event, (a, b, c, d) = make_event(club_a, chain=("total", "hands_won"))
    # a and b tie on total and hands won at the top.
    add_series(
        event,
        [a, b, c, d],
        [H(0, (0, 20), (5, -5), (5, -5), (10, -10)), H(1, (5, -5), (0, 20), (5, -5), (5, -10))],
    )
    organiser = director(club_a)
    before = selectors.event_standing(event, only_published=False)
    assert [[r.key for r in t] for t in before.ties] == [[a.pk, b.pk]]
    totals_before = {r.key: r.total for r in before.rows}

    with pytest.raises(ValidationError):
        services.create_playoff(organiser, event, [a.pk, c.pk])
    series = services.create_playoff(organiser, event, [b.pk, a.pk])
    assert series.kind == Series.Kind.PLAYOFF and series.planned_rounds == 1
    assert series.status == Series.Status.SEATED and series.number == 2
    table = series.tables.get()
    assert list(table.seats.order_by("position").values_list("participant_id", flat=True)) == [
        a.pk,
        b.pk,
    ]
    assert series.playoff_of["line"] == 1 and series.playoff_of["participants"] == [a.pk, b.pk]
    # While the playoff sheet is open no second playoff is proposed for them.
    with pytest.raises(ValidationError):
        services.create_playoff(organiser, event, [a.pk, b.pk])

    # The playoff: a round per dealer (2 hands), b wins it.
    store_sheet(table, [H(1, (10, -10), (0, 10)), H(1, (5, -5), (0, 5))])
    after = selectors.event_standing(event, only_published=False)
    assert [r.key for r in after.rows[:2]] == [b.pk, a.pk]
    assert [r.rank for r in after.rows[:2]] == [1, 2]
    assert after.rows[0].reason.metric == "playoff"
    assert {r.key: r.total for r in after.rows} == totals_before  # totals unchanged
    assert after.ties == []
    # The playoff series is not a regular series: its points count nowhere else.
    assert after.counted_series == [1]


def test_a_playoff_that_ties_again_is_proposed_again(club_a):
    event, (a, b, c) = make_event(club_a, players=3, chain=("total",))
    add_series(event, [a, b, c], [H(2, (5, -5), (5, -5), (0, 10))])
    # c wins, a and b tie for 2nd; with prize lines [2] that tie matters.
    event.prize_lines = [2]
    event.save()
    organiser = director(club_a)
    assert [[r.key for r in t] for t in selectors.event_standing(event).ties] == [[a.pk, b.pk]]
    first = services.create_playoff(organiser, event, [a.pk, b.pk])
    store_sheet(first.tables.get(), [H(0, (0, 5), (5, -5)), H(1, (5, -5), (0, 5))])
    still = selectors.event_standing(event, only_published=False)
    assert [[r.key for r in t] for t in still.ties] == [[a.pk, b.pk]]
    second = services.create_playoff(organiser, event, [a.pk, b.pk])
    assert second.number == first.number + 1
    store_sheet(second.tables.get(), [H(0, (0, 8), (8, -8)), H(0, (0, 3), (3, -3))])
    done = selectors.event_standing(event, only_published=False)
    assert [r.key for r in done.rows] == [c.pk, a.pk, b.pk]
    assert done.ties == []


def test_only_an_organiser_creates_a_playoff(club_a, scorer_a):
    event, (a, b) = make_event(club_a, players=2, chain=("total",))
    add_series(event, [a, b], [H(0, (0, 0), (0, 0))])
    with pytest.raises(PermissionDenied):
        services.create_playoff(scorer_a, event, [a.pk, b.pk])


# ----------------------------------------------------------------------------- tie-break chain


def test_changing_the_chain_after_results_needs_a_reason_and_is_recorded(club_a, viewer_a):
    event, (a, b) = make_event(club_a, players=2)
    organiser = director(club_a)
    services.change_tie_break(organiser, event, ["total", "hand_rommes"], "")
    add_series(event, [a, b], [H(0, (0, 5), (5, -5))])
    with pytest.raises(ValidationError):
        services.change_tie_break(organiser, event, ["total", "hands_won"], " ")
    with pytest.raises(ValidationError):
        services.change_tie_break(organiser, event, ["lots", "hands_won"], "x")
    with pytest.raises(PermissionDenied):
        services.change_tie_break(viewer_a, event, ["hands_won"], "why")
    services.change_tie_break(organiser, event, ["hands_won", "lots"], "Club rule 4")
    event.refresh_from_db()
    assert event.tie_break_chain == ["total", "hands_won", "lots"]
    record = event.history.order_by("-history_date").first()
    assert record.history_change_reason == "Club rule 4"
    assert record.history_user == organiser


def test_publish_toggle_is_for_organisers(club_a, scorer_a):
    event, (a, b) = make_event(club_a, players=2)
    series = add_series(event, [a, b], [H(0, (0, 5), (5, -5))], published=False)
    with pytest.raises(PermissionDenied):
        services.set_series_published(scorer_a, series, True)
    services.set_series_published(director(club_a), series, True)
    series.refresh_from_db()
    assert series.published


# ----------------------------------------------------------------------------- seasons


def test_season_drops_the_worst_results_by_the_rule(club_a):
    import datetime as dt

    from bench.rigs.datasets import _players
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Season

    season = Season.objects.create(
        club=club_a,
        name="2026",
        start_date=dt.date(2026, 1, 1),
        end_date=dt.date(2026, 12, 31),
        drop_start=3,
        drop_every=2,
        drop_maximum=2,
        minimum_series=4,
    )
    members = _players(8, [club_a], "SEA")
    for evening in range(3):  # 3 evenings x 2 series = 6 series for everyone but the last
        present = members if evening < 2 else members[:-1]
        generate_event(
            Plan(name=f"Abend {evening}", club=club_a, players=present, series=2, rounds=1,
                 kind="club_evening", season=season, seed=evening,
                 start_date=dt.date(2026, 1, 1) + dt.timedelta(days=7 * evening))
        )  # fmt: skip
    standing = standings_season.season_standing(season)
    assert standing.series_count == 6
    by_player = {line.player_id: line for line in standing.lines}
    for line in standing.lines:
        results = [r.total for r in line.results]
        played = len(results)
        # start 3, every 2, max 2: 4 played -> 1 dropped, 6 played -> 2 dropped
        expected = {4: 1, 6: 2}[played]
        assert len(line.dropped) == expected
        worst = sorted(range(played), key=lambda i: (results[i], i))[:expected]
        assert sorted(line.row.dropped) == sorted(worst)
        assert line.row.counted_total == sum(results) - sum(results[i] for i in worst)
    assert by_player[members[-1].pk].row.played == 4
    ranked = [line for line in standing.lines if line.row.qualified]
    assert all(x.row.counted_total >= y.row.counted_total for x, y in pairwise(ranked))
