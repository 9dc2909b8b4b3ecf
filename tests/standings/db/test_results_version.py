"""The results version (issue 19): every write that can change a public figure raises it in
its own transaction; a draft, an entry that nobody confirmed yet or a refused write do not."""

import copy

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from scoring.archive.dump import export_event
from scoring.archive.load import import_event
from scoring.sheets import disputes
from scoring.sheets import services as sheet_services
from scoring.standings import services
from tests.factories import SeriesFactory
from tests.sheets.conftest import make_series, random_grid, scorer
from tests.standings.db.conftest import add_series, director, make_event
from tournaments import services as event_services
from tournaments.models import Event
from tournaments.results import bump_results_version

pytestmark = pytest.mark.django_db


def H(winner, *seats, romme=False):
    return (winner, romme, list(seats))


def version(event_or_id) -> int:
    pk = getattr(event_or_id, "pk", event_or_id)
    return Event.objects.values_list("results_version", flat=True).get(pk=pk)


def test_the_bump_adds_one_and_stamps_the_time(club_a):
    event, _people = make_event(club_a)
    assert version(event) == 0 and event.results_changed_at is None
    with transaction.atomic():
        bump_results_version(event.pk)
        bump_results_version(event.pk)
    event.refresh_from_db()
    assert event.results_version == 2 and event.results_changed_at is not None


def test_the_bump_refuses_to_run_outside_a_transaction(club_a, django_db_blocker):
    event, _people = make_event(club_a)
    # pytest-django wraps each test in a transaction; outside any, the bump refuses.
    connection = transaction.get_connection()
    in_block = connection.in_atomic_block
    connection.in_atomic_block = False
    try:
        with pytest.raises(RuntimeError):
            bump_results_version(event.pk)
    finally:
        connection.in_atomic_block = in_block


def test_a_stale_event_object_never_writes_back_an_older_version(club_a, organiser_a):
    event, _people = make_event(club_a)
    stale = Event.objects.get(pk=event.pk)  # loaded at version 0
    with transaction.atomic():
        for _ in range(3):
            bump_results_version(event.pk)
    stale.venue = "Stadthalle"
    stale.save()
    assert version(event) == 3
    event_services.update_event(organiser_a, stale, venue="Bürgerhaus")
    assert version(event) == 4  # the edit bumps on top, never back to 1


def test_draft_and_entry_do_not_bump_confirmation_does(club_a, scorer_a):
    series, tables = make_series(club_a)
    grid = random_grid(seed=3)
    sheet_services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=False)
    assert version(series.event_id) == 0
    sheet_services.save_sheet(scorer_a, tables[0], grid, expected_version=1, submit=True)
    assert version(series.event_id) == 0
    checker = scorer(club_a, "checker")
    with pytest.raises(ValidationError):  # a refused confirmation changes nothing
        changed = copy.deepcopy(grid)
        changed["hands"][0]["seats"][1]["hand_points"] += 1
        sheet_services.confirm_sheet(checker, tables[0], changed, expected_version=2)
    assert version(series.event_id) == 0
    sheet_services.confirm_sheet(checker, tables[0], grid, expected_version=2)
    assert version(series.event_id) == 1


def test_a_correction_of_a_confirmed_sheet_bumps(club_a, scorer_a, organiser_a):
    series, tables = make_series(club_a)
    grid = random_grid(seed=5)
    sheet_services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    sheet_services.confirm_sheet(scorer(club_a, "checker"), tables[0], grid, expected_version=1)
    before = version(series.event_id)
    corrected = copy.deepcopy(grid)
    hand = corrected["hands"][0]
    loser = next(i for i in range(4) if i != hand["winner"])
    hand["seats"][loser]["hand_points"] = 7 if hand["seats"][loser]["hand_points"] != 7 else 8
    sheet_services.save_sheet(
        organiser_a, tables[0], corrected, expected_version=2, submit=True, reason="Tippfehler"
    )
    assert version(series.event_id) == before + 1


def test_blind_confirmation_bumps_only_when_it_confirms_and_resolution_bumps(club_a, scorer_a):
    series, tables = make_series(club_a, blind=True)
    grid = random_grid(seed=9)
    for table in tables[:2]:
        sheet_services.save_sheet(scorer_a, table, grid, expected_version=0, submit=True)
    sheet_services.blind_confirm(
        scorer(club_a, "second"), tables[0], copy.deepcopy(grid), expected_version=1
    )
    assert version(series.event_id) == 1
    typo = copy.deepcopy(grid)
    hand = typo["hands"][2]
    loser = next(i for i in range(4) if i != hand["winner"])
    hand["seats"][loser]["hand_points"] = 7 if hand["seats"][loser]["hand_points"] != 7 else 8
    result = sheet_services.blind_confirm(
        scorer(club_a, "third"), tables[1], typo, expected_version=1
    )
    assert not result.confirmed and version(series.event_id) == 1
    disputes.resolve_dispute(scorer_a, tables[1], grid, expected_version=2)
    assert version(series.event_id) == 2


def test_rule_set_change_and_recompute_bump(club_a, scorer_a, organiser_a):
    series, _tables = make_series(club_a)
    event = series.event
    sheet_services.change_ruleset(organiser_a, event, "german-minus-20", None, "Neue Ordnung")
    assert version(event) == 1
    sheet_services.recompute_results(organiser_a, event, "Nachrechnen")
    assert version(event) == 2


def test_publishing_tie_breaks_and_prize_lines_bump(club_a):
    event, (a, b, c, d) = make_event(club_a)
    series = add_series(event, [a, b, c, d], [H(0, (0, 20), (5, -5), (5, -5), (10, -10))],
                        published=False)  # fmt: skip
    organiser = director(club_a)
    services.set_series_published(organiser, series, True)
    assert version(event) == 1
    services.set_series_published(organiser, series, True)  # no change: no bump
    assert version(event) == 1
    services.set_series_published(organiser, series, False)
    assert version(event) == 2
    services.change_tie_break(organiser, event, ["total", "hands_won"], "Ausschreibung")
    assert version(event) == 3
    services.set_prize_lines(organiser, event, [1, 3], "Preise")
    assert version(event) == 4


def test_a_playoff_bumps(club_a):
    event, (a, b, c, d) = make_event(club_a, chain=("total", "hands_won"))
    add_series(
        event,
        [a, b, c, d],
        [H(0, (0, 20), (5, -5), (5, -5), (10, -10)), H(1, (5, -5), (0, 20), (5, -5), (5, -10))],
    )
    before = version(event)
    services.create_playoff(director(club_a), event, [a.pk, b.pk])
    assert version(event) == before + 1


def test_series_deletion_groups_and_withdrawals_bump(club_a, organiser_a):
    event, people = make_event(club_a)
    series = SeriesFactory(event=event, number=1)
    event_services.delete_series(organiser_a, series)
    assert version(event) == 1
    group = event_services.create_group(
        organiser_a, event, kind="pair", name="Herz", members=people[:2]
    )
    assert version(event) == 2
    event_services.delete_group(organiser_a, group)
    assert version(event) == 3
    event_services.withdraw_participant(organiser_a, people[0], 2)
    event_services.undo_withdrawal(organiser_a, people[0])
    assert version(event) == 5


def test_an_archive_import_bumps(club_a, scorer_a):
    series, tables = make_series(club_a, tables=1)
    grid = random_grid(seed=2)
    sheet_services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    sheet_services.confirm_sheet(scorer(club_a, "checker"), tables[0], grid, expected_version=1)
    imported = import_event(export_event(series.event), rename="Kopie").event
    assert version(imported) == 1


def test_a_plain_event_save_does_not_bump(club_a, organiser_a):
    event, _people = make_event(club_a)
    event.venue = "Rathaus"
    event.save()
    assert version(event) == 0
