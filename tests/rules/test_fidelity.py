"""Fidelity to the seed texts (issue 12): written order, deck limits, session end, ties,
ranking-point tables and the play rules a sheet can reveal. Example tests quote the seed
sentence they check; property tests (hypothesis) check the rule on random input."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    PRESETS,
    Card,
    HandResult,
    Rank,
    SeatResult,
    Suit,
    check_hand,
    check_meld,
    deck,
    parse_cards,
)
from rules.table_cards import deck_problems

GERMAN = PRESETS["german-minus"]  # seed 000
MELDED = PRESETS["melded-minus-held"]  # seed 001
TREPPE = PRESETS["treppenromme"]  # seed 004
FAST = settings(max_examples=80, deadline=None)

# Ranks around the corner in seed 004's order: ..., Q, K, A, 2, 3, ...
CYCLE = [Rank(r) for r in range(2, 15)]  # 2..K, A


def meld(text, rs, suitless=False):
    return check_meld(parse_cards(text, allow_suitless=suitless), rs)


def codes(result):
    return {p.code for p in result.problems}


# --- 1. Treppenrommé: a run is read in the order written ---------------------------------

CORNER_RUN = "♠7 ♠8 ♠9 ♠10 ♠B ♠D ♠K ♠A ♠2 ♠3 ♠4 ♠5 ♠6"


def test_seed_004_corner_ace_in_the_middle_counts_5():
    """seed 004: "In a sequence they score 10 when high, 1 when low and 5 when turning the
    corner." The corner run of issue 12, read as written: its ace turns the corner."""
    r = meld(CORNER_RUN, TREPPE)
    assert r.legal and r.kind == "run"
    assert r.value == 7 + 8 + 9 + 10 + 10 + 10 + 10 + 5 + 2 + 3 + 4 + 5 + 6  # 89
    assert meld(" ".join(reversed(CORNER_RUN.split())), TREPPE).value == 89


def test_seed_004_same_cards_other_order_other_value():
    """seed 004: "as the highest card, 10 points; ... as the lowest card, 1 point" - the
    thirteen spades written from 2 up end in a high ace, written from A up start low."""
    assert meld("♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠10 ♠B ♠D ♠K ♠A", TREPPE).value == 84 + 10
    assert meld("♠A ♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠10 ♠B ♠D ♠K", TREPPE).value == 84 + 1


def test_seed_004_unordered_run_with_an_ace_is_refused():
    """seed 004: the ace's value depends on its place ("Q, K, A, 2, 3"), so a corner rule
    set reads runs with an ace only in the order written."""
    assert codes(meld("♠2 ♠A ♠3", TREPPE)) == {"meld.run-not-in-order"}
    assert codes(meld("♠K ♠2 ♠A ♠D", TREPPE)) == {"meld.run-not-in-order"}
    assert meld("♠5 ♠3 ♠4", TREPPE).value == 12  # no ace: the order cannot matter
    assert meld("♠2 ♠A ♠3", GERMAN).value == 6  # German Rummy: the ace is low or high


def _oracle(ranks, rs):
    """Seed 004 / seed 000 values by position: first ace low, last ace high, else corner."""
    total = 0
    for i, r in enumerate(ranks):
        if r == Rank.ACE:
            total += (
                rs.meld_ace_low
                if i == 0
                else rs.meld_ace_high
                if i == len(ranks) - 1
                else rs.meld_ace_corner
            )
        else:
            total += min(int(r), 10)
    return total


@FAST
@given(
    st.integers(0, 12),
    st.integers(3, 13),
    st.sampled_from(list(Suit)),
    st.booleans(),
)
def test_written_corner_runs_score_by_position(start, length, suit, descending):
    ranks = [CYCLE[(start + k) % 13] for k in range(length)]
    cards = [Card(r, suit) for r in ranks]
    if descending:
        cards.reverse()
    r = check_meld(cards, TREPPE)
    assert r.legal, r.problems
    assert r.value == _oracle(ranks, TREPPE)
    turns = Rank.ACE in ranks[1:-1]
    g = check_meld(cards, GERMAN)
    # German Rummy never turns the corner; thirteen cards are the whole suit, A..K.
    assert g.legal is (not turns or length == 13)
    if not turns:
        assert g.value == _oracle(ranks, GERMAN)


@FAST
@given(st.integers(0, 12), st.integers(3, 13), st.randoms(use_true_random=False))
def test_shuffled_runs_with_an_ace_are_read_as_written_or_refused(start, length, rnd):
    ranks = [CYCLE[(start + k) % 13] for k in range(length)]
    if Rank.ACE not in ranks:
        ranks = [CYCLE[(12 + k) % 13] for k in range(length)]  # from the ace on
    order = list(range(length))
    rnd.shuffle(order)
    cards = [Card(ranks[i], Suit.HEARTS) for i in order]
    r = check_meld(cards, TREPPE)
    written = order in (sorted(order), sorted(order, reverse=True))
    if written:
        assert r.value == _oracle(ranks, TREPPE)
    else:
        assert not r.legal and codes(r) <= {"meld.run-not-in-order", "meld.run-not-consecutive"}


# --- 2. Deck limits -------------------------------------------------------------------


def test_decks_as_the_seeds_say():
    """seed 000: "two packs of French playing cards, each comprising 52 regular cards and
    three jokers"; seed 001: "Two 52 card decks and Four Jokers"; seed 004: "a standard
    French pack of 52 cards" ... "There are no Jokers"."""
    assert (GERMAN.packs, GERMAN.jokers) == (2, 6)
    assert (MELDED.packs, MELDED.jokers) == (2, 4)
    assert (TREPPE.packs, TREPPE.jokers) == (1, 0)


def test_seed_004_one_pack_has_one_ace_of_spades():
    """seed 004: "The game uses a standard French pack of 52 cards"."""
    assert "meld.card-count-exceeds-deck" in codes(meld("♠A ♠A ♥A", TREPPE))
    fourteen = "♠A ♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠10 ♠B ♠D ♠K ♠A"
    assert codes(meld(fourteen, TREPPE)) == {"meld.card-count-exceeds-deck"}
    assert meld(fourteen, GERMAN).legal  # two packs: both aces of spades exist


def test_seed_001_four_jokers_seed_000_six():
    """seed 001: "German Rummy is played with two 52 card decks and 4 Jokers"; seed 000:
    "Uses 2 packs and 6 Jokers"."""
    five = "♠3 ♠4 Jo Jo Jo Jo Jo"
    assert meld(five, GERMAN).legal
    assert codes(meld(five, MELDED)) == {"meld.jokers-exceed-deck"}
    seven = "♠3 ♠4 Jo Jo Jo Jo Jo Jo Jo"
    assert codes(meld(seven, GERMAN)) == {"meld.jokers-exceed-deck"}
    assert codes(meld("♠7 ♥7 Jo", TREPPE)) == {"meld.joker-not-in-deck"}


def test_deck_wide_limit_names_the_seat():
    """seed 004: one pack, so a ♠A melded by seat 1 and another held by seat 3 cannot both
    be at the table."""
    seats = (
        SeatResult(0, cards=(), melded=30, melds=(tuple(parse_cards("♠D ♠K ♠A")),)),
        SeatResult(hand_points=7, cards=tuple(parse_cards("♥7")), melded=0),
        SeatResult(hand_points=15, cards=tuple(parse_cards("♠A")), melded=0),
    )
    h = HandResult(0, 0, seats)
    problems = check_hand(h, TREPPE, 3, hand=4)
    assert [(p.code, p.hand, p.seat, p.params) for p in problems] == [
        ("hand.card-count-exceeds-deck", 4, 2, {"card": "♠A", "count": 2, "deck": 1})
    ]
    assert check_hand(h, TREPPE.derive(packs=2), 3) == []  # two packs: both aces exist


@FAST
@given(
    st.sampled_from(sorted(PRESETS)),
    st.integers(2, 4),
    st.randoms(use_true_random=False),
)
def test_deck_wide_limit_on_random_tables(slug, seats_n, rnd):
    rs = PRESETS[slug]
    cards = rnd.sample(deck(rs.packs, rs.jokers), min(40, rs.deck_size))
    seats = []
    for i in range(seats_n):
        part = cards[i::seats_n]
        melds = (tuple(part[:3]),) if len(part) >= 6 else ()
        seats.append(SeatResult(cards=tuple(part[3:] if melds else part), melds=melds or None))
    assert deck_problems(seats, rs, 1) == []
    c = rnd.choice(cards)
    held = sum(1 for x in cards if x == c)
    limit = rs.jokers if c.is_joker else rs.packs
    extra = (c,) * (limit - held + 1)
    k = rnd.randrange(seats_n)
    seats[k] = SeatResult(cards=(seats[k].cards or ()) + extra, melds=seats[k].melds)
    found = [p for p in deck_problems(seats, rs, 1) if p.params["card"] == str(c)]
    assert len(found) == 1 and found[0].params["count"] == limit + 1
    assert found[0].seat is not None


def test_random_hands_with_cards_pass_the_deck_check():
    rng = random.Random(12)
    for slug, rs in PRESETS.items():
        for n in range(rs.players_min, rs.players_max + 1):
            h = random_hand_cards(rs, n, rng)
            assert deck_problems(h.seats, rs, None) == [], slug


def random_hand_cards(rs, n, rng):
    from rules import random_hand

    return random_hand(rs, n, rng, keep_cards=True)


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_every_preset_deck_is_its_own_limit(slug):
    rs = PRESETS[slug]
    full = deck(rs.packs, rs.jokers)
    assert deck_problems([SeatResult(cards=tuple(full))], rs, None) == []


# --- 4. Ties --------------------------------------------------------------------------


def test_seed_001_ties_play_on():
    """seed 001: "In the event of a tie, player's involved in the tie should play until the
    tie is broken." Its preset does not let the tie-break chain separate them."""
    from rules.standings.ties import ranking_chain

    assert MELDED.ties == "playoff"
    assert ranking_chain(("total", "hands_won", "lots"), MELDED.ties) == ("total",)
    assert all(rs.ties == "chain" for slug, rs in PRESETS.items() if slug != MELDED.slug)
    assert ranking_chain(("total", "hands_won"), GERMAN.ties) == ("total", "hands_won")
    with pytest.raises(Exception) as err:
        GERMAN.derive(ties="coin")
    assert err.value.problems[0].code == "ruleset.unknown-ties"


@FAST
@given(
    st.lists(
        st.tuples(st.integers(-20, 20), st.integers(0, 5), st.integers(0, 50)),
        min_size=2,
        max_size=12,
    ),
    st.integers(1, 4),
)
def test_playoff_policy_never_separates_level_totals(rows, line):
    from rules.standings import core, metrics
    from rules.standings.ties import ranking_chain

    entries = [
        metrics.Entry(key=i, total=t, hands_won=w, hand_points=h)
        for i, (t, w, h) in enumerate(rows)
    ]
    chain = ranking_chain(metrics.DEFAULT_CHAIN, "playoff")
    ranked = core.rank(entries, chain)
    rank_of = {r.key: r.rank for r in ranked}
    for a in entries:
        for b in entries:
            assert (rank_of[a.key] == rank_of[b.key]) == (a.total == b.total)
    # every group level on total that crosses the prize line is proposed for a playoff
    ties = core.ties_on_lines(ranked, [line])
    for group in ties:
        assert len({r.entry.total for r in group}) == 1
    crossing = [
        r for r in ranked if r.rank <= line < r.rank + sum(x.rank == r.rank for x in ranked) - 1
    ]
    assert {r.key for r in crossing} <= {r.key for g in ties for r in g}


# --- 3. Sessions to a target score ----------------------------------------------------


def _treppe_hands(target):
    rs = TREPPE.derive(target_score=target)
    h1 = HandResult.from_points(0, 0, [None, 10, 15], melded=[40, 20, 0])  # 65, 20, 0
    h2 = HandResult.from_points(1, 0, [None, 5, 6], melded=[30, 0, 10])  # 106, 20, 10
    h3 = HandResult.from_points(2, 1, [7, None, 8], melded=[0, 30, 0])
    return rs, [h1, h2, h3]


def series_codes(problems):
    return [(p.code, p.hand) for p in problems]


def test_seed_004_session_ends_when_a_player_reaches_the_target():
    """seed 004: "The overall winner of a session is the player who achieves an agreed
    number of points - for example 500 or 1000 - after several games." The sheet ends in
    the hand where seat 1 reaches 100, although only seats 1 and 2 dealt."""
    from rules import check_series

    assert TREPPE.target_score == 500 and GERMAN.target_score is None
    rs, (h1, h2, h3) = _treppe_hands(100)
    assert check_series([h1, h2], rs, 3) == []
    assert check_series([h1, h2], rs, 3, planned_rounds=1) == []  # rounds do not apply
    assert series_codes(check_series([h1, h2, h3], rs, 3)) == [("series.hand-after-target", 3)]
    assert series_codes(check_series([h1], rs, 3)) == [("series.target-not-reached", None)]
    assert check_series([h1], rs, 3, partial=True) == []
    # Without a target the same sheet needs complete rounds.
    fixed = rs.derive(target_score=None)
    assert series_codes(check_series([h1, h2], fixed, 3)) == [("series.unequal-deals", None)]


def test_target_score_is_validated():
    for bad in (0, -5, "500", True):
        with pytest.raises(Exception) as err:
            TREPPE.derive(target_score=bad)
        assert err.value.problems[0].params["field"] == "target_score"
    assert TREPPE.derive(target_score=1000).overrides() == {"target_score": 1000}
    assert TREPPE.derive(target_score=None).overrides() == {"target_score": None}


@FAST
@given(st.integers(3, 4), st.integers(30, 400), st.integers(0, 2**32))
def test_random_sessions_end_exactly_at_the_target(n, target, seed):
    from rules import check_series, random_hand, score_hand
    from rules.sessions import target_hand

    rs = TREPPE.derive(target_score=target)
    rng = random.Random(seed)
    hands, totals, ended = [], [0] * n, None
    for k in range(60):
        h = random_hand(rs, n, rng, dealer=k % n)
        hands.append(h)
        totals = [t + p for t, p in zip(totals, score_hand(h, rs, n), strict=True)]
        if max(totals) >= target:
            ended = k + 1
            break
    assert target_hand(hands, rs, n) == ended
    if ended is None:
        assert series_codes(check_series(hands, rs, n)) == [("series.target-not-reached", None)]
        return
    assert check_series(hands, rs, n) == []
    extra = random_hand(rs, n, rng, dealer=ended % n)
    assert series_codes(check_series([*hands, extra], rs, n)) == [
        ("series.hand-after-target", ended + 1)
    ]


# --- 5. Ranking points: the parametric profile and the DRoV-style table ----------------

DROV = PRESETS["drov-ranking-points"]
RANKING = PRESETS["ranking-points"]


def _drov_hand(winner_romme=False):
    cards = [None, "7 5 3", "K D B 10 Jo", "Jo Jo 2"]
    melded = [60, 45, 40, 0]
    seats = tuple(
        SeatResult(
            hand_points=0 if c is None else None,
            cards=() if c is None else tuple(parse_cards(c, allow_suitless=True)),
            melded=m,
        )
        for c, m in zip(cards, melded, strict=True)
    )
    return HandResult(0, 0, seats, winner_romme)


def test_drov_table_as_issue_12_describes_it():
    """issue 12: "2 points for a melded loser with at most 30 hand points and 1 above, 0
    or -1 for a loser who never melded, more for hand Rommé, the joker-in-hand penalty".
    Seat 2 melded and holds 15; seat 3 melded and holds 70 with a joker; seat 4 never
    melded and holds two jokers."""
    from rules import score_hand

    h = _drov_hand()
    assert check_hand(h, DROV, 4) == []
    assert score_hand(h, DROV, 4) == (DROV.win_points, 2, 1 - 1, 0 - 2)
    romme = _drov_hand(winner_romme=True)
    assert score_hand(romme, DROV, 4)[0] == DROV.hand_romme_points > DROV.win_points
    minus_one = DROV.derive(unmelded_loser_points=-1)
    assert score_hand(h, minus_one, 4)[3] == -1 - 2


def test_parametric_ranking_points_preset_is_kept():
    """romme-domain.md profile 3: 5 for going out, 8 for a hand Rommé, 3-2-1 by bands."""
    assert (RANKING.profile, RANKING.win_points, RANKING.hand_romme_points) == (
        "ranking_points",
        5,
        8,
    )
    assert RANKING.loser_bands == ((10, 3), (20, 2), (30, 1))


def test_drov_table_needs_the_cards_to_count_jokers():
    h = HandResult.from_points(0, 0, [None, 15, 70, 25], melded=[60, 45, 40, 0])
    assert [(p.code, p.seat) for p in check_hand(h, DROV, 4)] == [
        ("hand.loser-cards-needed", 1),
        ("hand.loser-cards-needed", 2),
        ("hand.loser-cards-needed", 3),
    ]
    no_penalty = DROV.derive(joker_in_hand_points=0)
    assert check_hand(h, no_penalty, 4) == []


@FAST
@given(
    st.integers(2, 257),
    st.integers(0, 6),
    st.booleans(),
    st.integers(5, 60),
    st.integers(0, 4),
    st.integers(-3, 0),
)
def test_drov_bands_are_parameters(held, jokers, melded, bound, inside, joker_pts):
    from rules import score_hand

    rs = DROV.derive(
        melded_loser_bands=((bound, inside + 1),),
        melded_loser_rest=inside,
        joker_in_hand_points=joker_pts,
    )
    cards = (Card(Rank.JOKER),) * jokers
    loser = SeatResult(hand_points=held, melded=40 if melded else 0)
    h = HandResult(0, 0, (SeatResult(0, (), 50), loser))
    rs_nojoker = rs.derive(joker_in_hand_points=0)
    base = score_hand(h, rs_nojoker, 2)[1]
    if melded:
        assert base == (inside + 1 if held <= bound else inside)
    else:
        assert base == rs.unmelded_loser_points
    with_cards = HandResult(
        0, 0, (SeatResult(0, (), 50), SeatResult(cards=cards, melded=loser.melded))
    )
    if jokers:
        assert score_hand(with_cards, rs, 2)[1] - score_hand(with_cards, rs_nojoker, 2)[1] == (
            joker_pts * jokers
        )


# --- 6. Play rules a written sheet can reveal ------------------------------------------


def _seat(melds=None, laid=None, cards=None, melded=None, points=None):
    return SeatResult(
        hand_points=points,
        cards=None if cards is None else tuple(parse_cards(cards, allow_suitless=True)),
        melded=melded,
        melds=None if melds is None else tuple(tuple(parse_cards(m)) for m in melds),
        laid_off=None if laid is None else tuple(parse_cards(laid)),
    )


def play_codes(h, rs, n):
    return [(p.code, p.seat) for p in check_hand(h, rs, n)]


def test_seed_000_no_laying_off_in_the_first_meld_turn():
    """seed 000: "Players may not lay off cards onto existing melds when making their
    first melds." A hand Rommé is a single turn, so its winner cannot have laid off."""
    winner = _seat(melds=["♠8 ♠9 ♠10 ♠B", "♥D ♦D ♣D"], laid="♥5", cards="")
    loser = _seat(cards="7 5")
    h = HandResult(0, 0, (winner, loser), hand_romme=True)
    assert play_codes(h, GERMAN, 2) == [("hand.hand-romme-laid-off", 0)]
    assert play_codes(HandResult(0, 0, (winner, loser)), GERMAN, 2) == []


def test_seed_000_lay_off_only_after_ones_own_first_meld():
    """seed 000: "A player who has made an initial meld may at any time, when it is that
    player's turn, lay off individual cards to melds already made"."""
    winner = _seat(melds=["♠8 ♠9 ♠10 ♠B", "♥2 ♦2 ♣2"], cards="")
    loser = _seat(laid="♠D", cards="7 5")
    h = HandResult(0, 0, (winner, loser))
    assert play_codes(h, GERMAN, 2) == [("hand.laid-off-without-meld", 1)]
    # seed 004: "the same player may put hand cards on any of the combinations on the
    # table including the opponent's" - no own meld needed in Treppenrommé.
    tw = _seat(melds=["♠8 ♠9 ♠10 ♠B"], cards="", melded=37)
    tl = _seat(laid="♠D", cards="7 5", melded=10)
    assert play_codes(HandResult(0, 0, (tw, tl)), TREPPE, 2) == []


def test_seed_000_first_meld_at_least_40():
    """seed 000: "For the first meld by each player, the cards being melded must have a
    value of at least 40 points"."""
    winner = _seat(melds=["♠8 ♠9 ♠10 ♠B"], cards="")  # 37
    loser = _seat(cards="7 5")
    assert play_codes(HandResult(0, 0, (winner, loser)), GERMAN, 2) == [
        ("hand.melds-below-first-meld", 0)
    ]
    winner = _seat(melds=["♠8 ♠9 ♠10 ♠B", "♥2 ♦2 ♣2"], cards="")  # 43
    assert play_codes(HandResult(0, 0, (winner, loser)), GERMAN, 2) == []


def test_seed_004_recorder_notes_75():
    """seed 004: "Bob melds the following combinations: 6-6-6 (18), D-K-A-2-3 (30). He
    also adds to combinations that have already been played: B, 7, 10 (27). The recorder
    notes for him: 18+30+27=75 points." """

    def bob(melded):
        return SeatResult(
            hand_points=5,
            cards=tuple(parse_cards("5", allow_suitless=True)),
            melded=melded,
            melds=(
                tuple(parse_cards("6 6 6", allow_suitless=True)),
                tuple(parse_cards("D K A 2 3", allow_suitless=True)),
            ),
            laid_off=tuple(parse_cards("B 7 10", allow_suitless=True)),
        )

    ann = _seat(melds=["♥7 ♥8 ♥9"], cards="", melded=24)
    assert play_codes(HandResult(0, 0, (ann, bob(75))), TREPPE, 2) == []
    assert play_codes(HandResult(0, 0, (ann, bob(76))), TREPPE, 2) == [
        ("hand.melded-cards-mismatch", 1)
    ]


@FAST
@given(st.integers(0, 2**32), st.booleans())
def test_melded_value_is_the_sum_of_the_melds_written(seed, off_by_one):
    rng = random.Random(seed)
    rs = TREPPE
    suit = rng.choice(list(Suit))
    start, length = rng.randrange(13), rng.randint(3, 8)
    run = tuple(Card(CYCLE[(start + k) % 13], suit) for k in range(length))
    value = check_meld(run, rs).value
    melded = value + (1 if off_by_one else 0)
    winner = SeatResult(0, (), melded, melds=(run,))
    loser = SeatResult(hand_points=None, cards=(Card(Rank.TWO, None),), melded=0)
    codes_ = [p.code for p in check_hand(HandResult(0, 0, (winner, loser)), rs, 2)]
    assert codes_ == (["hand.melded-cards-mismatch"] if off_by_one else [])


def test_from_dict_reads_melds_and_lay_offs():
    h = HandResult.from_dict(
        {
            "dealer": 0,
            "winner": 0,
            "seats": [
                {"hand_points": 0, "melds": ["♠8 ♠9 ♠10 ♠B", "♥D ♦D ♣D"]},  # 67
                {"cards": "7 5", "laid_off": "♠D"},
            ],
        }
    )
    assert play_codes(h, GERMAN, 2) == [("hand.laid-off-without-meld", 1)]
    assert HandResult.from_dict(h.to_dict()) == h
