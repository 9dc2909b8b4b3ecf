"""Card notation: the rule texts' symbols, plain ASCII, suitless hand cells."""

import pytest

from rules import (
    JOKER,
    Card,
    CardParseError,
    Rank,
    Suit,
    deck,
    format_cards,
    parse_cards,
    parse_hand_cards,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def test_seed_000_notation_with_german_letters_and_bare_j_joker():
    """seed 000_1e8d632c2a83f1ef.txt writes ♣B–♣D–J–♣A (B Bube, D Dame, J joker)."""
    assert parse_cards("♣B–♣D–J–♣A") == [
        Card(Rank.JACK, C),
        Card(Rank.QUEEN, C),
        JOKER,
        Card(Rank.ACE, C),
    ]


def test_seed_000_run_with_two_jokers():
    """seed 000_1e8d632c2a83f1ef.txt: ♠3–J–J–♠6."""
    assert parse_cards("♠3–J–J–♠6") == [Card(Rank.THREE, S), JOKER, JOKER, Card(Rank.SIX, S)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("S10 H10 D10", [Card(Rank.TEN, S), Card(Rank.TEN, H), Card(Rank.TEN, D)]),
        ("10S", [Card(Rank.TEN, S)]),
        ("10♠ ♠10", [Card(Rank.TEN, S)] * 2),
        ("hq, QH, dq", [Card(Rank.QUEEN, H), Card(Rank.QUEEN, H), Card(Rank.QUEEN, D)]),
        ("SJ JS ♠J ♠B B♠", [Card(Rank.JACK, S)] * 5),
        ("♦D ♦Q D♦", [Card(Rank.QUEEN, D)] * 3),
        ("Jo joker * J JOKER", [JOKER] * 5),
        ("♥A-♥2-♥3", [Card(Rank.ACE, H), Card(Rank.TWO, H), Card(Rank.THREE, H)]),
        ("CA ac", [Card(Rank.ACE, C)] * 2),
        ("♥️K", [Card(Rank.KING, H)]),  # emoji variation selector
        ("  ", []),
    ],
)
def test_notation(text, expected):
    assert parse_cards(text) == expected


def test_suitless_ranks_in_a_hand_cell():
    """docs architecture-sketch.md: `Jo A K 7` and `J A B 7` in a hand-points cell."""
    assert parse_cards("Jo A K 7", allow_suitless=True) == [
        JOKER,
        Card(Rank.ACE),
        Card(Rank.KING),
        Card(Rank.SEVEN),
    ]
    assert parse_hand_cards("J A B 7") == [JOKER, Card(Rank.ACE), Card(Rank.JACK), Card(Rank.SEVEN)]
    assert parse_hand_cards("D q") == [Card(Rank.QUEEN)] * 2


def test_suitless_rank_needs_the_flag():
    with pytest.raises(CardParseError) as err:
        parse_cards("♠A K")
    assert err.value.code == "card.missing-suit"
    assert err.value.token == "K" and err.value.position == 2


@pytest.mark.parametrize(
    "text, token, position, offset",
    [
        ("♠A ♠X ♠3", "♠X", 2, 3),
        ("S10,H11", "H11", 2, 4),
        ("Jo-DD", "DD", 2, 3),
        ("1S", "1S", 1, 0),
        ("SD", "SD", 1, 0),  # B/D are ranks only with a suit symbol
        ("♠", "♠", 1, 0),
    ],
)
def test_bad_token_names_token_and_position(text, token, position, offset):
    with pytest.raises(CardParseError) as err:
        parse_cards(text)
    e = err.value
    assert (e.token, e.position, e.offset, e.code) == (
        token,
        position,
        offset,
        "card.unknown-token",
    )
    assert e.problem.params == {"token": token, "position": position}
    assert token in str(e)


def test_round_trip_of_printed_cards():
    cards = deck(1, 2)
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(" ".join(c.ascii for c in cards)) == cards
    assert str(Card(Rank.JACK)) == "B" and parse_hand_cards("B") == [Card(Rank.JACK)]


def test_deck_composition_seed_000():
    """seed 000_1e8d632c2a83f1ef.txt: two packs of 52 and six jokers (3 per pack)."""
    d = deck(2, 6)
    assert len(d) == 110 and d.count(JOKER) == 6 and d.count(Card(Rank.ACE, S)) == 2


def test_the_token_cache_keeps_cards_only_so_typing_cannot_grow_it():
    from rules import cards

    for text in ("♥7 ♠B Jo", "♦10", "A K"):
        cards.parse_hand_cards(text)
    before = len(cards._token_cache)
    for n in range(2000):
        with pytest.raises(CardParseError):
            cards.parse_hand_cards(f"x{n}")
    assert len(cards._token_cache) == before
    symbols, ranks = cards._SYMBOLS, cards._RANKS_WITH_SYMBOL
    spellings = [f"{s}{r}" for s in symbols for r in ranks] + [
        f"{r}{s}" for s in symbols for r in ranks
    ]
    letters, letter_ranks = cards._LETTERS, cards._RANKS_WITH_LETTER
    spellings += [f"{t}{r}" for t in letters for r in letter_ranks]
    spellings += [f"{r}{t}" for t in letters for r in letter_ranks]
    for spelling in spellings:
        cards.parse_hand_cards(spelling)
    # Every way to write a card, a rank alone or a joker: all it can ever hold.
    assert set(cards._token_cache) <= {*spellings, *cards._RANKS_ALONE, *cards._JOKER_TOKENS}
