"""Every example of the rule texts, each test naming its seed file."""

import pytest

from rules import (
    PRESETS,
    check_first_meld,
    check_joker_swap,
    check_meld,
    hand_points,
    parse_card,
    parse_cards,
)

GERMAN = PRESETS["german-minus"]  # seed 000
GERMAN_20 = PRESETS["german-minus-20"]  # seed 003
MELDED = PRESETS["melded-minus-held"]  # seed 001
TREPPE = PRESETS["treppenromme"]  # seed 004


def meld(text, rs, suitless=False):
    return check_meld(parse_cards(text, allow_suitless=suitless), rs)


def codes(result):
    return {p.code for p in result.problems}


# --- seed 000_1e8d632c2a83f1ef.txt -------------------------------------------------------


@pytest.mark.parametrize(
    "text, kind, value",
    [
        ("♥K–♦K–♣K", "set", 30),
        ("♠3–♥3–♦3–♣3", "set", 12),
        ("♥A–♥2–♥3", "run", 6),  # ace 1 at the low end
        ("♦8–♦9–♦10–♦B", "run", 37),
        ("♣D–♣K–♣A", "run", 31),  # ace 11 after the king
        ("♣B–♣D–J–♣A", "run", 41),  # joker stands for ♣K
        ("♠6–♥6–J", "set", 18),  # joker stands for a 6
        ("♠3–J–J–♠6", "run", 18),  # two jokers side by side in a run of four
        ("♥A-♥2-♥3-♥4-♥5", "run", 15),  # lay-off example: ♥A and ♥5 on ♥2-♥3-♥4
    ],
)
def test_seed_000_legal_melds_and_values(text, kind, value):
    """seed 000_1e8d632c2a83f1ef.txt, Melds and Card values."""
    r = meld(text, GERMAN)
    assert r.legal, r.problems
    assert (r.kind, r.value) == (kind, value)


def test_seed_000_k_a_2_does_not_turn_the_corner():
    """seed 000_1e8d632c2a83f1ef.txt: runs ... but not ♠K–♠A–♠2."""
    r = meld("♠K–♠A–♠2", GERMAN)
    assert not r.legal and codes(r) == {"meld.run-corner"}


def test_seed_000_one_natural_and_two_jokers_is_illegal():
    """seed 000_1e8d632c2a83f1ef.txt: not one natural card and two jokers."""
    assert "meld.one-natural-two-jokers" in codes(meld("♠3–J–J", GERMAN))
    assert "meld.one-natural-two-jokers" in codes(meld("J–♠3–J", GERMAN))


def test_seed_000_joker_stands_for_the_card_it_replaces():
    """seed 000_1e8d632c2a83f1ef.txt: ♣B–♣D–J–♣A: the joker is ♣K; in ♠3–J–J–♠6 ♠4, ♠5."""
    assert str(meld("♣B–♣D–J–♣A", GERMAN).stands_for[2]) == "♣K"
    assert [str(c) for c in meld("♠3–J–J–♠6", GERMAN).stands_for] == ["♠3", "♠4", "♠5", "♠6"]


def test_seed_000_card_values_at_the_end():
    """seed 000_1e8d632c2a83f1ef.txt: court 10, pips face value, ace 11, joker 30 in hand."""
    assert hand_points(parse_cards("♠K ♥D ♦B", allow_suitless=True), GERMAN) == 30
    assert hand_points(parse_cards("2 5 10", allow_suitless=True), GERMAN) == 17
    assert hand_points(parse_cards("A", allow_suitless=True), GERMAN) == 11
    assert hand_points(parse_cards("Jo"), GERMAN) == 30


def test_seed_000_first_meld_minimum_40():
    """seed 000_1e8d632c2a83f1ef.txt: the first meld is worth at least 40 points."""
    assert GERMAN.first_meld_minimum == 40
    low = check_first_meld([parse_cards("♥A–♥2–♥3"), parse_cards("♠K–♥K–♦K")], GERMAN)
    assert not low.legal and low.value == 36
    assert low.problems[0].code == "meld.first-meld-below-minimum"
    ok = check_first_meld([parse_cards("♣B–♣D–J–♣A")], GERMAN)
    assert ok.legal and ok.value == 41


def test_seed_000_joker_swap():
    """seed 000_1e8d632c2a83f1ef.txt: ♠6-♥6-J, a player holding ♣6 or ♦6 may swap;
    under the stricter (DSkV) rule only when the set becomes four of a kind."""
    m = parse_cards("♠6-♥6-J")
    assert check_joker_swap(m, parse_card("♣6"), GERMAN) == []
    assert check_joker_swap(m, parse_card("♦6"), GERMAN) == []
    assert check_joker_swap(m, parse_card("♠6"), GERMAN)[0].code == "meld.joker-swap-wrong-card"
    strict = GERMAN.derive(joker_swap="set-of-four")
    assert check_joker_swap(m, parse_card("♣6"), strict)[0].code == (
        "meld.joker-swap-set-incomplete"
    )
    assert check_joker_swap(parse_cards("♠6-♥6-♦6-J"), parse_card("♣6"), strict) == []


def test_seed_000_deck_deal_and_minus_points():
    """seed 000_1e8d632c2a83f1ef.txt: 2 x 52 + 6 jokers, 13 cards, minus points."""
    assert (GERMAN.packs, GERMAN.jokers, GERMAN.cards_dealt) == (2, 6, 13)
    assert GERMAN.joker_points == 30 and GERMAN.ace_points == 11
    assert GERMAN.profile == "minus" and not GERMAN.runs_turn_corner
    assert (GERMAN.players_min, GERMAN.players_max) == (2, 6)


# --- seed 001_0d0d6b688e9eedc9.txt -------------------------------------------------------


def test_seed_001_runs_and_sets():
    """seed 001_0d0d6b688e9eedc9.txt: 2-3-4-5 of hearts, Q-Q-Q; a set never repeats a suit."""
    assert meld("♥2 ♥3 ♥4 ♥5", MELDED).value == 14
    assert meld("♠Q ♥Q ♦Q", MELDED).value == 30
    r = meld("♥Q ♥Q ♦Q", MELDED)
    assert not r.legal and codes(r) == {"meld.set-duplicate-suit"}


def test_seed_001_q_k_a_2_is_illegal():
    """seed 001_0d0d6b688e9eedc9.txt: Q-K-A-2 is an illegal run (no going around the corner)."""
    assert codes(meld("♠Q-♠K-♠A-♠2", MELDED)) == {"meld.run-corner"}


def test_seed_001_jokers_need_two_other_cards():
    """seed 001_0d0d6b688e9eedc9.txt: 3-Joker-Joker illegal, 3-3-Joker-Joker legal."""
    assert "meld.one-natural-two-jokers" in codes(meld("♠3-Jo-Jo", MELDED))
    r = meld("♠3-♥3-Jo-Jo", MELDED)
    assert r.legal and r.kind == "set" and r.value == 12


def test_seed_001_joker_swap_in_a_run():
    """seed 001_0d0d6b688e9eedc9.txt: spades 3-4-Joker-6, the 5 of spades swaps the joker."""
    assert check_joker_swap(parse_cards("♠3-♠4-Jo-♠6"), parse_card("♠5"), MELDED) == []
    assert check_joker_swap(parse_cards("♠3-♠4-Jo-♠6"), parse_card("♥5"), MELDED)


def test_seed_001_values_and_deck():
    """seed 001_0d0d6b688e9eedc9.txt: ace 11 in a set / high, 1 low, 11 in hand; joker 30
    in hand; two packs and four jokers; first meld 40; melded minus held, highest wins."""
    assert meld("♠A ♥A ♦A", MELDED).value == 33
    assert meld("♠Q ♠K ♠A", MELDED).value == 31
    assert meld("♠A ♠2 ♠3", MELDED).value == 6
    assert hand_points(parse_cards("A Jo", allow_suitless=True), MELDED) == 41
    assert (MELDED.packs, MELDED.jokers, MELDED.first_meld_minimum) == (2, 4, 40)
    assert MELDED.profile == "melded_minus_held" and MELDED.needs_melded
    assert MELDED.higher_is_better


# --- seed 003_1485ec7b5658c59f.txt -------------------------------------------------------


def test_seed_003_joker_20_and_dealer_14th_card():
    """seed 003_1485ec7b5658c59f.txt: a joker counts 20 at the end; the dealer takes 14."""
    assert GERMAN_20.joker_points == 20 and GERMAN_20.dealer_extra_card
    assert hand_points(parse_cards("Jo Jo A", allow_suitless=True), GERMAN_20) == 51
    assert GERMAN_20.max_hand_points(4) == 6 * 20 + 7 * 11


def test_seed_003_melds_and_ace_values():
    """seed 003_1485ec7b5658c59f.txt: clubs 7-8-9; queens of clubs, diamonds, hearts;
    ace 1 only in A-2-3, 11 after the king; joker as the card it replaces."""
    assert meld("♣7 ♣8 ♣9", GERMAN_20).value == 24
    assert meld("♣D ♦D ♥D", GERMAN_20).value == 30
    assert meld("♦A ♦2 ♦3", GERMAN_20).value == 6
    assert meld("♦D ♦K ♦A", GERMAN_20).value == 31
    assert meld("♦D ♦K Jo", GERMAN_20).value == 31
    assert "meld.one-natural-two-jokers" in codes(meld("♦D Jo Jo", GERMAN_20))
    assert GERMAN_20.first_meld_minimum == 40


# --- seed 004_5ce05b6e0aff81d1.txt (Treppenrommé) -----------------------------------------


@pytest.mark.parametrize(
    "text, value",
    [
        ("6-6-6-6", 24),
        ("A-A-A", 45),
        ("Q-K-A", 30),
        ("Q-K-A-2", 27),
        ("A-2-3", 6),
        ("5-6-7-8-9", 35),
        ("D-K-A-2-3", 30),  # Bob's meld
        ("6-6-6", 18),  # Bob's set
    ],
)
def test_seed_004_treppenromme_values(text, value):
    """seed 004_5ce05b6e0aff81d1.txt: the source's examples, written as there (no suits)."""
    r = meld(text, TREPPE, suitless=True)
    assert r.legal, r.problems
    assert r.value == value


def test_seed_004_same_examples_with_suits():
    """seed 004_5ce05b6e0aff81d1.txt: aces 15 in a set, 10 high, 5 turning the corner, 1 low."""
    assert meld("♠6 ♥6 ♦6 ♣6", TREPPE).value == 24
    assert meld("♠A ♥A ♦A", TREPPE).value == 45
    assert meld("♥Q ♥K ♥A", TREPPE).value == 30
    assert meld("♥Q ♥K ♥A ♥2", TREPPE).value == 27
    assert meld("♥A ♥2 ♥3", TREPPE).value == 6
    assert meld("♥5 ♥6 ♥7 ♥8 ♥9", TREPPE).value == 35


def test_seed_004_corner_legal_only_in_treppenromme():
    """seed 004_5ce05b6e0aff81d1.txt: Q, K, A, 2, 3 turns the corner; illegal in German
    Rummy (seed 000_1e8d632c2a83f1ef.txt, seed 001_0d0d6b688e9eedc9.txt)."""
    for text in ("♠K-♠A-♠2", "♠Q-♠K-♠A-♠2", "♠Q-♠K-♠A-♠2-♠3"):
        assert meld(text, TREPPE).legal
        assert codes(meld(text, GERMAN)) == {"meld.run-corner"}
    assert meld("♠K-♠A-♠2", TREPPE).value == 17


def test_seed_004_lay_offs_count_individually():
    """seed 004_5ce05b6e0aff81d1.txt: Bob lays off B, 7, 10 = 27 points."""
    cards = parse_cards("B 7 10", allow_suitless=True)
    assert hand_points(cards, TREPPE) == 27


def test_seed_004_sets_of_different_suits_and_no_jokers():
    """seed 004_5ce05b6e0aff81d1.txt: a set of 3 or 4, different suits; there are no jokers."""
    # one pack: a second ♠7 is also more than the deck holds
    assert codes(meld("♠7 ♠7 ♥7", TREPPE)) == {
        "meld.set-duplicate-suit",
        "meld.card-count-exceeds-deck",
    }
    assert "meld.set-too-many-cards" in codes(meld("♠7 ♥7 ♦7 ♣7 ♠7", TREPPE))
    assert "meld.joker-not-in-deck" in codes(meld("♠7 ♥7 Jo", TREPPE))
    assert check_joker_swap(parse_cards("♠7 ♥7 Jo"), parse_card("♦7"), TREPPE)[0].code == (
        "meld.joker-swap-forbidden"
    )


def test_seed_004_deck_and_hand_values():
    """seed 004_5ce05b6e0aff81d1.txt: one pack, 7 cards, 2 to 4 players, ace in hand 15."""
    assert (TREPPE.packs, TREPPE.jokers, TREPPE.cards_dealt) == (1, 0, 7)
    assert (TREPPE.players_min, TREPPE.players_max) == (2, 4)
    assert hand_points(parse_cards("A K 2", allow_suitless=True), TREPPE) == 27
    assert TREPPE.first_meld_minimum == 0 and TREPPE.runs_turn_corner


# --- meld rules in general -------------------------------------------------------------


def test_set_of_five_is_illegal():
    """seed 000_1e8d632c2a83f1ef.txt: sets of 3 or 4 cards."""
    r = meld("♠3 ♥3 ♦3 ♣3 Jo", GERMAN)
    assert not r.legal and codes(r) == {"meld.set-too-many-cards"}


@pytest.mark.parametrize(
    "text, code",
    [
        ("♠3 ♠4", "meld.too-few-cards"),
        ("Jo Jo Jo", "meld.no-natural-card"),
        ("♠3 ♠5 ♠6", "meld.run-not-consecutive"),
        ("♠3 ♥4 ♠5", "meld.run-mixed-suits"),
        ("♠3 ♥3 ♠4", "meld.mixed"),
    ],
)
def test_illegal_melds(text, code):
    """seed 000_1e8d632c2a83f1ef.txt: melds are sets or runs of at least three cards."""
    r = meld(text, GERMAN)
    assert not r.legal and code in codes(r) and r.value is None


def test_runs_in_any_order_and_descending():
    assert meld("♠5 ♠3 ♠4", GERMAN).value == 12
    assert meld("♠3 ♠2 ♠A", GERMAN).value == 6
    assert meld("♠A ♠K ♠Q", GERMAN).value == 31
    assert meld("♠A ♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠10 ♠B ♠D ♠K", GERMAN).legal
    assert codes(meld("♠Q ♠K ♠A ♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠10 ♠B ♠D", TREPPE)) == {
        "meld.run-too-long",
        "meld.card-count-exceeds-deck",  # a second ♠D in one pack
    }
