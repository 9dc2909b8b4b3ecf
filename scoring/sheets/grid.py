"""A score sheet's grid: read it (`normalise_grid`), check it with the rules module
(`check_grid`), compare two of them cell by cell (`diff_grids`). Nothing here touches the
database; the save path (`scoring.sheets.services`) and the archive validate through it.

The grid is the raw content of a sheet as stored in `SheetVersion.grid`::

    {"first_dealer": 0,
     "hands": [{"dealer": 0, "winner": 2, "hand_romme": false,
                "seats": [{"hand_points": 17, "cards": null, "melded": null},
                          {"hand_points": null, "cards": "Jo A K 7", "melded": null},
                          {"hand_points": 0, "cards": null, "melded": null}, ...]}, ...]}

Seats are 0-based in clockwise order, hands in sheet order (hand number = index + 1).
`dealer` may be left out: it is then the first dealer plus the hand's index (clockwise).
Every rule is checked by `rules`; this module only reads the grid into
`HandResult` objects and asks the engine (`check_series`, `score_hand`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from rules import (
    CardParseError,
    HandResult,
    Problem,
    ScoringError,
    SeatResult,
    check_series,
    hand_points,
    parse_hand_cards,
    score_hand,
)

MAX_HAND_POINTS_STORED = 32767  # PositiveSmallIntegerField
MAX_CARDS_TEXT = 200  # HandSeat.cards
MAX_HANDS = 500


class GridError(ValueError):
    """The grid is not shaped as described above (not a rule problem: a broken request)."""


# ----- reading a grid ---------------------------------------------------------------------


def empty_grid(first_dealer: int = 0) -> dict[str, Any]:
    return {"first_dealer": first_dealer, "hands": []}


def _int_or_none(value, what: str, *, minimum=None, maximum=None):
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise GridError(f"{what} must be a whole number or null")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise GridError(f"{what} out of range")
    return value


def normalise_grid(grid: Any, table_size: int) -> dict[str, Any]:
    """A copy of the grid with every key present and types checked (raises GridError).

    Dealers left out are filled in clockwise from the first dealer; cards are kept as
    written (they are read, and refused if unreadable, by :func:`hands_from_grid`).
    """
    if not isinstance(grid, dict) or not isinstance(grid.get("hands", []), list):
        raise GridError("the grid must be an object with a list of hands")
    first = _int_or_none(grid.get("first_dealer", 0), "first_dealer", minimum=0)
    if first is None or first >= max(table_size, 1):
        raise GridError("first_dealer is not a seat")
    hands_in = grid.get("hands", [])
    if len(hands_in) > MAX_HANDS:
        raise GridError("too many hands")
    hands = []
    for index, hand in enumerate(hands_in):
        if not isinstance(hand, dict) or not isinstance(hand.get("seats"), list):
            raise GridError(f"hand {index + 1} must be an object with a list of seats")
        dealer = hand.get("dealer")
        dealer = (first + index) % table_size if dealer is None else dealer
        seats = []
        for seat in hand["seats"]:
            if seat is None:
                seat = {}
            if not isinstance(seat, dict):
                raise GridError(f"hand {index + 1}: a seat must be an object")
            cards = seat.get("cards")
            if cards is not None and not isinstance(cards, str):
                raise GridError(f"hand {index + 1}: cards must be text")
            if cards is not None and len(cards) > MAX_CARDS_TEXT:
                raise GridError(f"hand {index + 1}: cards too long")
            seats.append(
                {
                    "hand_points": _int_or_none(
                        seat.get("hand_points"),
                        "hand_points",
                        minimum=0,
                        maximum=MAX_HAND_POINTS_STORED,
                    ),
                    "cards": (cards.strip() or None) if cards is not None else None,
                    "melded": _int_or_none(
                        seat.get("melded"), "melded", minimum=-(2**31), maximum=2**31 - 1
                    ),
                }
            )
        hands.append(
            {
                "dealer": _int_or_none(dealer, "dealer", minimum=0, maximum=5),
                "winner": _int_or_none(hand.get("winner"), "winner", minimum=0, maximum=5),
                "hand_romme": bool(hand.get("hand_romme", False)),
                "seats": seats,
            }
        )
    return {"first_dealer": first, "hands": hands}


def hand_is_blank(hand: dict[str, Any]) -> bool:
    """Nothing written in this row (it is not a hand yet)."""
    return (
        hand.get("winner") is None
        and not hand.get("hand_romme")
        and all(
            s.get("hand_points") is None and not s.get("cards") and s.get("melded") is None
            for s in hand["seats"]
        )
    )


def hands_from_grid(grid: dict[str, Any]) -> tuple[list[HandResult], list[Problem]]:
    """HandResults of a normalised grid, and the card-notation problems found reading it.

    A seat whose cards cannot be read is taken as empty (its problem says why).
    """
    hands, problems = [], []
    for number, hand in enumerate(grid["hands"], start=1):
        seats = []
        for index, seat in enumerate(hand["seats"]):
            cards = None
            if seat["cards"]:
                try:
                    cards = tuple(parse_hand_cards(seat["cards"]))
                except CardParseError as err:
                    problems.append(Problem(err.code, number, index, err.problem.params))
            seats.append(
                SeatResult(hand_points=seat["hand_points"], cards=cards, melded=seat["melded"])
            )
        hands.append(HandResult(hand["dealer"], hand["winner"], tuple(seats), hand["hand_romme"]))
    return hands, problems


@dataclass
class GridCheck:
    """What the rules engine says about a grid, as the entry page shows it."""

    grid: dict[str, Any]
    hands: list[HandResult]
    problems: list[Problem]
    malformed: list[Problem]  # cards that cannot be read: a save refuses these
    scores: list[tuple[int, ...] | None]  # points per seat per hand, None: not scored
    running: list[list[int] | None]  # running totals after each scored hand
    totals: list[int]
    readings: dict[tuple[int, int], str]  # (hand, seat) -> "Jo A K 7 = 58"
    ready: bool  # passes the full check (a submit would be accepted)

    @property
    def valid_hands(self) -> list[int]:
        """1-based numbers of hands that are complete and break no rule."""
        return [n for n, s in enumerate(self.scores, start=1) if s is not None]


def check_grid(
    grid: dict[str, Any],
    *,
    ruleset,
    table_size: int,
    planned_rounds: int | None,
    partial: bool = True,
) -> GridCheck:
    """Check a normalised grid with the rules engine and score every valid hand.

    Trailing blank rows are not hands. With ``partial`` (drafts, checks as you type)
    incomplete rounds are fine; a hand is scored when it is complete and breaks no rule.
    """
    hands_data = list(grid["hands"])
    while hands_data and hand_is_blank(hands_data[-1]):
        hands_data.pop()
    grid = {"first_dealer": grid["first_dealer"], "hands": hands_data}
    hands, malformed = hands_from_grid(grid)
    unreadable = {(p.hand, p.seat) for p in malformed}
    problems = [
        p
        for p in check_series(hands, ruleset, table_size, planned_rounds, partial=partial)
        # a seat with unreadable cards has its own problem; "missing" would repeat it
        if not (p.code == "hand.loser-points-missing" and (p.hand, p.seat) in unreadable)
    ]
    problems = malformed + problems
    bad_hands = {p.hand for p in problems if p.hand is not None}
    scores: list[tuple[int, ...] | None] = []
    running: list[list[int] | None] = []
    totals = [0] * table_size
    readings: dict[tuple[int, int], str] = {}
    for number, (data, hand) in enumerate(zip(hands_data, hands, strict=True), start=1):
        for index, seat in enumerate(hand.seats):
            if seat.cards is not None:
                text = " ".join(str(c) for c in seat.cards)
                readings[(number, index)] = f"{text} = {hand_points(seat.cards, ruleset)}"
        score = None
        if number not in bad_hands and not hand_is_blank(data):
            try:
                score = score_hand(hand, ruleset, table_size)
            except ScoringError:
                score = None
        scores.append(score)
        if score is None:
            running.append(None)
        else:
            totals = [t + s for t, s in zip(totals, score, strict=True)]
            running.append(list(totals))
    if partial:
        ready = not problems and not check_series(
            hands, ruleset, table_size, planned_rounds, partial=False
        )
    else:
        ready = not problems
    return GridCheck(grid, hands, problems, malformed, scores, running, totals, readings, ready)


# ----- comparing grids ---------------------------------------------------------------------


def cell_text(seat: dict[str, Any] | None) -> str:
    """A seat's entry as typed: the cards, else the hand points, else empty."""
    if not seat:
        return ""
    if seat.get("cards"):
        return seat["cards"]
    return "" if seat.get("hand_points") is None else str(seat["hand_points"])


def _melded_text(seat: dict[str, Any] | None) -> str:
    return "" if not seat or seat.get("melded") is None else str(seat["melded"])


@dataclass(frozen=True)
class CellChange:
    """One cell that differs between two grids. ``seat`` is 0-based (None: the row)."""

    hand: int | None
    seat: int | None
    field: str  # "entry", "melded", "hand_romme", "first_dealer"
    old: str
    new: str

    @property
    def key(self) -> str:
        return f"{self.hand}:{self.seat}:{self.field}"


def _cells(grid: dict[str, Any] | None, effective_ruleset=None) -> dict[tuple, str]:
    out: dict[tuple, str] = {}
    if not grid:
        return out
    out[(None, None, "first_dealer")] = str(grid.get("first_dealer", 0))
    hands = list(grid.get("hands", []))
    while hands and hand_is_blank(hands[-1]):
        hands.pop()
    for number, hand in enumerate(hands, start=1):
        out[(number, None, "hand_romme")] = "1" if hand.get("hand_romme") else ""
        for index, seat in enumerate(hand.get("seats", [])):
            text = cell_text(seat)
            if effective_ruleset is not None and seat and seat.get("cards"):
                # compare what the cards are worth, not how they were written
                with contextlib.suppress(CardParseError):
                    text = str(hand_points(parse_hand_cards(seat["cards"]), effective_ruleset))
            out[(number, index, "entry")] = text
            out[(number, index, "melded")] = _melded_text(seat)
    return out


def _order(key):
    hand, seat, what = key
    return (hand or 0, -1 if seat is None else seat, what)


def diff_grids(old: dict | None, new: dict | None, *, ruleset=None) -> list[CellChange]:
    """Cells that differ from ``old`` to ``new``, in sheet order.

    With ``ruleset``, cards count by their hand points (``Jo A K 7`` equals ``58``): the
    comparison of a blind re-entry with the entry.
    """
    a, b = _cells(old, ruleset), _cells(new, ruleset)
    if old is None or new is None:
        # A missing grid compares as empty; its first dealer is not a change.
        a.pop((None, None, "first_dealer"), None)
        b.pop((None, None, "first_dealer"), None)
    changes = []
    for key in sorted(set(a) | set(b), key=_order):
        before, after = a.get(key, ""), b.get(key, "")
        if before != after:
            changes.append(CellChange(key[0], key[1], key[2], before, after))
    return changes
