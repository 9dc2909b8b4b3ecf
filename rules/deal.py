"""Random but plausible hands from a really shuffled deck (demo data, benchmarks, tests)."""

from __future__ import annotations

import random

from .cards import Card, Rank, deck
from .hands import HandResult, SeatResult
from .ruleset import RuleSet


def _deck(ruleset: RuleSet) -> list[Card]:
    cards = ruleset.memo.get("deck")
    if cards is None:
        cards = ruleset.memo["deck"] = deck(ruleset.packs, ruleset.jokers)
    return cards


def _meld_estimate(cards: list[Card], ruleset: RuleSet) -> int:
    # Roughly what these cards are worth in play; jokers count as a court card.
    total = 0
    for c in cards:
        total += ruleset.meld_ace_set if c.rank == Rank.ACE else min(int(c.rank), 10) or 10
    return total


def random_hand(
    ruleset: RuleSet,
    table_size: int,
    rng: random.Random,
    dealer: int = 0,
    *,
    keep_cards: bool = False,
    melded: bool | None = None,
    hand_romme_rate: float = 0.05,
    no_winner_rate: float = 0.05,
) -> HandResult:
    """Deal a shuffled deck and end the hand plausibly: a random winner (or, where the
    stock may run out, sometimes nobody), each loser holding some of the cards really
    dealt to them. The result passes ``check_hand`` under ``ruleset``.

    ``keep_cards`` also stores the held cards; ``melded`` (default: when the profile
    needs them) adds melded values. This is a plausible end of a hand, not a
    simulation of play.
    """
    keep_cards = keep_cards or ruleset.needs_cards
    dk = _deck(ruleset)
    extra_pool = 0 if ruleset.hand_limit is not None else 4 * table_size
    need = min(len(dk), ruleset.cards_dealt * table_size + 1 + extra_pool)
    cards = rng.sample(dk, need)
    if ruleset.stock_may_run_out and rng.random() < no_winner_rate:
        winner = None
    else:
        winner = rng.randrange(table_size)
    hand_romme = winner is not None and rng.random() < hand_romme_rate
    with_melded = ruleset.needs_melded if melded is None else melded
    cap = ruleset.max_hand_cards(table_size)
    first_min = ruleset.first_meld_minimum
    values = ruleset.hand_values

    pos = 0
    dealt_all = []
    for i in range(table_size):
        k = ruleset.cards_dealt + (1 if i == dealer and ruleset.dealer_extra_card else 0)
        dealt_all.append(cards[pos : pos + k])
        pos += k
    spare = cards[pos:]

    seats = []
    for i, dealt in enumerate(dealt_all):
        if i == winner:
            g = max(first_min, _meld_estimate(dealt, ruleset), 1)
            seats.append(SeatResult(0, () if keep_cards else None, g if with_melded else None))
            continue
        if hand_romme or rng.random() < 0.4:
            held = dealt[:cap]  # never melded
            g = 0
        else:
            k = rng.randint(1, max(1, len(dealt) - 3))
            held = dealt[:k]
            g = max(first_min, _meld_estimate(dealt[k:], ruleset), 1)
        if extra_pool and spare and rng.random() < 0.3:
            # Treppenrommé: the loser picked up part of the staircase.
            take = min(len(spare), rng.randint(1, 4), cap - len(held))
            held = held + spare[:take]
            spare = spare[take:]
        pts = sum(values[c.rank] for c in held)
        seats.append(
            SeatResult(pts, tuple(held) if keep_cards else None, g if with_melded else None)
        )
    return HandResult(dealer, winner, tuple(seats), hand_romme)
