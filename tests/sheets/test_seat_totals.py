"""SeatTotal rows are derived from the stored hands after every kind of write: a save, a
draft, a correction with other values, a blind re-entry, a rule-set change, generated demo
events and an archive import. Each test compares them with the hands summed in Python."""

import copy
from collections import defaultdict

import pytest

from scoring.models import HandSeat, SeatTotal, Sheet
from scoring.sheets import services
from tests.sheets.conftest import make_series, random_grid, scorer

pytestmark = pytest.mark.django_db


def _summed_from_hands():
    sums = defaultdict(lambda: [0, 0, 0, 0])
    for seat in HandSeat.objects.select_related("hand"):
        row = sums[(seat.hand.sheet_id, seat.position, seat.participant_id)]
        won = seat.hand.winner == seat.position
        row[0] += seat.points
        row[1] += 0 if won or seat.held_points is None else seat.held_points
        row[2] += won
        row[3] += won and seat.hand.hand_romme
    return dict(sums)


def _stored_totals():
    return {
        (t.sheet_id, t.position, t.participant_id): [
            t.points,
            t.lost_hand_points,
            t.hands_won,
            t.hand_rommes,
        ]
        for t in SeatTotal.objects.all()
    }


def _assert_consistent():
    summed = _summed_from_hands()
    assert summed, "the test stored hands"
    assert _stored_totals() == summed


def test_saves_drafts_corrections_and_blind_entries_keep_the_totals(club_a, scorer_a, organiser_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=21, hand_romme_rate=0.3)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    services.save_sheet(scorer_a, tables[1], random_grid(seed=22, hands=6), expected_version=0)
    _assert_consistent()

    services.confirm_sheet(scorer(club_a, "s2"), tables[0], grid, expected_version=1)
    fixed = copy.deepcopy(grid)
    hand = fixed["hands"][2]
    loser = next(i for i in range(4) if i != hand["winner"])
    hand["seats"][loser]["hand_points"] = 61
    services.save_sheet(
        organiser_a, tables[0], fixed, expected_version=2, submit=True, reason="misread"
    )
    _assert_consistent()
    sheet = Sheet.objects.get(table=tables[0])
    total = SeatTotal.objects.get(sheet=sheet, position=loser)
    assert total.lost_hand_points == sum(
        s.held_points or 0
        for s in HandSeat.objects.filter(hand__sheet=sheet, position=loser)
        if s.hand.winner != loser
    )

    # fewer hands in a draft than before: the totals follow, none are left over
    services.save_sheet(scorer_a, tables[1], random_grid(seed=23, hands=2), expected_version=1)
    _assert_consistent()


def test_a_blind_entry_that_confirms_keeps_the_totals(club_a, scorer_a):
    _series, tables = make_series(club_a, blind=True)
    grid = random_grid(seed=24)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    result = services.blind_confirm(scorer(club_a, "s2"), tables[0], grid, expected_version=1)
    assert result.confirmed
    _assert_consistent()


def test_a_rule_set_change_recomputes_the_totals(club_a, scorer_a, organiser_a):
    series, tables = make_series(club_a)
    services.save_sheet(
        scorer_a, tables[0], random_grid(seed=25, hand_romme_rate=0.4), expected_version=0,
        submit=True,
    )  # fmt: skip
    before = _stored_totals()
    services.change_ruleset(
        organiser_a, series.event, "german-minus", {"hand_romme_multiplier": 2}, "doubled"
    )
    _assert_consistent()
    assert _stored_totals() != before


def test_generated_events_and_archive_imports_store_totals(club_a):
    from bench.rigs.datasets import _players
    from scoring.archive.dump import dumps, export_event
    from scoring.archive.load import import_event, loads
    from scoring.demo.generate import Plan, generate_event

    people = _players(8, [club_a], "T-")
    event = generate_event(
        Plan(name="Totals", club=club_a, players=people, series=2, rounds=1, seed=3)
    )
    _assert_consistent()
    imported = import_event(loads(dumps(export_event(event))), rename="Totals 2").event
    _assert_consistent()
    assert SeatTotal.objects.filter(sheet__table__series__event=imported).count() == (
        SeatTotal.objects.filter(sheet__table__series__event=event).count()
    )


def test_the_migration_derives_totals_for_stored_sheets(club_a, scorer_a):
    import importlib

    from django.apps import apps

    _series, tables = make_series(club_a)
    services.save_sheet(scorer_a, tables[0], random_grid(seed=26), expected_version=0)
    SeatTotal.objects.all().delete()
    importlib.import_module("scoring.migrations.0005_seat_totals").backfill(apps, None)
    _assert_consistent()


def test_a_first_save_writes_without_deleting_and_a_second_replaces(club_a, scorer_a):
    """A sheet created by the save has no rows to delete: its first save runs no DELETE and
    reads no hands back (two round trips fewer while the hall's SQLite holds its write
    lock); the next save replaces every row."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _series, tables = make_series(club_a)
    with CaptureQueriesContext(connection) as first:
        services.save_sheet(scorer_a, tables[0], random_grid(seed=31, hands=6), expected_version=0)
    sql = [q["sql"] for q in first.captured_queries]
    assert not [s for s in sql if s.startswith("DELETE")]
    assert not [s for s in sql if s.startswith('SELECT "scoring_hand"."id"')]
    _assert_consistent()
    with CaptureQueriesContext(connection) as second:
        services.save_sheet(scorer_a, tables[0], random_grid(seed=32, hands=8), expected_version=1)
    assert len([q for q in second.captured_queries if q["sql"].startswith("DELETE")]) >= 2
    _assert_consistent()
    assert Sheet.objects.get(table=tables[0]).hands.count() == 8
