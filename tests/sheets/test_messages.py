"""Every sheet problem has its own sentence naming table, hand, seat and rule id."""

import pytest
from django.utils import translation

from rules import RULES, Problem
from scoring.sheets.grid import CellChange
from scoring.sheets.messages import _text, change_message, problem_message

NAMES = ["Anna Müller", "Bernd Becker", "Clara Schulz", "Dieter Wolf"]
PARAMS = {
    "token": "X",
    "position": 2,
    "table_size": 7,
    "min": 2,
    "max": 6,
    "seats": 3,
    "dealer": 1,
    "winner": 1,
    "hand_points": 1,
    "minimum": 2,
    "maximum": 257,
    "total": 600,
    "cards": 14,
    "cards_points": 10,
    "card": "Jo",
    "count": 7,
    "deck": 6,
    "melded": -1,
    "deals": [5, 5, 5, 4],
    "hands": 19,
    "expected_hands": 20,
    "planned_rounds": 5,
    "expected": 2,
}
SHEET_CODES = [c for c in RULES if c.split(".")[0] in ("hand", "series", "card", "meld")]


@pytest.mark.parametrize("code", SHEET_CODES)
def test_each_sheet_rule_has_a_specific_message(code):
    with translation.override("en"):
        text = _text(Problem(code, 7, 1, PARAMS), NAMES)
        message = problem_message(Problem(code, 7, 1, PARAMS), table_number=3, seat_names=NAMES)
    assert text != RULES[code].summary
    assert "%(" not in text
    assert message.startswith("Table 3, hand 7, seat 2 (Bernd Becker): ")
    assert message.endswith(f"[{code}]")


def test_the_example_message():
    problem = Problem("hand.loser-below-minimum", 7, 1, {"hand_points": 1, "minimum": 2})
    with translation.override("en"):
        assert problem_message(problem, table_number=3, seat_names=NAMES) == (
            "Table 3, hand 7, seat 2 (Anna Müller): hand points 1 are below the minimum of 2 "
            "[hand.loser-below-minimum]".replace("Anna Müller", "Bernd Becker")
        )


def test_sheet_wide_problems_name_the_table_only_and_seats_by_name():
    with translation.override("en"):
        message = problem_message(
            Problem("series.dealer-rotation", 6, None, {"dealer": 0, "expected": 1}),
            table_number=2,
            seat_names=NAMES,
        )
        assert message == (
            "Table 2, hand 6: seat 1 (Anna Müller) deals, but the deal passes clockwise, so "
            "seat 2 (Bernd Becker) deals this hand [series.dealer-rotation]"
        )
        message = problem_message(
            Problem("series.unequal-deals", params={"deals": [5, 5, 5, 4]}),
            table_number=2,
            seat_names=NAMES,
        )
        assert message == (
            "Table 2: not everyone has dealt equally often (seat 1 (Anna Müller) 5 times, "
            "seat 2 (Bernd Becker) 5 times, seat 3 (Clara Schulz) 5 times, "
            "seat 4 (Dieter Wolf) 4 times); the sheet needs complete rounds "
            "[series.unequal-deals]"
        )
    with translation.override("de"):
        message = problem_message(
            Problem("series.unequal-deals", params={"deals": [5, 5, 5, 4]}),
            table_number=2,
            seat_names=NAMES,
        )
        assert "Gaben" not in message
        assert "nicht alle haben gleich oft gegeben (Platz 1 (Anna Müller) 5-mal, " in message
        assert "Platz 4 (Dieter Wolf) 4-mal); die Liste braucht vollständige Runden" in message


def test_other_codes_fall_back_to_the_registry_summary():
    with translation.override("en"):
        message = problem_message(Problem("ruleset.no-packs"), table_number=1, seat_names=NAMES)
        assert message == f"Table 1: {RULES['ruleset.no-packs'].summary} [ruleset.no-packs]"
        # Parameters missing: still a sentence, never a crash.
        message = problem_message(
            Problem("hand.loser-below-minimum", 1, 0), table_number=1, seat_names=NAMES
        )
        assert RULES["hand.loser-below-minimum"].summary in message


def test_malformed_input_has_no_rule_id():
    with translation.override("en"):
        message = problem_message(
            Problem("input.negative", 2, 0, {"text": "-5"}), table_number=1, seat_names=NAMES
        )
    assert message == "Table 1, hand 2, seat 1 (Anna Müller): “-5”: hand points cannot be negative"


def test_changes_read_as_cells():
    with translation.override("en"):
        assert (
            change_message(CellChange(7, 1, "entry", "17", "19"), seat_names=NAMES)
            == "Hand 7, seat 2 (Bernd Becker): 17 → 19"
        )
        assert (
            change_message(CellChange(3, None, "hand_romme", "", "1"), seat_names=NAMES)
            == "Hand 3: hand Rommé marked"
        )
        assert (
            change_message(CellChange(None, None, "first_dealer", "0", "2"), seat_names=NAMES)
            == "First dealer: seat 1 (Anna Müller) → seat 3 (Clara Schulz)"
        )
