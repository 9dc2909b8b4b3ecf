"""What a score sheet says about a hand, and its plausibility checks.

Seats are 0-based indices in clockwise order; in problems, ``seat`` is that index and
``hand`` the 1-based hand number on the sheet (None for a hand checked on its own).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, CardParseError, format_cards, parse_cards
from .problems import Problem
from .ruleset import RuleSet
from .seats import SeatResult
from .table_cards import CARD_KEY, any_over_deck, deck_problems, play_problems


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand of a score sheet: dealer, who went out (None: nobody), hand Rommé,
    and one :class:`SeatResult` per seat in clockwise order."""

    dealer: int
    winner: int | None
    seats: tuple[SeatResult, ...]
    hand_romme: bool = False

    @property
    def is_hand_romme(self) -> bool:
        """Whether the winner went out with a hand Rommé (marked for the hand or seat)."""
        if self.hand_romme:
            return self.winner is not None
        w = self.winner
        return w is not None and 0 <= w < len(self.seats) and self.seats[w].hand_romme

    @classmethod
    def from_points(
        cls,
        dealer: int,
        winner: int | None,
        points: Sequence[int | None],
        melded: Sequence[int | None] | None = None,
        hand_romme: bool = False,
    ) -> HandResult:
        """Build a hand from hand points per seat (the winner's entry is 0 or None)."""
        melded = melded if melded is not None else [None] * len(points)
        seats = tuple(
            SeatResult(hand_points=0 if i == winner and p is None else p, melded=m)
            for i, (p, m) in enumerate(zip(points, melded, strict=True))
        )
        return cls(dealer, winner, seats, hand_romme)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        """Build a hand from plain data (form input, JSON)::

            {"dealer": 0, "winner": 2, "hand_romme": False,
             "seats": [{"hand_points": 17, "melded": 45}, {"cards": "Jo A K 7"},
                       {"hand_points": 0}, 23]}

        A seat may be a dict, an int (hand points) or None. ``cards`` may be a string
        in hand-cell notation (suitless ranks allowed) or a list of cards/tokens. A
        bad card raises :class:`CardParseError` with ``seat`` set.
        """
        seats = []
        for i, s in enumerate(data["seats"]):
            if s is None or isinstance(s, int):
                seats.append(SeatResult(hand_points=s))
                continue
            try:
                cards = s.get("cards")
                cards = None if cards is None else _to_cards(cards)
                melds = s.get("melds")
                if melds is not None:
                    melds = tuple(_to_cards(m) for m in melds)
                laid = s.get("laid_off")
                laid = None if laid is None else _to_cards(laid)
            except CardParseError as err:
                err.seat = i
                err.problem = Problem(err.code, seat=i, params=err.problem.params)
                raise
            seats.append(
                SeatResult(
                    hand_points=s.get("hand_points"),
                    cards=cards,
                    melded=s.get("melded"),
                    hand_romme=bool(s.get("hand_romme", False)),
                    melds=melds,
                    laid_off=laid,
                )
            )
        return cls(
            dealer=data["dealer"],
            winner=data.get("winner"),
            seats=tuple(seats),
            hand_romme=bool(data.get("hand_romme", False)),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data that :meth:`from_dict` reads back."""
        return {
            "dealer": self.dealer,
            "winner": self.winner,
            "hand_romme": self.hand_romme,
            "seats": [
                {
                    "hand_points": s.hand_points,
                    "cards": None if s.cards is None else format_cards(s.cards, " "),
                    "melded": s.melded,
                    "hand_romme": s.hand_romme,
                    **(
                        {}
                        if s.melds is None
                        else {"melds": [format_cards(m, " ") for m in s.melds]}
                    ),
                    **({} if s.laid_off is None else {"laid_off": format_cards(s.laid_off, " ")}),
                }
                for s in self.seats
            ],
        }


def _to_cards(value: Any) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(parse_cards(value, allow_suitless=True))
    out = []
    for c in value:
        out.extend([c] if isinstance(c, Card) else parse_cards(c, allow_suitless=True))
    return tuple(out)


def _limits(ruleset: RuleSet, table_size: int) -> tuple[int, int, int, int, int]:
    memo = ruleset.memo
    key = ("limits", table_size)
    lim = memo.get(key)
    if lim is None:
        lim = (
            ruleset.min_hand_points,
            ruleset.max_hand_points(table_size),
            ruleset.max_hand_cards(table_size),
            ruleset.max_melded_value,
            ruleset.first_meld_minimum,
        )
        memo[key] = lim
    return lim


def _max_total(ruleset: RuleSet, table_size: int, losers: int) -> int:
    key = ("total", table_size, losers)
    v = ruleset.memo.get(key)
    if v is None:
        v = ruleset.memo[key] = ruleset.max_total_points(table_size, losers)
    return v


def _plain_limits(ruleset: RuleSet, table_size: int) -> tuple[Any, ...] | None:
    """What a hand written as points must keep to at this table size to be plausible,
    or None where only the full check can tell (table size out of range, cards needed).
    Memoised under the table size itself (an int key, unlike the other memo entries).
    """
    if type(table_size) is not int:
        return None  # not memoised: 4.0 would share the key of 4
    lim = None
    if ruleset.players_min <= table_size <= ruleset.players_max and not ruleset.needs_cards:
        min_pts, max_pts, _cards, max_melded, first_min = _limits(ruleset, table_size)
        # totals[losers]: most hand points that many losers hold together (a dict, so
        # that a table size of 4.0 finding the entry of 4 reads it like the full check)
        totals = {k: _max_total(ruleset, table_size, k) for k in range(table_size + 1)}
        lim = (
            min_pts,
            max_pts,
            ruleset.needs_melded,
            max_melded,
            first_min,
            ruleset.stock_may_run_out,
            totals,
        )
    ruleset.memo[table_size] = lim
    return lim


def check_hand(
    result: HandResult, ruleset: RuleSet, table_size: int, *, hand: int | None = None
) -> list[Problem]:
    """Every problem with one hand as written on a sheet (empty list: plausible).

    ``hand`` is the 1-based hand number to put into the problems.
    """
    # Fast path for the common hand written as points (no cards, melds or lay-offs):
    # each test is the negation of one of _check_hand_full's problems, so passing them
    # all means "no problem"; anything else goes to the full check. Inline on purpose:
    # a function call costs as much as a seat here.
    try:
        lim = ruleset.memo[table_size]
    except KeyError:
        lim = _plain_limits(ruleset, table_size)
    if lim is None:
        return _not_as_points(result, ruleset, table_size, hand)
    min_pts, max_pts, needs_melded, max_melded, first_min, no_winner_ok, totals = lim
    seats = result.seats
    winner = result.winner
    if (
        len(seats) != table_size
        or not 0 <= result.dealer < table_size
        or (
            (not no_winner_ok or result.hand_romme)
            if winner is None
            else type(winner) is not int or not 0 <= winner < table_size
        )
    ):
        return _not_as_points(result, ruleset, table_size, hand)
    # Every seat that is a plausible loser counts to ``total``; the one seat that is not
    # must be the winner (by identity: a seat object listed twice fails twice).
    total = 0
    odd = None
    for s in seats:
        p = s.hand_points
        m = s.melded
        if (
            p is not None
            and min_pts <= p <= max_pts  # min_pts >= 1: a loser holds a card
            and not s.hand_romme
            and s.cards is None
            and s.melds is None
            and s.laid_off is None
            and (
                not needs_melded
                if m is None
                else 0 <= m <= max_melded and not 0 < m < first_min  # 0: never melded
            )
        ):
            total += p
        elif odd is None:
            odd = s
        else:
            return _not_as_points(result, ruleset, table_size, hand)
    if winner is None:
        if odd is None and (table_size < 2 or total <= totals[table_size]):
            return []
        return _not_as_points(result, ruleset, table_size, hand)
    w = seats[winner]
    m = w.melded
    if (
        odd is w
        and not w.hand_points
        and w.cards is None
        and w.melds is None
        and w.laid_off is None
        and (not needs_melded if m is None else 0 < m <= max_melded and m >= first_min)
        and (table_size < 3 or total <= totals[table_size - 1])
    ):
        return []
    return _not_as_points(result, ruleset, table_size, hand)


def _not_as_points(
    result: HandResult, ruleset: RuleSet, table_size: int, hand: int | None
) -> list[Problem]:
    """A hand the points fast path cannot pass: the cards fast path, else the full check."""
    if _cards_plausible(result, ruleset, table_size):
        return []
    return _check_hand_full(result, ruleset, table_size, hand)


def _cards_plausible(result: HandResult, ruleset: RuleSet, table_size: int) -> bool:
    """Fast path for a hand written as cards (losers' cards, no melds or lay-offs): True
    only where _check_hand_full would find no problem; False sends it to the full check."""
    if type(table_size) is not int or not (
        ruleset.players_min <= table_size <= ruleset.players_max
    ):
        return False
    seats = result.seats
    winner = result.winner
    if (
        len(seats) != table_size
        or not 0 <= result.dealer < table_size
        or type(winner) is not int
        or not 0 <= winner < table_size
    ):
        return False
    min_pts, max_pts, max_cards, max_melded, first_min = _limits(ruleset, table_size)
    needs_melded = ruleset.needs_melded
    values = ruleset.hand_values_by_key
    total = 0
    held: list[int] = []
    for i, s in enumerate(seats):
        if s.melds is not None or s.laid_off is not None:
            return False
        m = s.melded
        if i == winner:
            if s.hand_points or s.cards:
                return False
            if needs_melded if m is None else m == 0 or not first_min <= m <= max_melded:
                return False
            continue
        cards = s.cards
        if cards is None or s.hand_romme or len(cards) > max_cards:
            return False
        keys = list(map(CARD_KEY, cards))
        p = sum(map(values.__getitem__, keys))
        if (s.hand_points is not None and s.hand_points != p) or not p or p < min_pts:
            return False
        if p > max_pts:
            return False
        if needs_melded if m is None else not 0 <= m <= max_melded or 0 < m < first_min:
            return False
        total += p
        held += keys
    if table_size > 2 and total > _max_total(ruleset, table_size, table_size - 1):
        return False
    return not any_over_deck(held, ruleset)


def _check_hand_full(
    result: HandResult, ruleset: RuleSet, table_size: int, hand: int | None
) -> list[Problem]:
    problems: list[Problem] = []
    seats = result.seats
    n = len(seats)
    if not ruleset.players_min <= table_size <= ruleset.players_max:
        problems.extend(
            Problem(p.code, hand, None, p.params) for p in ruleset.table_size_problems(table_size)
        )
    if n != table_size:
        problems.append(
            Problem("hand.seat-count", hand, None, {"seats": n, "table_size": table_size})
        )
    if not 0 <= result.dealer < table_size:
        problems.append(
            Problem(
                "hand.dealer-out-of-range",
                hand,
                None,
                {"dealer": result.dealer, "table_size": table_size},
            )
        )
    winner = result.winner
    if winner is None:
        if not ruleset.stock_may_run_out:
            problems.append(Problem("hand.no-winner", hand))
        if result.hand_romme:
            problems.append(Problem("hand.hand-romme-not-winner", hand))
    elif not 0 <= winner < n:
        problems.append(
            Problem(
                "hand.winner-out-of-range", hand, None, {"winner": winner, "table_size": table_size}
            )
        )
        winner = None

    min_pts, max_pts, max_cards, max_melded, first_min = _limits(ruleset, table_size)
    needs_melded = ruleset.needs_melded
    needs_cards = ruleset.needs_cards
    values = ruleset.hand_values
    total = 0
    losers = 0
    any_cards = False
    any_play = False
    for i, s in enumerate(seats):
        pts = s.hand_points
        cards = s.cards
        if s.melds is not None or s.laid_off is not None:
            any_play = True
        if cards is not None:
            any_cards = True
            cpts = sum(values[c.rank] for c in cards)
            if pts is not None and pts != cpts:
                problems.append(
                    Problem(
                        "hand.points-cards-mismatch",
                        hand,
                        i,
                        {"hand_points": pts, "cards_points": cpts},
                    )
                )
            pts = cpts
        if s.hand_romme and i != winner:
            problems.append(Problem("hand.hand-romme-not-winner", hand, i))
        if i == winner:
            if pts or cards:
                problems.append(Problem("hand.winner-holds-cards", hand, i, {"hand_points": pts}))
        else:
            if pts is None:
                problems.append(Problem("hand.loser-points-missing", hand, i))
            else:
                if pts == 0:
                    if winner is not None:
                        problems.append(
                            Problem("hand.several-winners", hand, i, {"winner": winner})
                        )
                    else:
                        problems.append(Problem("hand.winner-not-marked", hand, i))
                elif pts < min_pts:
                    problems.append(
                        Problem(
                            "hand.loser-below-minimum",
                            hand,
                            i,
                            {"hand_points": pts, "minimum": min_pts},
                        )
                    )
                elif pts > max_pts:
                    problems.append(
                        Problem(
                            "hand.loser-above-maximum",
                            hand,
                            i,
                            {"hand_points": pts, "maximum": max_pts},
                        )
                    )
                total += pts
                losers += 1
            if needs_cards and cards is None:
                problems.append(Problem("hand.loser-cards-needed", hand, i))
            if cards is not None and len(cards) > max_cards:
                problems.append(
                    Problem(
                        "hand.too-many-cards", hand, i, {"cards": len(cards), "maximum": max_cards}
                    )
                )
        m = s.melded
        if m is None:
            if needs_melded:
                problems.append(Problem("hand.melded-value-missing", hand, i))
        elif m < 0:
            problems.append(Problem("hand.melded-negative", hand, i, {"melded": m}))
        elif m > max_melded:
            problems.append(
                Problem("hand.melded-above-maximum", hand, i, {"melded": m, "maximum": max_melded})
            )
        elif m == 0:
            if i == winner:
                problems.append(Problem("hand.winner-melded-nothing", hand, i))
        elif m < first_min:
            problems.append(
                Problem(
                    "hand.melded-below-first-meld", hand, i, {"melded": m, "minimum": first_min}
                )
            )
    if losers > 1 and total > _max_total(ruleset, table_size, losers):
        problems.append(
            Problem(
                "hand.total-above-maximum",
                hand,
                None,
                {"total": total, "maximum": _max_total(ruleset, table_size, losers)},
            )
        )
    if any_cards or any_play:
        problems.extend(deck_problems(seats, ruleset, hand))
    if any_play:
        problems.extend(play_problems(seats, ruleset, hand, winner, result.is_hand_romme))
    return problems
