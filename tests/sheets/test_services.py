"""Saving, confirming and correcting sheets, and changing the rule set (services)."""

import copy

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from rules import PRESETS, HandResult, score_hand
from scoring.models import Hand, HandSeat, Sheet, SheetVersion
from scoring.sheets import selectors, services
from tests.sheets.conftest import make_series, random_grid, scorer

pytestmark = pytest.mark.django_db


def _stored_points(sheet):
    return {
        (s.hand.number, s.position): s.points
        for s in HandSeat.objects.filter(hand__sheet=sheet).select_related("hand")
    }


def _expected_points(grid, ruleset):
    out = {}
    for n, hand in enumerate(grid["hands"], start=1):
        for pos, value in enumerate(score_hand(HandResult.from_dict(hand), ruleset, 4)):
            out[(n, pos)] = value
    return out


def test_a_valid_twenty_hand_sheet_is_stored_with_points_from_score_hand(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=7, hand_romme_rate=0.2)
    result = services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)

    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.ENTERED and sheet.version == 1
    assert sheet.entered_by == scorer_a and sheet.entered_at is not None
    assert result.stored_hands == 20
    assert Hand.objects.filter(sheet=sheet).count() == 20
    assert HandSeat.objects.filter(hand__sheet=sheet).count() == 80
    assert _stored_points(sheet) == _expected_points(grid, PRESETS["german-minus"])
    hand = Hand.objects.get(sheet=sheet, number=3)
    assert hand.dealer == 2 and hand.winner == grid["hands"][2]["winner"]
    seats = list(hand.seats.order_by("position"))
    assert [s.participant_id for s in seats] == [
        s.participant_id for s in tables[0].seats.order_by("position")
    ]
    version = SheetVersion.objects.get(sheet=sheet)
    assert version.kind == "entry" and version.number == 1 and version.created_by == scorer_a
    assert version.grid["hands"][0]["seats"][0].keys() == {"hand_points", "cards", "melded"}


def test_cards_are_stored_as_written_and_scored_by_the_rule_set(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=3)
    loser = next(i for i in range(4) if i != grid["hands"][0]["winner"])
    grid["hands"][0]["seats"][loser] = {"hand_points": None, "cards": "Jo A K 7", "melded": None}
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    seat = HandSeat.objects.get(hand__sheet__table=tables[0], hand__number=1, position=loser)
    assert seat.cards == "Jo A K 7" and seat.hand_points is None and seat.points == -58


def test_an_incomplete_sheet_is_kept_as_a_draft_with_its_valid_hands(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(hands=7, seed=11)
    bad = grid["hands"][4]
    loser = next(i for i in range(4) if i != bad["winner"])
    bad["seats"][loser]["hand_points"] = 1  # below the minimum: hand 5 is not valid
    grid["hands"][6]["seats"][0]["hand_points"] = None  # hand 7 half written
    grid["hands"][6]["seats"][1]["hand_points"] = None
    grid["hands"][6]["winner"] = None
    result = services.save_sheet(scorer_a, tables[0], grid, expected_version=0)

    sheet = result.sheet
    assert sheet.status == Sheet.Status.DRAFT and sheet.entered_by is None
    assert sorted(Hand.objects.filter(sheet=sheet).values_list("number", flat=True)) == [
        1,
        2,
        3,
        4,
        6,
    ]
    codes = {(p.code, p.hand) for p in result.check.problems}
    assert ("hand.loser-below-minimum", 5) in codes
    assert (
        SheetVersion.objects.get(sheet=sheet).grid["hands"][4]["seats"][loser]["hand_points"] == 1
    )

    # A draft saved again continues from its version.
    services.save_sheet(scorer_a, tables[0], grid, expected_version=1)
    assert Sheet.objects.get(pk=sheet.pk).version == 2


def test_a_draft_with_unreadable_cards_is_refused(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(hands=2)
    loser = next(i for i in range(4) if i != grid["hands"][1]["winner"])
    grid["hands"][1]["seats"][loser] = {"hand_points": None, "cards": "Jo X 7", "melded": None}
    with pytest.raises(services.SheetInvalid) as refused:
        services.save_sheet(scorer_a, tables[0], grid, expected_version=0)
    assert [(p.code, p.hand, p.seat) for p in refused.value.problems] == [
        ("card.unknown-token", 2, loser)
    ]
    assert not Sheet.objects.exists()


def test_submitting_needs_complete_rounds_and_the_planned_rounds(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid(hands=19)
    with pytest.raises(services.SheetInvalid) as refused:
        services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    assert {p.code for p in refused.value.problems} == {
        "series.unequal-deals",
        "series.round-count",
    }
    grid = random_grid(hands=20)
    grid["hands"][5]["dealer"] = 0
    with pytest.raises(services.SheetInvalid) as refused:
        services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    assert ("series.dealer-rotation", 6) in {(p.code, p.hand) for p in refused.value.problems}
    assert not Sheet.objects.exists() and not Hand.objects.exists()


def test_a_save_from_an_old_version_is_refused_with_the_other_changes(club_a, scorer_a):
    _series, tables = make_series(club_a)
    other = scorer(club_a, "scorer_two")
    grid = random_grid(seed=5)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    # Both load version 1; scorer A saves a change first.
    first = copy.deepcopy(grid)
    loser = next(i for i in range(4) if i != first["hands"][2]["winner"])
    old_points = first["hands"][2]["seats"][loser]["hand_points"]
    first["hands"][2]["seats"][loser]["hand_points"] = old_points + 1 if old_points < 250 else 2
    services.save_sheet(scorer_a, tables[0], first, expected_version=1, submit=True)
    second = copy.deepcopy(grid)
    second["hands"][9]["hand_romme"] = False
    second["hands"][9]["seats"][0]["melded"] = None
    loser2 = next(i for i in range(4) if i != second["hands"][9]["winner"])
    second["hands"][9]["seats"][loser2]["hand_points"] = 3

    with pytest.raises(services.SheetConflict) as conflict:
        services.save_sheet(other, tables[0], second, expected_version=1, submit=True)
    error = conflict.value
    assert error.current_version == 2 and error.by == scorer_a and error.at is not None
    assert [(c.hand, c.seat, c.field) for c in error.changes] == [(3, loser, "entry")]
    assert error.changes[0].old == str(old_points)

    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.version == 2 and sheet.entered_by == scorer_a
    assert _stored_points(sheet) == _expected_points(first, PRESETS["german-minus"])
    assert not SheetVersion.objects.filter(created_by=other).exists()


def test_the_one_who_entered_cannot_confirm_another_scorer_can(club_a, scorer_a):
    _series, tables = make_series(club_a)
    grid = random_grid()
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    with pytest.raises(PermissionDenied):
        services.confirm_sheet(scorer_a, tables[0], grid, expected_version=1)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.ENTERED and sheet.version == 1

    # The database keeps the four-eyes rule too.
    with pytest.raises(IntegrityError), transaction.atomic():
        Sheet.objects.filter(pk=sheet.pk).update(
            status="confirmed", confirmed_by=scorer_a, confirmed_at=sheet.entered_at
        )

    second = scorer(club_a, "scorer_two")
    version = services.confirm_sheet(second, tables[0], grid, expected_version=1)
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_by == second
    assert version.kind == "confirmation" and version.number == 2 == sheet.version


def test_a_differing_blind_entry_is_stored_and_the_sheet_becomes_disputed(club_a, scorer_a):
    _series, tables = make_series(club_a, blind=True)
    grid = random_grid(seed=21)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    second = scorer(club_a, "blind_two")
    with pytest.raises(ValidationError):
        services.confirm_sheet(second, tables[0], grid, expected_version=1)
    with pytest.raises(PermissionDenied):
        services.blind_confirm(scorer_a, tables[0], grid, expected_version=1)

    typo = copy.deepcopy(grid)
    loser = next(i for i in range(4) if i != typo["hands"][11]["winner"])
    typo["hands"][11]["seats"][loser]["hand_points"] = (
        2 if typo["hands"][11]["seats"][loser]["hand_points"] != 2 else 3
    )
    typo["hands"][0]["hand_romme"] = not typo["hands"][0]["hand_romme"]
    result = services.blind_confirm(second, tables[0], typo, expected_version=1)
    assert not result.confirmed
    assert {(c.hand, c.seat, c.field) for c in result.differences} == {
        (12, loser, "entry"),
        (1, None, "hand_romme"),
    }
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.DISPUTED and sheet.version == 2
    assert sheet.confirmed_by is None
    blind = SheetVersion.objects.get(sheet=sheet, number=2)
    assert blind.kind == "blind" and blind.created_by == second
    assert (
        blind.grid["hands"][11]["seats"][loser]["hand_points"]
        == typo["hands"][11]["seats"][loser]["hand_points"]
    )
    # The blind re-entry changes nothing stored.
    assert _stored_points(sheet) == _expected_points(grid, PRESETS["german-minus"])

    # No second try: even the right grid is refused now, and nobody can simply save over it.
    with pytest.raises(ValidationError, match="disputed"):
        services.blind_confirm(second, tables[0], copy.deepcopy(grid), expected_version=2)
    with pytest.raises(ValidationError, match="disputed"):
        services.save_sheet(second, tables[0], grid, expected_version=2, submit=True)
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.DISPUTED and sheet.version == 2


def test_a_matching_blind_entry_confirms(club_a, scorer_a):
    _series, tables = make_series(club_a, blind=True)
    grid = random_grid(seed=22)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    second = scorer(club_a, "blind_two")
    result = services.blind_confirm(second, tables[0], copy.deepcopy(grid), expected_version=1)
    assert result.confirmed and result.differences == []
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_by == second


def test_a_blind_entry_of_cards_equals_an_entry_of_points(club_a, scorer_a):
    _series, tables = make_series(club_a, blind=True)
    grid = random_grid(seed=4)
    loser = next(i for i in range(4) if i != grid["hands"][0]["winner"])
    grid["hands"][0]["seats"][loser] = {"hand_points": 58, "cards": None, "melded": None}
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    blind = copy.deepcopy(grid)
    blind["hands"][0]["seats"][loser] = {"hand_points": None, "cards": "Jo A K 7", "melded": None}
    result = services.blind_confirm(scorer(club_a, "b2"), tables[0], blind, expected_version=1)
    assert result.confirmed


def test_a_correction_needs_the_organiser_and_a_reason(club_a, scorer_a, organiser_a):
    _series, tables = make_series(club_a)
    grid = random_grid(seed=8)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    services.confirm_sheet(scorer(club_a, "s2"), tables[0], grid, expected_version=1)

    fixed = copy.deepcopy(grid)
    hand = fixed["hands"][4]
    loser = next(i for i in range(4) if i != hand["winner"])
    hand["seats"][loser]["hand_points"] = 44
    with pytest.raises(PermissionDenied):
        services.save_sheet(
            scorer_a, tables[0], fixed, expected_version=2, submit=True, reason="typo"
        )
    with pytest.raises(ValidationError):
        services.save_sheet(organiser_a, tables[0], fixed, expected_version=2, submit=True)
    result = services.save_sheet(
        organiser_a, tables[0], fixed, expected_version=2, submit=True, reason="Hand 5 misread"
    )
    sheet = result.sheet
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.version == 3
    version = SheetVersion.objects.get(sheet=sheet, number=3)
    assert version.kind == "correction" and version.reason == "Hand 5 misread"
    assert version.created_by == organiser_a
    seat = HandSeat.objects.get(hand__sheet=sheet, hand__number=5, position=loser)
    assert seat.points == -44


def test_change_ruleset_recomputes_every_point(club_a, scorer_a, organiser_a):
    series, tables = make_series(club_a)
    grid = random_grid(seed=13, hand_romme_rate=0.3)
    assert any(h["hand_romme"] for h in grid["hands"])
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    services.save_sheet(scorer_a, tables[1], random_grid(seed=14, hands=6), expected_version=0)
    before = _stored_points(Sheet.objects.get(table=tables[0]))
    event = series.event

    with pytest.raises(PermissionDenied):
        services.change_ruleset(scorer_a, event, "german-minus", {"hand_romme_multiplier": 2}, "x")
    with pytest.raises(ValidationError):
        services.change_ruleset(
            organiser_a, event, "german-minus", {"hand_romme_multiplier": 2}, ""
        )
    with pytest.raises(ValidationError):
        services.change_ruleset(organiser_a, event, "german-minus", {"jokers": -1}, "bad")

    result = services.change_ruleset(
        organiser_a, event, "german-minus", {"hand_romme_multiplier": 2}, "House rule: doubled"
    )
    after = _stored_points(Sheet.objects.get(table=tables[0]))
    for (n, pos), points in after.items():
        doubled = grid["hands"][n - 1]["hand_romme"]
        assert points == (2 * before[(n, pos)] if doubled else before[(n, pos)])
    assert result.changed > 0 and result.sheets == 2 and result.problems == 0
    event.refresh_from_db()
    assert event.ruleset_overrides == {"hand_romme_multiplier": 2}
    record = event.history.first()
    assert record.history_change_reason == "House rule: doubled"
    assert record.history_user == organiser_a
    versions = SheetVersion.objects.filter(kind="recompute")
    assert versions.count() == 2 and {v.reason for v in versions} == {"House rule: doubled"}
    assert Sheet.objects.get(table=tables[0]).version == 2


def test_change_ruleset_reports_hands_that_break_the_new_rules(club_a, scorer_a, organiser_a):
    series, tables = make_series(club_a)
    grid = random_grid(seed=2)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    result = services.change_ruleset(
        organiser_a, series.event, "melded-minus-held", {}, "The club plays melded values"
    )
    # Melded values were never written: every seat of every hand lacks one; points kept.
    assert result.problems == 80 and result.unscorable == 20


def test_running_order_ranks_by_confirmed_points_of_earlier_series(club_a, scorer_a):
    from tests.factories import SeriesFactory

    series, tables = make_series(club_a, tables=2)
    grid = random_grid(seed=31)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    services.save_sheet(scorer_a, tables[1], random_grid(seed=32), expected_version=0, submit=True)
    services.confirm_sheet(scorer(club_a, "s2"), tables[0], grid, expected_version=1)
    event = series.event
    SeriesFactory(event=event, number=2)

    order = selectors.running_order(event, before_series=2)
    totals = {}
    for seat in HandSeat.objects.filter(hand__sheet__status="confirmed"):
        totals[seat.participant_id] = totals.get(seat.participant_id, 0) + seat.points
    ids = list(event.participants.values_list("pk", flat=True))
    expected = sorted(ids, key=lambda pid: (-totals.get(pid, 0), pid))
    assert order == expected
    # Series 1 itself starts from nothing: everybody at 0, by id.
    assert selectors.running_order(event, before_series=1) == sorted(ids)


def test_a_row_without_a_zero_means_nobody_went_out_where_the_stock_may_run_out(club_a, scorer_a):
    series, tables = make_series(club_a)
    event = series.event
    event.ruleset_overrides = {"stock_may_run_out": True}
    event.save()
    ruleset = PRESETS["german-minus"].derive(stock_may_run_out=True)
    grid = random_grid(ruleset, seed=40, no_winner_rate=0.5)
    assert any(h["winner"] is None for h in grid["hands"])
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    nobody = Hand.objects.filter(sheet__table=tables[0], winner__isnull=True).count()
    assert nobody == sum(h["winner"] is None for h in grid["hands"])
    assert _stored_points(Sheet.objects.get(table=tables[0])) == _expected_points(grid, ruleset)
