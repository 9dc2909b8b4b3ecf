"""Problems reach the sheet in reading order, each tied to the input it names; a row with
any problem is marked, also when the problem is named by one of its seats."""

from rules import Problem
from scoring.sheets.messages import problem_dicts

NAMES = ["Anna Müller", "Bernd Becker", "Clara Schulz", "Dieter Wolf"]


def test_problems_are_listed_by_hand_then_seat_with_the_sheet_first():
    problems = [
        Problem("card.unknown-token", 9, 2, {"token": "X", "position": 1}),
        Problem("hand.loser-below-minimum", 3, 1, {"hand_points": 1, "minimum": 2}),
        Problem("series.dealer-rotation", 3, None, {"dealer": 1, "expected": 2}),
        Problem("series.round-count", None, None, {"hands": 19, "planned_rounds": 5}),
        Problem("hand.loser-below-minimum", 3, 0, {"hand_points": 1, "minimum": 2}),
        Problem("input.melded-not-a-number", 5, 3, {"text": "x"}),
        Problem("hand.hand-romme-not-winner", 7),
        Problem("input.bad-first-dealer", params={"first_dealer": 9}),
    ]
    dicts = problem_dicts(problems, table_number=1, seat_names=NAMES)
    assert [(d["hand"], d["seat"]) for d in dicts] == [
        (None, None),
        (None, None),
        (3, None),
        (3, 0),
        (3, 1),
        (5, 3),
        (7, None),
        (9, 2),
    ]
    # Equal places keep the engine's order.
    assert [d["code"] for d in dicts[:2]] == ["series.round-count", "input.bad-first-dealer"]
    assert [d["id"] for d in dicts] == [f"sheet-problem-{n}" for n in range(1, 9)]
    assert [(d["field"], d["target"]) for d in dicts] == [
        (None, "sheet-grid"),
        ("first-dealer", "first-dealer"),
        (None, "cell-3-1"),  # a hand's own problem leads to its first cell, naming none
        ("cell-3-1", "cell-3-1"),
        ("cell-3-2", "cell-3-2"),
        ("melded-5-4", "melded-5-4"),
        ("romme-7", "romme-7"),
        ("cell-9-3", "cell-9-3"),
    ]
