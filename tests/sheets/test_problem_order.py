"""Problems reach the sheet in reading order, each tied to the input it names; a row with
any problem is marked, also when the problem is named by one of its seats."""

from types import SimpleNamespace

from django.utils import translation

from rules import PRESETS, Problem
from scoring.sheets import grid as sheets_grid
from scoring.sheets.forms import grid_from_typed, typed_from_post
from scoring.sheets.messages import problem_dicts
from scoring.sheets.presenters import sheet_rows

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


def test_a_hand_with_two_winners_marks_its_row():
    # Hand 1 is fine; hand 2 has two zeros: the rules name the second one's seat.
    post = {"first_dealer": "0"}
    for seat, text in enumerate(["0", "12", "30", "7"], start=1):
        post[f"cell-1-{seat}"] = text
    for seat, text in enumerate(["25", "0", "0", "9"], start=1):
        post[f"cell-2-{seat}"] = text
    typed = typed_from_post(post, table_size=4, rows=2)
    grid, input_problems = grid_from_typed(typed, table_size=4)
    assert input_problems == []
    check = sheets_grid.check_grid(
        sheets_grid.normalise_grid(grid, 4),
        ruleset=PRESETS["german-minus"],
        table_size=4,
        planned_rounds=None,
    )
    assert [(p.code, p.hand, p.seat) for p in check.problems] == [("hand.several-winners", 2, 2)]
    problems = problem_dicts(check.problems, table_number=1, seat_names=NAMES)
    page = SimpleNamespace(seat_names=NAMES, table_size=4)

    rows = sheet_rows(page, typed, grid, check, problems, None)

    assert [row["problem"] for row in rows] == [False, True]
    cells = rows[1]["cells"]
    assert [cell["problem"] for cell in cells] == [False, False, True, False]
    assert [cell["described_by"] for cell in cells] == ["", "", "sheet-problem-1", ""]
    # One pair of brackets in German: "…, und das war Platz 2 (…)", not "(schon Platz 2 (…))".
    with translation.override("de"):
        (german,) = problem_dicts(check.problems, table_number=1, seat_names=NAMES)
    assert f"nur einer kann Rommé machen, und das war Platz 2 ({NAMES[1]}) [" in german["message"]
