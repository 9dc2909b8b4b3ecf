"""The fast paths of ``check_hand`` and ``score_hand`` (hands written as points) give
exactly what the general code gives, on hands near and across every limit."""

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    PRESETS,
    Card,
    HandResult,
    Rank,
    ScoringError,
    SeatResult,
    check_hand,
    parse_cards,
    profiles,
    random_hand,
    score_hand,
    table_cards,
)
from rules.hands import _check_hand_full

# each profile's general form: reads cards, raises ScoringError on a missing value
GENERAL = {
    name: getattr(profiles, f"_{name}_general", fn) for name, fn in profiles.PROFILES.items()
}

SLUGS = sorted(PRESETS)
MANY = settings(max_examples=400, deadline=None)
JOKER_7 = tuple(parse_cards("♥7 Jo"))
JOKER = parse_cards("Jo")[0]
RUN = tuple(parse_cards("♠7 ♠8 ♠9"))


@st.composite
def rulesets(draw):
    rs = PRESETS[draw(st.sampled_from(SLUGS))]
    changes = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "stock_may_run_out": st.booleans(),
                "first_meld_minimum": st.sampled_from([0, 1, 40]),
                "hand_romme_multiplier": st.integers(1, 3),
                "joker_in_hand_points": st.just(0),
            },
        )
    )
    return rs.derive(**changes) if changes else rs


@st.composite
def near_limits(draw):
    """A plausible hand written as points, then up to three changes that put a value on,
    inside or outside one limit, add cards or melds, repeat a seat object, or move the
    winner, the dealer or the table size."""
    rs = draw(rulesets())
    n = draw(st.integers(rs.players_min, rs.players_max))
    rng = random.Random(draw(st.integers(0, 2**32)))
    # as points, or as cards (the card fast paths; drov-ranking-points always takes cards)
    h = random_hand(rs, n, rng, draw(st.integers(0, n - 1)), keep_cards=draw(st.booleans()))
    seats = list(h.seats)
    winner, dealer, romme = h.winner, h.dealer, h.hand_romme
    hi, lo = rs.max_hand_points(n), rs.min_hand_points
    big, first = rs.max_melded_value, rs.first_meld_minimum
    points = [None, 0, -1, lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, True]
    melded = [None, 0, -1, 1, first - 1, first, first + 1, big, big + 1, False]
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(seats) - 1))
        s = seats[i]
        what = draw(st.integers(0, 14))
        if what == 0:
            seats[i] = replace(s, hand_points=draw(st.sampled_from(points)))
        elif what == 1:
            seats[i] = replace(s, melded=draw(st.sampled_from(melded)))
        elif what == 2:
            seats[i] = replace(s, hand_romme=not s.hand_romme)
        elif what == 3:
            seats[i] = replace(s, cards=draw(st.sampled_from([(), JOKER_7])))
        elif what == 4:
            seats[i] = replace(s, melds=(RUN,))
        elif what == 5:
            seats[i] = replace(s, laid_off=draw(st.sampled_from([(), JOKER_7])))
        elif what == 6:
            seats[i] = seats[draw(st.integers(0, len(seats) - 1))]  # one object twice
        elif what == 7:
            winner = draw(st.one_of(st.none(), st.integers(-1, len(seats))))
        elif what == 8:
            dealer = draw(st.integers(-1, n))
        elif what == 9:
            romme = not romme
        elif what == 10:
            n = draw(st.integers(rs.players_min - 1, rs.players_max + 1))
        elif what == 11 and len(seats) > 1:
            seats.pop() if draw(st.booleans()) else seats.append(seats[0])
        elif what == 12:  # more jokers than the deck has, or one more than a seat showed
            extra = draw(st.sampled_from([(JOKER,), (JOKER,) * 7]))
            seats[i] = replace(s, cards=(s.cards or ()) + extra)
        elif what == 13:  # each card of the seat again, once or twice: past the packs
            seats[i] = replace(s, cards=(s.cards or ()) * draw(st.integers(2, 3)))
        elif what == 14:  # suitless cards (hand-points cells): only a rank's limit holds
            rank = draw(st.sampled_from([Rank.QUEEN, Rank.ACE, Rank.TWO]))
            extra = (Card(rank),) * draw(st.integers(1, 9))
            seats[i] = replace(s, cards=(s.cards or ()) + extra)
    return rs, n, HandResult(dealer, winner, tuple(seats), romme)


def outcome(fn, *args):
    try:
        out = fn(*args)
    except ScoringError as err:
        return "ScoringError", str(err)
    except (TypeError, IndexError) as err:  # a seat count that does not fit the table
        return type(err).__name__
    return out, [type(x) for x in out]


@MANY
@given(near_limits())
def test_check_hand_matches_the_full_check(case):
    rs, n, h = case
    assert check_hand(h, rs, n, hand=3) == _check_hand_full(h, rs, n, 3)


@MANY
@given(near_limits())
def test_score_hand_matches_the_general_profile(case):
    rs, n, h = case
    assert outcome(score_hand, h, rs, n) == outcome(GENERAL[rs.profile], h, rs, n)


def test_random_hands_as_points_take_the_fast_paths(monkeypatch):
    def general(*args):
        raise AssertionError("the general form scored a hand written as points")

    for name in GENERAL:
        if hasattr(profiles, f"_{name}_general"):
            monkeypatch.setattr(profiles, f"_{name}_general", general)
    rng = random.Random(12)
    for rs in PRESETS.values():
        for _ in range(50):
            n = rng.randint(rs.players_min, rs.players_max)
            h = random_hand(rs, n, rng, dealer=rng.randrange(n))
            assert check_hand(h, rs, n) == []
            if not rs.needs_cards:
                score_hand(h, rs, n)


def test_every_single_value_on_and_beside_each_limit():
    """Each seat's points, melded value and hand-Rommé mark set to each boundary value in
    turn, under every preset and table size: fast and full check agree."""
    for slug, base in PRESETS.items():
        for rs in (base, base.derive(stock_may_run_out=True)):
            for n in range(rs.players_min, rs.players_max + 1):
                hi, lo = rs.max_hand_points(n), rs.min_hand_points
                big, first = rs.max_melded_value, rs.first_meld_minimum
                values = {
                    "hand_points": [None, 0, -1, lo - 1, lo, lo + 1, hi - 1, hi, hi + 1],
                    "melded": [None, 0, -1, 1, first - 1, first, first + 1, big, big + 1],
                    "hand_romme": [True],
                    "cards": [(), JOKER_7],
                    "melds": [(RUN,)],
                    "laid_off": [(), JOKER_7],
                }
                rng = random.Random(n)
                for winner, romme in ((None, False), (None, True), (0, False), (n - 1, True)):
                    h = random_hand(rs, n, rng, dealer=0)
                    for i in range(n):
                        for name, vals in values.items():
                            for v in vals:
                                seats = list(h.seats)
                                seats[i] = replace(seats[i], **{name: v})
                                case = HandResult(h.dealer, winner, tuple(seats), romme)
                                assert check_hand(case, rs, n) == _check_hand_full(
                                    case, rs, n, None
                                ), (slug, n, winner, i, name, v)
                                assert outcome(score_hand, case, rs, n) == outcome(
                                    GENERAL[rs.profile], case, rs, n
                                ), (slug, n, winner, i, name, v)


def test_a_table_size_given_as_float_is_checked_like_the_int():
    rs = PRESETS["german-minus"].derive()  # an empty memo
    h = random_hand(rs, 4, random.Random(3))
    assert check_hand(h, rs, 4.0) == _check_hand_full(h, rs, 4.0, None) == []
    assert check_hand(h, rs, 4) == []
    assert check_hand(h, rs, 4.0) == [] and check_hand(h, rs, 4.5) == _check_hand_full(
        h, rs, 4.5, None
    )


def test_random_hands_as_cards_take_the_card_fast_paths(monkeypatch):
    from rules import hands

    def slow(*args):
        raise AssertionError("a plausible hand written as cards took the general code")

    monkeypatch.setattr(hands, "_check_hand_full", slow)
    monkeypatch.setattr(profiles, "_ranking_table_general", slow)
    rng = random.Random(13)
    for rs in PRESETS.values():
        for _ in range(50):
            n = rng.randint(rs.players_min, rs.players_max)
            h = random_hand(rs, n, rng, dealer=rng.randrange(n), keep_cards=True)
            assert check_hand(h, rs, n) == []
            if rs.profile == "ranking_table":
                score_hand(h, rs, n)


def test_the_deck_fast_path_counts_like_the_full_check():
    """Two packs: a third ♠Q, a seventh joker, or a ninth suitless queen passes the deck."""
    rs = PRESETS["german-minus"]
    for written, over in [
        ("♠D ♠D ♥D ♥D Jo Jo", False),
        ("♠D ♠D ♠D", True),
        ("Jo Jo Jo Jo Jo Jo Jo", True),
        ("♠D ♠D ♥D ♥D ♦D ♦D ♣D ♣D", False),
    ]:
        cards = tuple(parse_cards(written))
        assert bool(table_cards.deck_problems([SeatResult(cards=cards)], rs, 1)) is over
    queens = (Card(Rank.QUEEN),) * 8
    assert not table_cards.deck_problems([SeatResult(cards=queens)], rs, 1)
    assert table_cards.deck_problems([SeatResult(cards=(*queens, Card(Rank.QUEEN)))], rs, 1)
    one_pack = PRESETS["treppenromme"]
    # one pack: four suits and a suitless queen are five queens
    five = (*parse_cards("♠D ♥D ♦D ♣D"), Card(Rank.QUEEN))
    assert table_cards.deck_problems([SeatResult(cards=five)], one_pack, 1)
