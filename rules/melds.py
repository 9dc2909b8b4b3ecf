"""Melds: sets and runs, their legality and value in play; hand points of held cards."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .cards import Card, Rank
from .problems import Problem
from .ruleset import RuleSet


class MeldResult(NamedTuple):
    """The verdict on one meld.

    ``kind`` is ``"set"``, ``"run"`` or None (neither); ``value`` is the value in play
    (None when illegal); ``stands_for`` gives, per card as written, the card it counts
    as (a joker in a set stands for its rank with ``suit=None``).
    """

    legal: bool
    kind: str | None
    value: int | None
    problems: tuple[Problem, ...]
    stands_for: tuple[Card, ...] = ()


class FirstMeld(NamedTuple):
    """The verdict on a first meld (one or more melds laid in one turn)."""

    legal: bool
    value: int
    problems: tuple[Problem, ...]


def hand_points(cards: Iterable[Card], ruleset: RuleSet) -> int:
    """Hand points of cards left in a hand (ace and joker per the rule set)."""
    values = ruleset.hand_values
    return sum(values[c.rank] for c in cards)


def _pip(rank: int) -> int:
    return rank if rank <= 10 else 10


def _run_rank(pos: int, cyclic: bool) -> int:
    """The rank at a run position: linear 1..14 (1 and 14 are the ace), cyclic 0..12."""
    if cyclic:
        pos %= 13
        return Rank.KING if pos == 0 else Rank.ACE if pos == 1 else pos
    return Rank.ACE if pos in (1, 14) else pos


def _fits(rank: int, pos: int, cyclic: bool) -> bool:
    return _run_rank(pos, cyclic) == rank


def _written_order(cards: Sequence[Card], cyclic: bool) -> list[int] | None:
    """Run positions per card if the cards are written ascending, else None."""
    n = len(cards)
    i0 = next((i for i, c in enumerate(cards) if c.rank), None)
    if i0 is None:
        return None
    r = cards[i0].rank
    starts = [r - i0]
    if r == Rank.ACE and not cyclic:
        starts.append(1 - i0)
    for s in starts:
        if not cyclic and (s < 1 or s + n - 1 > 14):
            continue
        if all(not c.rank or _fits(c.rank, s + i, cyclic) for i, c in enumerate(cards)):
            return [s + i for i in range(n)]
    return None


def _any_order(cards: Sequence[Card], cyclic: bool) -> list[int] | None:
    """Run positions per card for unordered input; spare jokers take the high end."""
    n = len(cards)
    starts = range(13) if cyclic else range(14 - n + 1, 0, -1)
    for s in starts:
        free = list(range(s, s + n))
        pos: list[int | None] = [None] * n
        ok = True
        for i, c in enumerate(cards):
            if not c.rank:
                continue
            for p in free:
                if _fits(c.rank, p, cyclic):
                    pos[i] = p
                    free.remove(p)
                    break
            else:
                ok = False
                break
        if ok:
            for i, c in enumerate(cards):
                if not c.rank:
                    pos[i] = free.pop(0)
            return pos  # type: ignore[return-value]
    return None


def _written_positions(cards: Sequence[Card], cyclic: bool) -> list[int] | None:
    """Run positions per card when the cards are written ascending or descending."""
    if cyclic and len(cards) > 13:
        return None
    pos = _written_order(cards, cyclic)
    if pos is None:
        rev = _written_order(cards[::-1], cyclic)
        if rev is not None:
            pos = rev[::-1]
    return pos


def _run_positions(cards: Sequence[Card], corner: bool) -> tuple[list[int] | None, bool, str]:
    """Run positions per card, whether they turn the corner, and a problem code when none.

    Cards are read in the order written, ascending or descending (linear first, then,
    where ``corner`` allows it, turning the corner). Only when no written reading
    exists is an unordered run accepted, and then only where the value cannot depend on
    the order: without the corner (ace high or low as it fits), or with the corner
    allowed but no ace and no joker (the ace's value, 1, 5 or 10, depends on where it is
    written, seed 004).
    """
    pos = _written_positions(cards, False)
    if pos is not None:
        return pos, False, ""
    if corner:
        pos = _written_positions(cards, True)
        if pos is not None:
            return pos, True, ""
        if len(cards) > 13:
            return None, False, "meld.run-too-long"
        if any(c.rank in (0, Rank.ACE) for c in cards):
            if _any_order(cards, True) is not None:
                return None, False, "meld.run-not-in-order"
            return None, False, "meld.run-not-consecutive"
        pos = _any_order(cards, False)
        return pos, False, "" if pos is not None else "meld.run-not-consecutive"
    pos = _any_order(cards, False)
    if pos is not None:
        return pos, False, ""
    if len(cards) <= 13 and (
        _written_positions(cards, True) is not None or _any_order(cards, True) is not None
    ):
        return None, False, "meld.run-corner"
    return None, False, "meld.run-not-consecutive"


def _run_value(positions: list[int], cyclic: bool, ruleset: RuleSet) -> int:
    lo, hi = min(positions), max(positions)
    total = 0
    for p in positions:
        rank = _run_rank(p, cyclic)
        if rank == Rank.ACE:
            total += (
                ruleset.meld_ace_low
                if p == lo
                else ruleset.meld_ace_high
                if p == hi
                else ruleset.meld_ace_corner
            )
        else:
            total += _pip(rank)
    return total


def _copies_problems(naturals: Sequence[Card], ruleset: RuleSet) -> list[Problem]:
    """A card more often in one meld than the deck holds (a suitless card: its rank)."""
    counts: dict[Card, int] = {}
    for c in naturals:
        counts[c] = counts.get(c, 0) + 1
    out = []
    for c, k in counts.items():
        limit = ruleset.packs if c.suit is not None else 4 * ruleset.packs
        if k > limit:
            out.append(
                Problem(
                    "meld.card-count-exceeds-deck",
                    params={"card": str(c), "count": k, "deck": limit},
                )
            )
    return out


def check_meld(cards: Sequence[Card], ruleset: RuleSet) -> MeldResult:
    """Check whether ``cards`` form a legal set or run under ``ruleset`` and value it.

    Cards are read in the order written, ascending or descending (so a joker's place in
    a run is where it is written, and a corner run ``♠7 … ♠K ♠A ♠2 … ♠6`` has its ace in
    the middle). Unordered runs are accepted only where the order cannot change the
    value (see :func:`_run_positions`); spare jokers then extend the high end. No meld
    holds more jokers, or more copies of a card, than the deck has. Suitless cards pass
    the suit checks, since their suit is unknown.
    """
    cards = tuple(cards)
    n = len(cards)
    problems: list[Problem] = []
    naturals = [c for c in cards if c.rank]
    jokers = n - len(naturals)
    if jokers and not ruleset.jokers:
        problems.append(Problem("meld.joker-not-in-deck", params={"jokers": jokers}))
    elif jokers > ruleset.jokers:
        problems.append(
            Problem("meld.jokers-exceed-deck", params={"jokers": jokers, "deck": ruleset.jokers})
        )
    if len({c.key for c in naturals}) < len(naturals):
        problems.extend(_copies_problems(naturals, ruleset))
    if n < 3:
        problems.append(Problem("meld.too-few-cards", params={"cards": n, "min": 3}))
    if not naturals:
        problems.append(Problem("meld.no-natural-card"))
        return MeldResult(False, None, None, tuple(problems), cards)
    if jokers >= 2 and len(naturals) < 2:
        problems.append(
            Problem(
                "meld.one-natural-two-jokers", params={"naturals": len(naturals), "jokers": jokers}
            )
        )

    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals if c.suit is not None}

    if len(ranks) == 1:
        rank = naturals[0].rank
        if n > 4:
            problems.append(Problem("meld.set-too-many-cards", params={"cards": n, "max": 4}))
        seen: set = set()
        for c in naturals:
            if c.suit is not None and c.suit in seen:
                problems.append(Problem("meld.set-duplicate-suit", params={"card": str(c)}))
            seen.add(c.suit)
        unit = ruleset.meld_ace_set if rank == Rank.ACE else _pip(rank)
        stands = tuple(c if c.rank else Card(rank) for c in cards)
        legal = not problems
        return MeldResult(legal, "set", unit * n if legal else None, tuple(problems), stands)

    if len(suits) > 1:
        if len(ranks) < len(naturals):
            problems.append(Problem("meld.mixed"))
            return MeldResult(False, None, None, tuple(problems), cards)
        problems.append(
            Problem("meld.run-mixed-suits", params={"suits": sorted(s.value for s in suits)})
        )
    suit = next(iter(suits)) if len(suits) == 1 else None

    pos, cyclic, code = _run_positions(cards, ruleset.runs_turn_corner)
    if code:
        params = {"cards": n, "max": 13} if code == "meld.run-too-long" else {}
        problems.append(Problem(code, params=params))
    if pos is None or problems:
        return MeldResult(False, "run", None, tuple(problems), cards)
    stands = tuple(
        c if c.rank else Card(Rank(_run_rank(p, cyclic)), suit)
        for c, p in zip(cards, pos, strict=True)
    )
    return MeldResult(True, "run", _run_value(pos, cyclic, ruleset), (), stands)


def check_first_meld(melds: Sequence[Sequence[Card]], ruleset: RuleSet) -> FirstMeld:
    """Check a player's first meld (all melds laid in that turn) against the minimum."""
    problems: list[Problem] = []
    value = 0
    for m in melds:
        r = check_meld(m, ruleset)
        problems.extend(r.problems)
        value += r.value or 0
    if value < ruleset.first_meld_minimum:
        problems.append(
            Problem(
                "meld.first-meld-below-minimum",
                params={"value": value, "minimum": ruleset.first_meld_minimum},
            )
        )
    return FirstMeld(not problems, value, tuple(problems))


def check_joker_swap(meld: Sequence[Card], card: Card, ruleset: RuleSet) -> list[Problem]:
    """Check swapping the natural ``card`` for a joker in ``meld`` under the rule set's
    joker-swap rule (``any``; ``set-of-four``, the stricter rule quoted in seed 000;
    ``none``)."""
    if ruleset.joker_swap == "none":
        return [Problem("meld.joker-swap-forbidden")]
    r = check_meld(meld, ruleset)
    if not r.legal:
        return list(r.problems)
    natural_suits = {c.suit for c in meld if c.rank}
    for c, stands in zip(meld, r.stands_for, strict=True):
        if c.rank or stands.rank != card.rank:
            continue
        if r.kind == "set" and (card.suit is None or card.suit not in natural_suits):
            if ruleset.joker_swap == "set-of-four" and len(meld) != 4:
                return [Problem("meld.joker-swap-set-incomplete", params={"cards": len(meld)})]
            return []
        if r.kind == "run" and (stands.suit is None or card.suit in (None, stands.suit)):
            return []
    return [Problem("meld.joker-swap-wrong-card", params={"card": str(card)})]
