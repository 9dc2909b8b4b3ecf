"""Confirming exactly what is shown, disputes after a differing blind entry, started series."""

import copy

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from scoring import disputes, services
from scoring.models import HandSeat, Sheet, SheetVersion
from tests.factories import user_with_role
from tests.scoring.conftest import make_series, random_grid, scorer

pytestmark = pytest.mark.django_db


def _loser(hand):
    return next(i for i in range(4) if i != hand["winner"])


def _changed(grid, hand_index, value=None):
    out = copy.deepcopy(grid)
    hand = out["hands"][hand_index]
    seat = _loser(hand)
    old = hand["seats"][seat]["hand_points"]
    hand["seats"][seat]["hand_points"] = (
        value if value is not None else (old + 1 if old < 90 else 5)
    )
    return out, seat


def test_confirm_refuses_a_grid_that_differs_from_the_stored_version(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=3)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    checker = scorer(club_a, "checker")
    edited, _seat = _changed(grid, 4)
    with pytest.raises(ValidationError, match="differs from the stored version in 1 cell"):
        services.confirm_sheet(checker, tables[0], edited, expected_version=1)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.ENTERED and sheet.version == 1
    # The grid as stored confirms.
    services.confirm_sheet(checker, tables[0], copy.deepcopy(grid), expected_version=1)
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_by == checker


def test_confirm_after_a_conflict_confirms_only_the_grid_now_stored(club_a, scorer_a):
    """Two checkers load version 1; C saves a change; B's confirm from version 1 is a
    conflict, and B's own grid never confirms C's values."""
    _series, tables = make_series(club_a)
    grid = random_grid(seed=4)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    b, c = scorer(club_a, "b_checker"), scorer(club_a, "c_checker")
    theirs, seat = _changed(grid, 2)
    services.save_sheet(c, tables[0], theirs, expected_version=1, submit=True)
    with pytest.raises(services.SheetConflict) as conflict:
        services.confirm_sheet(b, tables[0], grid, expected_version=1)
    assert conflict.value.current_version == 2 and conflict.value.by == c
    # B now looks at version 2 but still shows their own grid: refused.
    with pytest.raises(ValidationError):
        services.confirm_sheet(b, tables[0], grid, expected_version=2)
    # B takes the stored values: confirmed, with exactly those values.
    services.confirm_sheet(b, tables[0], theirs, expected_version=2)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_by == b
    assert sheet.versions.get(number=3).grid == sheet.versions.get(number=2).grid
    hs = HandSeat.objects.get(hand__sheet=sheet, hand__number=3, position=seat)
    assert hs.hand_points == theirs["hands"][2]["seats"][seat]["hand_points"]


def test_sheets_are_refused_before_the_series_starts(club_a, scorer_a):
    series, tables = make_series(club_a)
    series.status = "seated"
    series.save()
    with pytest.raises(ValidationError, match="has not started yet") as refused:
        services.save_sheet(scorer_a, tables[0], random_grid(), expected_version=0, submit=True)
    assert "Start the series" in refused.value.messages[0]
    assert not Sheet.objects.exists()
    series.status = "complete"
    series.save()
    services.save_sheet(scorer_a, tables[0], random_grid(), expected_version=0, submit=True)
    assert Sheet.objects.get().status == Sheet.Status.ENTERED


def _disputed(club, first):
    _series, tables = make_series(club, blind=True)
    grid = random_grid(seed=9)
    services.save_sheet(first, tables[0], grid, expected_version=0, submit=True)
    second = scorer(club, "second")
    typo, seat = _changed(grid, 6)
    result = services.blind_confirm(second, tables[0], typo, expected_version=1)
    assert not result.confirmed
    return tables[0], grid, typo, seat, second


def test_only_a_director_or_the_first_scorer_resolves_a_dispute(club_a, scorer_a, organiser_a):
    table, grid, typo, seat, second = _disputed(club_a, scorer_a)
    third = scorer(club_a, "third")
    for user in (second, third):
        with pytest.raises(PermissionDenied):
            disputes.resolve_dispute(user, table, grid, expected_version=2)
    with pytest.raises(PermissionDenied):  # another club's organiser
        from tests.factories import ClubFactory

        other = user_with_role(ClubFactory(), "organiser", username="elsewhere")
        disputes.resolve_dispute(other, table, grid, expected_version=2)

    # The director takes the second entry's value for the disputed cell.
    version = disputes.resolve_dispute(organiser_a, table, typo, expected_version=2)
    sheet = Sheet.objects.get(table=table)
    assert sheet.status == Sheet.Status.CONFIRMED and version.kind == "resolution"
    assert sheet.resolved_by == organiser_a and sheet.confirmed_by == organiser_a
    assert sheet.entered_by == scorer_a and sheet.version == 3
    hs = HandSeat.objects.get(hand__sheet=sheet, hand__number=7, position=seat)
    assert hs.hand_points == typo["hands"][6]["seats"][seat]["hand_points"]
    kinds = list(sheet.versions.order_by("number").values_list("kind", "created_by__username"))
    assert kinds == [("entry", "scorer_a"), ("blind", "second"), ("resolution", "org_a")]
    with pytest.raises(ValidationError):
        disputes.resolve_dispute(organiser_a, table, grid, expected_version=3)


def test_the_first_scorer_resolves_against_the_paper(club_a, scorer_a):
    table, grid, _typo, _seat, second = _disputed(club_a, scorer_a)
    with pytest.raises(services.SheetConflict):
        disputes.resolve_dispute(scorer_a, table, grid, expected_version=1)
    broken = copy.deepcopy(grid)
    broken["hands"] = broken["hands"][:19]
    with pytest.raises(services.SheetInvalid):
        disputes.resolve_dispute(scorer_a, table, broken, expected_version=2)
    disputes.resolve_dispute(scorer_a, table, grid, expected_version=2, reason="paper says so")
    sheet = Sheet.objects.get(table=table)
    # Two people typed the sheet: the second entry's author stands as confirmer.
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.resolved_by == scorer_a
    assert sheet.confirmed_by == second
    last = SheetVersion.objects.get(sheet=sheet, number=3)
    assert last.reason == "paper says so" and last.grid == sheet.versions.get(number=1).grid


def test_disputed_cells_compare_cards_by_value_and_show_both_texts(club_a, scorer_a):
    table, grid, typo, seat, _second = _disputed(club_a, scorer_a)
    cells = disputes.disputed_cells(grid, typo, table.series.event.ruleset)
    assert [(c.hand, c.seat, c.field) for c in cells] == [(7, seat, "entry")]
    assert cells[0].entry == str(grid["hands"][6]["seats"][seat]["hand_points"])
    assert cells[0].blind == str(typo["hands"][6]["seats"][seat]["hand_points"])
