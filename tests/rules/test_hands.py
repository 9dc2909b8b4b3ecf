"""Plausibility of one hand, and scoring under every profile."""

import pytest

from rules import (
    PRESETS,
    CardParseError,
    HandResult,
    ScoringError,
    SeatResult,
    check_hand,
    parse_hand_cards,
    score_hand,
)

G = PRESETS["german-minus"]


def codes(problems):
    return [p.code for p in problems]


def hand(winner=0, points=(0, 12, 30, 7), dealer=0, **kw):
    return HandResult.from_points(dealer, winner, list(points), **kw)


def test_plausible_hand_has_no_problems():
    assert check_hand(hand(), G, 4) == []


def test_exactly_one_winner():
    """seed 000_1e8d632c2a83f1ef.txt: the first player out wins; the others score minus."""
    assert codes(check_hand(hand(winner=None, points=(5, 12, 30, 7)), G, 4)) == ["hand.no-winner"]
    p = check_hand(hand(points=(0, 0, 30, 7)), G, 4)
    assert codes(p) == ["hand.several-winners"] and p[0].seat == 1
    p = check_hand(hand(winner=None, points=(0, 12, 30, 7)), G, 4)
    assert codes(p) == ["hand.no-winner", "hand.winner-not-marked"]
    assert codes(check_hand(hand(winner=4), G, 4))[0] == "hand.winner-out-of-range"


def test_stock_may_run_out_allows_no_winner():
    rs = G.derive(stock_may_run_out=True)
    h = hand(winner=None, points=(5, 12, 30, 7))
    assert check_hand(h, rs, 4) == []
    assert score_hand(h, rs, 4) == (-5, -12, -30, -7)


def test_winner_holds_nothing():
    p = check_hand(hand(points=(5, 12, 30, 7)), G, 4)
    assert codes(p) == ["hand.winner-holds-cards"] and p[0].seat == 0
    h = HandResult(
        0, 0, (SeatResult(cards=tuple(parse_hand_cards("A"))), SeatResult(5), SeatResult(6))
    )
    assert codes(check_hand(h, G, 3)) == ["hand.winner-holds-cards"]


def test_loser_bounds():
    """romme-domain.md: a loser holds at least 2 and at most 257 hand points."""
    p = check_hand(hand(points=(0, 1, 257, 7)), G, 4)
    assert codes(p) == ["hand.loser-below-minimum"] and p[0].params == {
        "hand_points": 1,
        "minimum": 2,
    }
    p = check_hand(hand(points=(0, 2, 258, 7)), G, 4)
    assert codes(p) == ["hand.loser-above-maximum"] and p[0].seat == 2
    assert p[0].params["maximum"] == 257
    assert codes(check_hand(hand(points=(0, 2, 198, 7)), PRESETS["german-minus-20"], 4)) == [
        "hand.loser-above-maximum"
    ]
    assert codes(check_hand(hand(points=(0, None, 20, 7)), G, 4)) == ["hand.loser-points-missing"]


def test_losers_together_cannot_hold_more_than_the_deck():
    """romme-domain.md: the jokers and aces of all hands together cannot exceed the deck's."""
    p = check_hand(hand(points=(0, 257, 257, 257)), G, 4)
    assert codes(p) == ["hand.total-above-maximum"]


def test_hand_points_from_cards():
    """docs architecture-sketch.md: a sheet entered card by card, `Jo A K 7`."""
    h = HandResult.from_dict(
        {"dealer": 1, "winner": 0, "seats": [{"hand_points": 0}, {"cards": "Jo A K 7"}, 12]}
    )
    assert check_hand(h, G, 3) == []
    assert score_hand(h, G, 3) == (0, -58, -12)
    bad = HandResult.from_dict(
        {"dealer": 1, "winner": 0, "seats": [0, {"cards": "J A B 7", "hand_points": 50}, 12]}
    )
    p = check_hand(bad, G, 3)
    assert codes(p) == ["hand.points-cards-mismatch"]
    assert p[0].params == {"hand_points": 50, "cards_points": 58}


def test_from_dict_reports_seat_of_bad_card():
    with pytest.raises(CardParseError) as err:
        HandResult.from_dict({"dealer": 0, "winner": 0, "seats": [0, {"cards": "A X"}]})
    assert err.value.seat == 1 and err.value.problem.seat == 1


def test_card_counts_cannot_exceed_the_deck():
    """romme-domain.md: no card appears more often at the table than the deck holds."""
    seats = [0, {"cards": "Jo Jo Jo Jo"}, {"cards": "Jo Jo Jo ♠A ♠A"}, {"cards": "♠A 5"}]
    p = check_hand(HandResult.from_dict({"dealer": 0, "winner": 0, "seats": seats}), G, 4)
    assert codes(p) == ["hand.card-count-exceeds-deck"] * 2
    assert {(x.params["card"], x.params["count"], x.params["deck"]) for x in p} == {
        ("Jo", 7, 6),
        ("♠A", 3, 2),
    }
    seats = [0, {"cards": "A A A A A"}, {"cards": "A A A ♠A"}]
    p = check_hand(HandResult.from_dict({"dealer": 0, "winner": 0, "seats": seats}), G, 3)
    assert [(x.code, x.params["card"]) for x in p] == [("hand.card-count-exceeds-deck", "A")]


def test_too_many_cards_in_a_hand():
    """seed 000_1e8d632c2a83f1ef.txt: 13 cards dealt; a loser holds at most 13."""
    seats = [0, {"cards": "2 2 2 2 3 3 3 3 4 4 4 4 5 5"}, 10]
    p = check_hand(HandResult.from_dict({"dealer": 0, "winner": 0, "seats": seats}), G, 3)
    assert codes(p) == ["hand.too-many-cards"]


def test_hand_romme_only_for_the_winner():
    assert codes(
        check_hand(hand(winner=None, hand_romme=True), G.derive(stock_may_run_out=True), 4)
    ) == ["hand.hand-romme-not-winner", "hand.winner-not-marked"]
    h = HandResult(0, 0, (SeatResult(0), SeatResult(12, hand_romme=True), SeatResult(9)))
    p = check_hand(h, G, 3)
    assert codes(p) == ["hand.hand-romme-not-winner"] and p[0].seat == 1
    h = HandResult(0, 1, (SeatResult(5), SeatResult(0, hand_romme=True), SeatResult(9)))
    assert check_hand(h, G, 3) == [] and h.is_hand_romme


def test_table_and_seats():
    assert codes(check_hand(hand(points=(0, 5, 6)), G, 4)) == ["hand.seat-count"]
    assert codes(check_hand(hand(dealer=7), G, 4)) == ["hand.dealer-out-of-range"]
    t = PRESETS["treppenromme"]
    h = HandResult.from_points(0, 0, [0, 5, 6, 7, 8], melded=[20, 0, 0, 0, 0])
    assert codes(check_hand(h, t, 5)) == ["hand.table-size"]


def test_hand_number_goes_into_problems():
    p = check_hand(hand(points=(0, 1, 5, 6)), G, 4, hand=7)
    assert (p[0].hand, p[0].seat) == (7, 1)


def test_melded_values():
    """seed 001_0d0d6b688e9eedc9.txt: the profile needs melded values."""
    m = PRESETS["melded-minus-held"]
    p = check_hand(hand(), m, 4)
    assert codes(p) == ["hand.melded-value-missing"] * 4
    p = check_hand(hand(melded=[0, 30, -1, 5000]), m, 4)
    assert codes(p) == [
        "hand.winner-melded-nothing",
        "hand.melded-below-first-meld",
        "hand.melded-negative",
        "hand.melded-above-maximum",
    ]


# --- profiles ----------------------------------------------------------------------------


def test_minus_profile():
    """seed 000_1e8d632c2a83f1ef.txt: the others receive their hand points as minus points."""
    assert score_hand(hand(), G, 4) == (0, -12, -30, -7)
    assert score_hand(hand(hand_romme=True), G, 4) == (0, -12, -30, -7)
    doubled = G.derive(hand_romme_multiplier=2)
    assert score_hand(hand(hand_romme=True), doubled, 4) == (0, -24, -60, -14)


def test_melded_minus_held_profile():
    """seed 001_0d0d6b688e9eedc9.txt: winner scores melded, others melded minus held."""
    m = PRESETS["melded-minus-held"]
    h = hand(melded=[95, 40, 0, 52])
    assert check_hand(h, m, 4) == []
    assert score_hand(h, m, 4) == (95, 28, -30, 45)


def test_ranking_points_profile():
    """romme-domain.md profile 3: 5 out, 8 hand Rommé, 3/2/1 up to 10/20/30, else 0."""
    r = PRESETS["ranking-points"]
    h = hand(points=(0, 10, 11, 31))
    assert score_hand(h, r, 4) == (5, 3, 2, 0)
    assert score_hand(hand(points=(0, 30, 2, 20), hand_romme=True), r, 4) == (8, 1, 3, 2)


def test_skat_style_profile():
    """romme-domain.md profile 4: win bonus 50; others table bonus minus hand points."""
    s = PRESETS["skat-style"]
    assert score_hand(hand(), s, 4) == (50, 18, 0, 23)
    assert score_hand(hand(points=(0, 12, 30)), s, 3) == (50, 28, 10)


def test_treppenromme_profile():
    """seed 004_5ce05b6e0aff81d1.txt: the player out scores melded plus the others' hand
    points (doubled after a hand Rommé); the others keep their melded values."""
    t = PRESETS["treppenromme"]
    h = HandResult.from_dict(
        {
            "dealer": 0,
            "winner": 0,
            "seats": [
                {"hand_points": 0, "melded": 75},
                {"cards": "A K 2", "melded": 18},
                {"hand_points": 9, "melded": 0},
            ],
        }
    )
    assert check_hand(h, t, 3) == []
    assert score_hand(h, t, 3) == (75 + 27 + 9, 18, 0)
    rommé = HandResult(0, 0, h.seats, hand_romme=True)
    assert score_hand(rommé, t, 3) == (75 + 2 * 36, 18, 0)


def test_scoring_without_needed_values_raises():
    with pytest.raises(ScoringError):
        score_hand(hand(), PRESETS["melded-minus-held"], 4)
    with pytest.raises(ScoringError):
        score_hand(hand(points=(0, None, 5, 5)), G, 4)


def test_to_dict_round_trip():
    h = HandResult.from_dict(
        {
            "dealer": 2,
            "winner": 1,
            "hand_romme": True,
            "seats": [{"cards": "♠A Jo 7"}, 0, {"hand_points": 9, "melded": 40}],
        }
    )
    assert HandResult.from_dict(h.to_dict()) == h
