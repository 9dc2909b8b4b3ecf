"""A federation's ranking list (Rangliste): points per event, the window, the results that
count, the order (pure Python). docs/rules.md "Ranglisten (Verband)" states every rule.

- Event points (formula "places"): field size - place + 1; players tied on a place share
  the average of the points of the places they occupy (two tied at 3 of 10: (8 + 7) / 2 =
  7.5 each); times the event class's factor (ranking tournament 1, championship 2).
  Exact: points * UNITS are whole numbers (halves times factors in cents); `shown()`
  rounds half up to 2 decimals for display only, the order uses the exact values.
- Window: events dated after `window_start(as_of, months)` up to and including `as_of`;
  the start keeps the day of the month, clamped to the month's last day (29 Feb 2024
  minus 12 months is 28 Feb 2023). Events with fewer than `min_field` players or
  `min_series` series, and disqualified results, are in the window but do not count.
- A player's line: the best `best_n` results by points count (ties: the more recent
  first, then the event key); the rest are dropped (shown in brackets). Listed with at
  least `min_events` results that count or are dropped.
- Formula "average_per_hand" (the DDV's Rundenschnitt): every result in the window counts
  (nothing dropped); value = sum(factor * score) / sum(factor * hands), listed with at
  least `min_hands` hands (of classes with a factor above 0) and `min_events` events.
- Order: value (points or average) down, then more events counted, then the better best
  result (the highest single-event points, or per-hand average), else the rank is shared
  (1, 2, 2, 4; shared players are listed by key). Hidden players keep their rank.

Settings, their checks and the messages are in `ranking_settings` (re-exported here).
"""

from __future__ import annotations

import calendar
import math
from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from .ranking_check import Checked, EventResult, _check, _merged, check_key, check_results
from .ranking_settings import (
    AVERAGE_PER_HAND,
    CHAMPIONSHIP,
    DEFAULT_FACTORS,
    DISQUALIFIED,
    FIELD_SMALL,
    FORMULAS,
    MIN_EVENTS,
    MIN_HANDS,
    PLACES,
    RANKING_ERRORS,
    RANKING_TOURNAMENT,
    SERIES_FEW,
    UNITS,
    Explanation,
    RankingError,
    RankingSettings,
    _error,
    describe,
)

__all__ = [
    "AVERAGE_PER_HAND",
    "CHAMPIONSHIP",
    "DEFAULT_FACTORS",
    "DISQUALIFIED",
    "FIELD_SMALL",
    "FORMULAS",
    "MIN_EVENTS",
    "MIN_HANDS",
    "PLACES",
    "RANKING_ERRORS",
    "RANKING_TOURNAMENT",
    "SERIES_FEW",
    "UNITS",
    "Checked",
    "EventInfo",
    "EventResult",
    "Explanation",
    "PlayerLine",
    "Ranking",
    "RankingError",
    "RankingSettings",
    "Scored",
    "check_key",
    "check_results",
    "compute_ranking",
    "describe",
    "rerank",
    "shown",
    "window_start",
]


class Scored(NamedTuple):
    """A result with its event points (`units` = points * UNITS, exact), the number of
    players sharing its place, and `status`: "counted", "dropped" or why it does not count."""

    result: EventResult
    units: int
    tied: int
    status: str

    @property
    def points(self) -> Decimal:
        return Decimal(self.units) / UNITS

    @property
    def per_hand(self) -> Fraction | None:
        return Fraction(self.result.score, self.result.hands) if self.result.hands else None


@dataclass(frozen=True)
class PlayerLine:
    """One player's line. `value` is the points (Fraction, exact) or the average per hand
    (None: no hands); `rank` is None when not listed (`reason` says why)."""

    player: Hashable
    rank: int | None
    shared: bool
    hidden: bool
    value: Fraction | None
    best: Fraction | None
    counted: tuple[Scored, ...]
    dropped: tuple[Scored, ...]
    excluded: tuple[Scored, ...]
    hands: int
    reason: str = ""
    # the list's order: value down, more events counted, better best, then the key
    order: tuple = field(default=(), repr=False, compare=False)

    @property
    def listed(self) -> bool:
        return not self.reason

    @property
    def events_counted(self) -> int:
        return len(self.counted)

    @property
    def shown(self) -> Decimal | None:
        return None if self.value is None else shown(self.value)

    def sort_key(self) -> tuple:
        return self.order


@dataclass(frozen=True)
class EventInfo:
    """An event in the window, and why it does not count ("" when it counts)."""

    event: Hashable
    date: date
    event_class: str
    field_size: int
    series: int
    results: int
    reason: str = ""


@dataclass(frozen=True)
class Ranking:
    settings: RankingSettings
    as_of: date
    window_start: date  # events after this date count (exclusive), up to as_of (inclusive)
    lines: tuple[PlayerLine, ...]  # listed, in order
    unlisted: tuple[PlayerLine, ...]  # below the minimum ("nicht gelistet"), same order
    events: tuple[EventInfo, ...]  # every event in the window, by date then key

    @property
    def empty(self) -> bool:
        """No event in the window."""
        return not self.events

    def line(self, player: Hashable) -> PlayerLine | None:
        if not hasattr(self, "_by_player"):
            lookup = {ln.player: ln for ln in (*self.lines, *self.unlisted)}
            object.__setattr__(self, "_by_player", lookup)
        return self._by_player.get(player)


def shown(value: Fraction | Decimal | int) -> Decimal:
    """`value` rounded half up (away from zero) to 2 decimals, exactly: for display only."""
    hundredths = Fraction(value) * 100
    whole = math.floor(abs(hundredths) + Fraction(1, 2))
    return Decimal(whole if hundredths >= 0 else -whole).scaleb(-2)


def window_start(as_of: date, months: int) -> date:
    """`months` months before `as_of`, the day clamped to the month's last day."""
    year, month0 = divmod(as_of.year * 12 + as_of.month - 1 - months, 12)
    if year < 1:
        return date.min
    return date(year, month0 + 1, min(as_of.day, calendar.monthrange(year, month0 + 1)[1]))


def _key_order(key) -> tuple:
    """A total order over keys of mixed types: numbers first, then by text."""
    if isinstance(key, int | float | Decimal | Fraction) and not isinstance(key, bool):
        return (0, key, "")
    return (1, 0, str(key))


def compute_ranking(
    results: Iterable[EventResult],
    settings: RankingSettings,
    as_of: date,
    *,
    hidden: Collection[Hashable] = (),
    checked: Iterable[Checked] = (),
    previous: Ranking | None = None,
    changed: Collection[Hashable] = (),
) -> Ranking:
    """The ranking list on `as_of` from every result given (module docstring). `hidden`:
    players hidden from public lists; they keep their rank (the page prints "nicht
    öffentlich"). `checked`: more results, checked earlier (`check_results`). Raises
    RankingError for bad results, also outside the window.

    `previous`: a list computed with the same settings and date from results that differ
    from these only in events of the players in `changed` (added, removed or other
    results; `hidden` other for them only): the other players' lines are taken from it
    (their events and so their lines are the same), ranked again with the new ones."""
    if isinstance(as_of, datetime):
        as_of = as_of.date()
    if not isinstance(as_of, date):
        raise _error("ranking.as-of")
    start = window_start(as_of, settings.window_months)
    factors = {k: int(v * 100) for k, v in settings.class_factors.items()}
    events = _check(results, settings)
    if checked:
        events = _merged(events, checked, settings)
    infos = []
    for ev, ((day, klass, size, series), _places, rows, *_) in events.items():
        if start < day <= as_of:
            reason = (
                FIELD_SMALL
                if size < settings.min_field
                else SERIES_FEW
                if series < settings.min_series
                else ""
            )
            infos.append(EventInfo(ev, day, klass, size, series, len(rows), reason))
    # recency: 0 is the newest event (then by key), so equal points keep the newer result
    infos.sort(key=lambda i: (-i.date.toordinal(), _key_order(i.event)))
    if previous is not None and (previous.settings != settings or previous.as_of != as_of):
        previous = None
    if previous is not None:
        changed = frozenset(changed)
        kept = [ln for ln in (*previous.lines, *previous.unlisted) if ln.player not in changed]
    else:
        changed, kept = None, []
    per_player: dict = {}
    flagged = set()  # the players with a result that does not count
    for recency, info in enumerate(infos):
        entry = events[info.event]
        places, rows, reason = entry[1], entry[2], info.reason
        if changed is not None:
            rows = [r for r in rows if r.player in changed]
            if not rows:
                continue
        factor, size = factors[info.event_class], info.field_size
        for r in rows:
            status = reason or (DISQUALIFIED if r.disqualified else "")
            if status:
                flagged.add(r.player)
            # twice the average of the points of places p .. p + tied - 1, times the factor
            # (per result: after one approval only the changed players' few of each event)
            tied = places[r.place]
            units = (2 * (size - r.place + 1) - (tied - 1)) * factor
            item = (-units, recency, r, tied, status)
            got = per_player.get(r.player)
            if got is None:
                per_player[r.player] = [item]
            else:
                got.append(item)
    hidden = frozenset(hidden)
    fresh = [
        _line(p, items, settings, factors, p in hidden, p in flagged)
        for p, items in per_player.items()
    ]
    lines = fresh + kept
    lines.sort(key=PlayerLine.sort_key)
    listed = _ranked([ln for ln in lines if ln.listed], fresh={id(ln) for ln in fresh})
    infos.sort(key=lambda i: (i.date, _key_order(i.event)))
    unlisted = tuple(ln for ln in lines if not ln.listed)
    return Ranking(settings, as_of, start, listed, unlisted, tuple(infos))


# A Scored straight from its four values: the NamedTuple's own __new__ is a Python call,
# a third of the whole computation for 200,000 results.
_scored = tuple.__new__


def _line(player, items, settings, factors, hidden, flagged=True) -> PlayerLine:
    """items: (-units, recency, result, tied, status) of the player's results in the window;
    `flagged`: some have a status (do not count). List comprehensions, not generators: 200,000
    results, a third less time."""
    if flagged:
        excluded = tuple([_scored(Scored, (r, -u, t, s)) for u, _, r, t, s in items if s])
        eligible = [item for item in items if not item[4]]
    else:
        excluded, eligible = (), items
    if settings.formula == PLACES:
        eligible.sort()  # most points first, then the newer (no two share event and player)
        n = settings.best_n
        head, tail = eligible[:n], eligible[n:]
        counted = tuple([_scored(Scored, (r, -u, t, "counted")) for u, _, r, t, _ in head])
        dropped = tuple([_scored(Scored, (r, -u, t, "dropped")) for u, _, r, t, _ in tail])
        total = -sum([item[0] for item in head])
        top = -head[0][0] if head else -1
        value, best = Fraction(total, UNITS), (Fraction(top, UNITS) if counted else None)
        hands = sum([item[2].hands for item in eligible])
        reason = MIN_EVENTS if len(eligible) < settings.min_events else ""
        order = (-total, -len(counted), -top, _key_order(player))
    else:
        eligible.sort(key=lambda item: item[1])  # newest first
        counted = tuple(_scored(Scored, (r, -u, t, "counted")) for u, _, r, t, _ in eligible)
        dropped = ()
        weighted = [(factors[s.result.event_class], s.result) for s in counted]
        hands = sum(r.hands for f, r in weighted if f)
        den = sum(f * r.hands for f, r in weighted)
        value = Fraction(sum(f * r.score for f, r in weighted), den) if den else None
        best = _best_per_hand(r for _, r in weighted)
        reason = (
            MIN_EVENTS
            if len(eligible) < settings.min_events
            else MIN_HANDS
            if hands < settings.min_hands
            else ""
        )
        lowest = Fraction(-(10**18))  # no value, no best: below every real one
        order = (
            -(lowest if value is None else value),
            -len(counted),
            -(lowest if best is None else best),
            _key_order(player),
        )
    return PlayerLine(
        player, None, False, hidden, value, best, counted, dropped, excluded, hands, reason, order
    )


def _best_per_hand(results: Iterable[EventResult]) -> Fraction | None:
    """The highest score per hand of one event, compared crosswise (no Fraction for each)."""
    top_score, top_hands = 0, 0
    for r in results:
        if r.hands and (not top_hands or r.score * top_hands > top_score * r.hands):
            top_score, top_hands = r.score, r.hands
    return Fraction(top_score, top_hands) if top_hands else None


def _ranked(lines: list[PlayerLine], *, fresh: Collection[int] = ()) -> tuple[PlayerLine, ...]:
    """Ranks over lines in order: equal value, events counted and best share a rank
    (1, 2, 2, 4). `fresh`: the ids of lines made for this list, given their rank in place
    (no copy of 10,000 frozen lines); others are copied when their rank changes."""
    out = []
    keys = [ln.order[:3] for ln in lines]
    for i, ln in enumerate(lines):
        rank = out[-1].rank if i and keys[i] == keys[i - 1] else i + 1
        shared = (i > 0 and keys[i] == keys[i - 1]) or (
            i + 1 < len(lines) and keys[i] == keys[i + 1]
        )
        if id(ln) in fresh:
            object.__setattr__(ln, "rank", rank)
            object.__setattr__(ln, "shared", shared)
            out.append(ln)
        elif ln.rank == rank and ln.shared == shared:
            out.append(ln)  # frozen: the same line in both lists
        else:  # a copy (as dataclasses.replace, a fifth of its time)
            copy = object.__new__(PlayerLine)
            copy.__dict__.update(ln.__dict__, rank=rank, shared=shared)
            out.append(copy)
    return tuple(out)


def rerank(lines: Iterable[PlayerLine], players: Collection[Hashable]) -> tuple[PlayerLine, ...]:
    """The listed lines of `players` only, ranked among themselves (a regional list)."""
    keep = [ln for ln in lines if ln.player in players and ln.listed]
    keep.sort(key=PlayerLine.sort_key)
    return _ranked(keep)
