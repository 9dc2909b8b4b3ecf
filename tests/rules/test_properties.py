"""Property tests (hypothesis), kept small so the suite stays fast."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    PRESETS,
    HandResult,
    ScoringError,
    SeatResult,
    check_hand,
    check_meld,
    parse_cards,
    random_hand,
    score_hand,
)

SLUGS = sorted(PRESETS)
FAST = settings(max_examples=60, deadline=None)


@st.composite
def dealt(draw, slugs=SLUGS, keep_cards=None):
    """A preset, a table size and a hand dealt from a really shuffled deck."""
    rs = PRESETS[draw(st.sampled_from(slugs))]
    if draw(st.booleans()):
        rs = rs.derive(stock_may_run_out=True)
    n = draw(st.integers(rs.players_min, rs.players_max))
    seed = draw(st.integers(0, 2**32))
    cards = draw(st.booleans()) if keep_cards is None else keep_cards
    dealer = draw(st.integers(0, n - 1))
    h = random_hand(
        rs,
        n,
        random.Random(seed),
        dealer,
        keep_cards=cards,
        hand_romme_rate=0.3,
        no_winner_rate=0.3,
    )
    return rs, n, h


@FAST
@given(dealt())
def test_random_legal_deal_passes_check_hand(case):
    rs, n, h = case
    assert check_hand(h, rs, n) == []


@FAST
@given(dealt(), st.data())
def test_points_do_not_depend_on_seat_numbering(case, data):
    rs, n, h = case
    perm = data.draw(st.permutations(range(n)))  # new seat of old seat i is perm[i]
    seats = [None] * n
    for old, new in enumerate(perm):
        seats[new] = h.seats[old]
    moved = HandResult(
        perm[h.dealer], None if h.winner is None else perm[h.winner], tuple(seats), h.hand_romme
    )
    before = score_hand(h, rs, n)
    after = score_hand(moved, rs, n)
    assert [after[perm[i]] for i in range(n)] == list(before)
    assert check_hand(moved, rs, n) == []


@FAST
@given(dealt(slugs=["german-minus", "german-minus-20"]), st.integers(1, 3))
def test_minus_total_is_minus_the_losers_points(case, multiplier):
    rs, n, h = case
    rs = rs.derive(hand_romme_multiplier=multiplier)
    losers = sum(s.points(rs) for i, s in enumerate(h.seats) if i != h.winner)
    m = multiplier if h.is_hand_romme else 1
    assert sum(score_hand(h, rs, n)) == -losers * m


@st.composite
def written(draw):
    """A hand as a scorer might write it: any plausible-looking hand points."""
    rs = PRESETS[draw(st.sampled_from(SLUGS))]
    n = draw(st.integers(rs.players_min, rs.players_max))
    winner = draw(st.integers(0, n - 1))
    hi = rs.max_hand_points(n)
    seats = []
    for i in range(n):
        pts = 0 if i == winner else draw(st.integers(rs.min_hand_points, hi))
        g = draw(st.one_of(st.just(0), st.integers(max(1, rs.first_meld_minimum), 300)))
        if i == winner:
            g = max(g, rs.first_meld_minimum, 1)
        seats.append(SeatResult(pts, None, g if rs.needs_melded else None))
    return rs, n, HandResult(draw(st.integers(0, n - 1)), winner, tuple(seats), draw(st.booleans()))


@FAST
@given(written())
def test_every_preset_scores_every_valid_hand(case):
    rs, n, h = case
    if check_hand(h, rs, n):
        return  # e.g. the losers' total is more than the deck holds
    for slug, other in PRESETS.items():
        if not other.players_min <= n <= other.players_max:
            continue
        if other.needs_melded and any(s.melded is None for s in h.seats):
            h2 = HandResult(
                h.dealer,
                h.winner,
                tuple(
                    SeatResult(s.hand_points, s.cards, max(other.first_meld_minimum, 1))
                    for s in h.seats
                ),
                h.hand_romme,
            )
        else:
            h2 = h
        if other.needs_cards and any(
            s.cards is None for i, s in enumerate(h2.seats) if i != h2.winner
        ):
            # counts the jokers held: refuses to guess without the cards
            with pytest.raises(ScoringError):
                score_hand(h2, other, n)
            continue
        pts = score_hand(h2, other, n)
        assert len(pts) == n and all(isinstance(p, int) for p in pts), slug


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(SLUGS),
    st.integers(1, 7),
    st.lists(st.one_of(st.none(), st.integers(-50, 400)), min_size=1, max_size=7),
    st.one_of(st.none(), st.integers(-1, 7)),
    st.integers(-1, 7),
)
def test_check_hand_never_crashes_on_odd_input(slug, n, points, winner, dealer):
    rs = PRESETS[slug]
    h = HandResult(dealer, winner, tuple(SeatResult(p, None, p) for p in points))
    for p in check_hand(h, rs, n):
        assert p.code.startswith("hand.")


@FAST
@given(st.sampled_from(SLUGS), st.integers(0, 2**32))
def test_random_cards_as_melds_never_crash(slug, seed):
    rs = PRESETS[slug]
    rng = random.Random(seed)
    cards = parse_cards("♠A ♠2 ♠3 ♠K ♠D ♥A ♦A Jo Jo ♠5 ♣5")
    sample = rng.sample(cards, rng.randint(0, 6))
    r = check_meld(sample, rs)
    assert r.legal == (not r.problems)
    assert (r.value is None) == (not r.legal)
