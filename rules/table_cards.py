"""Card-level checks of one hand written card by card: the deck across the table, and the
play rules a written sheet can reveal.

A seat may carry, besides its hand cards, ``melds`` (the melds it laid down itself, each
a sequence of cards in the order written) and ``laid_off`` (cards it laid off on melds
already on the table). From these the engine checks:

* **deck-wide plausibility** (``hand.card-count-exceeds-deck``): across every meld,
  lay-off and hand card of all seats, no card appears more often than the deck holds
  (per card and suit: ``packs``; per rank: ``4 * packs``; jokers: ``jokers``). The
  problem names the seat whose cards pass the limit;
* each meld is legal (``meld.*`` codes, with hand and seat);
* **first-meld minimum** (``hand.melds-below-first-meld``): a player's own melds are
  worth at least ``first_meld_minimum`` together (the first turn's melds are part of
  them, so less is impossible);
* where ``lay_off_needs_first_meld`` (German Rummy; not Treppenrommé, seed 004, where a
  player may lay off in any turn): **no laying off before one's own first meld**
  (``hand.laid-off-without-meld``), and none in the turn of the first meld, which for a
  hand Rommé is the only turn (``hand.hand-romme-laid-off``);
* the melded value written matches the melds and lay-offs written
  (``hand.melded-cards-mismatch``) where it is determined (no ace or joker laid off,
  since their value depends on where they went).

Seeds: 000 ("Players may not lay off cards onto existing melds when making their first
melds"; "A player who has made an initial meld may ... lay off"), 001, 004.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter, eq

from .cards import Card, Rank
from .melds import check_meld
from .problems import Problem
from .ruleset import RuleSet
from .seats import SeatResult


def _seat_cards(s: SeatResult) -> Sequence[Card]:
    if s.melds is None and s.laid_off is None:
        return s.cards or ()
    cards = list(s.cards or ())
    for m in s.melds or ():
        cards.extend(m)
    cards.extend(s.laid_off or ())
    return cards


def deck_problems(seats: Sequence[SeatResult], ruleset: RuleSet, hand: int | None) -> list[Problem]:
    """Cards more often at the table than the deck holds, each named at the seat whose
    cards pass the limit (``count`` is the number at the whole table)."""
    per_seat = [_seat_cards(s) for s in seats]
    if not any_over_deck(list(map(CARD_KEY, chain.from_iterable(per_seat))), ruleset):
        return []
    totals: dict[tuple[str, int | Card], int] = {}
    for cards in per_seat:
        for c in cards:
            for k in _keys(c):
                totals[k] = totals.get(k, 0) + 1
    limits = {"joker": ruleset.jokers, "card": ruleset.packs, "rank": 4 * ruleset.packs}
    over = {k: n for k, n in totals.items() if n > limits[k[0]]}
    if not over:
        return []
    problems = []
    running: dict[tuple[str, int | Card], int] = {}
    for seat, cards in enumerate(per_seat):
        for c in cards:
            for k in _keys(c):
                running[k] = running.get(k, 0) + 1
                if k in over and running[k] == limits[k[0]] + 1:
                    label = "Jo" if k[0] == "joker" else str(c if k[0] == "card" else Card(c.rank))
                    problems.append(
                        Problem(
                            "hand.card-count-exceeds-deck",
                            hand,
                            seat,
                            {"card": label, "count": over[k], "deck": limits[k[0]]},
                        )
                    )
    return problems


#: a card's ``key``: rank * 5 + suit number (0 for a joker and for suitless cards' suit)
CARD_KEY = attrgetter("key")
#: keys of suitless natural cards (rank * 5 + 0): only they can pass a rank's limit
#: without passing a card's
_SUITLESS_KEYS = frozenset(int(r) * 5 for r in Rank if r)


def any_over_deck(keys: list[int], ruleset: RuleSet) -> bool:
    """Fast path: whether any card (given by ``Card.key``; a joker's key is 0) is at the
    table more often than the deck holds it."""
    jokers = keys.count(0)
    if jokers > ruleset.jokers:
        return True
    packs = ruleset.packs
    distinct = set(keys)
    if distinct.isdisjoint(_SUITLESS_KEYS):
        # Every card has a suit, so no rank can pass 4 * packs unless one card passes
        # packs: in sorted order (jokers first, left out) some key then equals the key
        # ``packs`` places on.
        if len(distinct) == len(keys):
            return False
        ordered = sorted(keys)[jokers:]
        return any(map(eq, ordered, ordered[packs:]))
    counts = Counter(keys)
    counts.pop(0, None)
    if not counts:
        return False
    suitless = counts.keys() & _SUITLESS_KEYS
    if not suitless:
        return max(counts.values()) > packs  # per card within the deck: per rank too
    per_rank: dict[int, int] = {}
    for key, k in counts.items():
        rank, suit = divmod(key, 5)
        if suit and k > packs:
            return True
        per_rank[rank] = per_rank.get(rank, 0) + k
    limit = 4 * packs
    return any(k > limit for k in per_rank.values())


def _keys(c: Card) -> tuple[tuple[str, int | Card], ...]:
    if not c.rank:
        return (("joker", 0),)
    if c.suit is None:
        return (("rank", int(c.rank)),)
    return (("card", c), ("rank", int(c.rank)))


def _laid_off_value(cards: Sequence[Card]) -> int | None:
    if any(c.rank in (0, Rank.ACE) for c in cards):
        return None
    return sum(min(int(c.rank), 10) for c in cards)


def play_problems(
    seats: Sequence[SeatResult],
    ruleset: RuleSet,
    hand: int | None,
    winner: int | None,
    hand_romme: bool,
) -> list[Problem]:
    """The melds of each seat and the play rules a sheet can reveal (module docstring)."""
    problems: list[Problem] = []
    for i, s in enumerate(seats):
        melds = s.melds
        laid = s.laid_off or ()
        if melds is None and not laid:
            continue
        own = 0
        determined = True
        for m in melds or ():
            r = check_meld(m, ruleset)
            problems.extend(Problem(p.code, hand, i, p.params) for p in r.problems)
            if r.value is None:
                determined = False
            else:
                own += r.value
        if melds and determined and own < ruleset.first_meld_minimum:
            problems.append(
                Problem(
                    "hand.melds-below-first-meld",
                    hand,
                    i,
                    {"value": own, "minimum": ruleset.first_meld_minimum},
                )
            )
        if laid and ruleset.lay_off_needs_first_meld:
            if not melds:
                problems.append(
                    Problem("hand.laid-off-without-meld", hand, i, {"cards": len(laid)})
                )
            elif hand_romme and i == winner:
                problems.append(Problem("hand.hand-romme-laid-off", hand, i, {"cards": len(laid)}))
        lv = _laid_off_value(laid)
        if s.melded is not None and melds is not None and determined and lv is not None:  # noqa: SIM102
            if s.melded != own + lv:
                problems.append(
                    Problem(
                        "hand.melded-cards-mismatch",
                        hand,
                        i,
                        {"melded": s.melded, "cards_value": own + lv},
                    )
                )
    return problems
