"""A whole sheet: rotation of the deal, complete rounds, planned rounds."""

from rules import PRESETS, HandResult, check_series

G = PRESETS["german-minus"]


def sheet(dealers, table_size=4):
    pts = [0] + [10] * (table_size - 1)
    return [HandResult.from_points(d, 0, pts) for d in dealers]


def codes(problems):
    return [(p.code, p.hand) for p in problems]


def test_complete_sheet():
    """seed 000_1e8d632c2a83f1ef.txt: the deal passes clockwise after each hand."""
    assert check_series(sheet([2, 3, 0, 1] * 5), G, 4, planned_rounds=5) == []


def test_dealer_rotation():
    p = check_series(sheet([0, 1, 3, 3]), G, 4)
    assert codes(p) == [("series.dealer-rotation", 3), ("series.unequal-deals", None)]
    assert p[0].params == {"dealer": 3, "expected": 2}


def test_incomplete_round_and_round_count():
    """romme-domain.md: a series is complete rounds; everyone deals equally often."""
    p = check_series(sheet([0, 1, 2, 0, 1, 2, 0], 3), G, 3, planned_rounds=2)
    assert codes(p) == [("series.unequal-deals", None), ("series.round-count", None)]
    assert p[0].params == {"deals": [3, 2, 2]}
    assert p[1].params["expected_hands"] == 6
    assert check_series(sheet([0, 1, 2, 0, 1, 2, 0], 3), G, 3, planned_rounds=2, partial=True) == []


def test_hand_problems_carry_hand_numbers():
    hands = sheet([0, 1, 2], 3)
    hands[1] = HandResult.from_points(1, 0, [0, 1, 10])
    p = check_series(hands, G, 3)
    assert [(x.code, x.hand, x.seat) for x in p] == [("hand.loser-below-minimum", 2, 1)]


def test_empty_sheet():
    assert codes(check_series([], G, 4)) == [("series.no-hands", None)]
    assert check_series([], G, 4, partial=True) == []
