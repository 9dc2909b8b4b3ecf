"""Standings: ranks, tie-breaks with explanations, playoffs, pairs and teams, season rankings.

Pure Python on purpose (no Django import): the Django layer aggregates stored points with
SQL and hands plain rows to :func:`rank`, :func:`combine` and :func:`season_ranking`. The
rules are described in ``docs/standings.md``.

Conventions:

* A *profile* says whether a higher score is better (``higher_is_better``). It applies to
  the score metrics (total, last series, best series); counting metrics have a fixed
  direction (more hands won is better, fewer hand points is better, a lower lot is better).
* A *chain* is a tuple of metric keys from :data:`METRICS`. ``"total"`` always decides
  first (it is prepended when missing); ``"lots"``, when present, must be last.
* Rows come best first. ``Row.reason`` says why a row stands above the next one: the first
  metric that separates them with both values, ``"playoff"`` when a playoff decided, or
  ``"shared"`` when the two are equal on the whole chain (then they share the rank).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import zip_longest
from typing import Literal

from rules.standings.metrics import (
    DEFAULT_CHAIN,
    METRICS,
    MINIMUM_SERIES,
    PLAYOFF,
    SHARED,
    Entry,
    Key,
    Number,
    normalize_chain,
)


@dataclass(frozen=True)
class Reason:
    """Why a row stands above the next one: ``metric`` with this row's and the next row's
    value. ``metric`` is a key of :data:`METRICS`, ``"playoff"`` (values are the playoff
    places, ``None`` for an entry without one), ``"shared"`` (equal on the whole chain, same
    rank; values are the totals) or, in season rankings, ``"minimum_series"`` (values are
    the numbers of series played)."""

    metric: str
    this: Number | None
    next: Number | None


@dataclass(frozen=True)
class Row:
    """One line of a standing. ``values`` maps each chain metric to this entry's value (and
    ``"playoff"`` to its playoff place when it has one); ``reason`` compares with the next
    row and is ``None`` on the last row."""

    rank: int
    entry: Entry
    values: dict[str, Number]
    reason: Reason | None

    @property
    def key(self) -> Key:
        return self.entry.key

    @property
    def provisional(self) -> bool:
        return self.entry.provisional


# --------------------------------------------------------------------------- metrics


_DIGITS = re.compile(r"(\d+)")


def key_order(key: Key) -> tuple:
    """Canonical order of keys: ints numerically, then strings naturally ("pair:3" before
    "pair:10"); used for lots and playoff seats so neither depends on input order."""
    if isinstance(key, int) and not isinstance(key, bool):
        return (0, key, (), "")
    text = str(key)
    parts = _DIGITS.split(text)
    natural = tuple(int(p) if i % 2 else p for i, p in enumerate(parts))
    return (1, 0, natural, text)


def lots_order(keys: Iterable[Key], seed: int) -> dict[Key, int]:
    """Lot numbers (1 = best) for ``keys``: ``random.Random(seed).shuffle`` of the keys in
    :func:`key_order`. The same seed and the same keys give the same lots in any input
    order, so a stored seed reproduces (and audits) every lot."""
    ordered = sorted(set(keys), key=key_order)
    random.Random(seed).shuffle(ordered)
    return {k: i for i, k in enumerate(ordered, start=1)}


def _check_unique(keys: Sequence[Key]) -> None:
    if len(set(keys)) != len(keys):
        seen: set[Key] = set()
        dupes = [k for k in keys if k in seen or seen.add(k)]
        raise ValueError(f"duplicate keys: {dupes!r}")


# --------------------------------------------------------------------------- ranking


def rank(
    entries: Iterable[Entry],
    chain: Sequence[str] = DEFAULT_CHAIN,
    *,
    lots_seed: int | None = None,
    higher_is_better: bool = True,
) -> list[Row]:
    """Rank ``entries`` by ``chain``, best first, with shared ranks (1, 2, 2, 4).

    Order: the chain metrics except lots, then ``playoff_place`` (set places before unset,
    lower first), then lots. Rows equal on all of these share a rank and their reason is
    ``"shared"``; with ``"lots"`` in the chain every rank is distinct. ``ValueError`` when
    the chain has ``"lots"`` and ``lots_seed`` is ``None``, for an invalid chain, or for
    duplicate keys.
    """
    entries = list(entries)
    chain = normalize_chain(chain)
    _check_unique([e.key for e in entries])
    with_lots = chain[-1] == "lots"
    if with_lots and lots_seed is None:
        raise ValueError("the chain uses 'lots' but no lots_seed was given")
    metrics = [METRICS[k] for k in chain if k != "lots"]
    getters = [(m.key, m.value, m.higher_is_better(higher_is_better)) for m in metrics]
    lots = lots_order((e.key for e in entries), lots_seed) if with_lots else {}

    # One key tuple per entry: oriented metric values, playoff, lot; then the canonical key
    # so equal rows come out in a stable order (it never decides a rank).
    prepared = []
    for e in entries:
        values: dict[str, Number] = {}
        sort_key: list = []
        for key, fn, hib in getters:
            v = fn(e, higher_is_better)
            values[key] = v
            sort_key.append(-v if hib else v)
        place = e.playoff_place
        if place is not None:
            values[PLAYOFF] = place
        sort_key.append(math.inf if place is None else place)
        if with_lots:
            values["lots"] = lots[e.key]
            sort_key.append(lots[e.key])
        prepared.append((tuple(sort_key), key_order(e.key), e, values))
    prepared.sort(key=lambda p: (p[0], p[1]))

    names = [k for k, _fn, _hib in getters] + [PLAYOFF] + (["lots"] if with_lots else [])
    rows: list[Row] = []
    n = len(prepared)
    current_rank = 0
    for i, (sk, _ko, e, values) in enumerate(prepared):
        if i == 0 or prepared[i - 1][0] != sk:
            current_rank = i + 1
        reason = None
        if i + 1 < n:
            nsk, _nko, ne, nvalues = prepared[i + 1]
            reason = _reason(names, sk, nsk, e, ne, values, nvalues)
        rows.append(Row(current_rank, e, values, reason))
    return rows


def _reason(names, sk, nsk, e, ne, values, nvalues) -> Reason:
    for j, name in enumerate(names):
        if sk[j] != nsk[j]:
            if name == PLAYOFF:
                return Reason(PLAYOFF, e.playoff_place, ne.playoff_place)
            return Reason(name, values[name], nvalues[name])
    return Reason(SHARED, e.total, ne.total)


# --------------------------------------------------------------------------- pairs and teams


def combine(
    entries_by_member: Mapping[Key, Entry],
    groups: Mapping[Key, Sequence[Key]],
) -> list[Entry]:
    """Pair and team entries as sums of their members' entries (in ``groups`` order).

    Sums ``total``, ``hands_won``, ``hand_rommes``, ``hand_points`` and ``series_totals``
    elementwise (a member with fewer series counts 0 for the missing ones). A group is
    provisional when any member is. ``playoff_place`` is not carried over. ``ValueError``
    for an empty group or a member without an entry.
    """
    out = []
    for group_key, members in groups.items():
        if not members:
            raise ValueError(f"group {group_key!r} has no members")
        missing = [m for m in members if m not in entries_by_member]
        if missing:
            raise ValueError(f"group {group_key!r}: no entry for member(s) {missing!r}")
        es = [entries_by_member[m] for m in members]
        out.append(
            Entry(
                key=group_key,
                total=sum(e.total for e in es),
                hands_won=sum(e.hands_won for e in es),
                hand_rommes=sum(e.hand_rommes for e in es),
                hand_points=sum(e.hand_points for e in es),
                series_totals=tuple(
                    sum(col) for col in zip_longest(*(e.series_totals for e in es), fillvalue=0)
                ),
                provisional=any(e.provisional for e in es),
            )
        )
    return out


# --------------------------------------------------------------------------- playoffs


def _tie_groups(rows: Sequence[Row]) -> list[tuple[int, list[Row]]]:
    """Runs of adjacent rows equal on the chain before lots: linked by a ``"shared"`` or
    ``"lots"`` reason. Returns (1-based first place, rows) for runs of two or more."""
    groups: list[tuple[int, list[Row]]] = []
    start = 0
    for i, row in enumerate(rows):
        linked = row.reason is not None and row.reason.metric in (SHARED, "lots")
        if not linked:
            if i > start:
                groups.append((start + 1, list(rows[start : i + 1])))
            start = i + 1
    return groups


def ties_on_lines(rows: Sequence[Row], lines: Iterable[int] = (1,)) -> list[list[Row]]:
    """Groups of rows still tied on a line that matters.

    A line ``L`` means places 1..L win a prize or qualify. Rows are tied when they are
    equal on every chain metric before lots and no playoff separated them (they share a
    rank, or only lots separate them). A tie group covering places ``p..q`` matters when
    ``p <= L < q`` for some line: it sits on the line and extends beyond it. Line 1 (the
    default) matters when two or more are equal at the top.
    """
    lines = sorted(set(lines))
    out = []
    for first, group in _tie_groups(rows):
        last = first + len(group) - 1
        if any(first <= line < last for line in lines):
            out.append(group)
    return out


def playoff_table(tied_rows: Iterable[Row]) -> list[Key]:
    """A playoff table of exactly the tied players, in seat order (by :func:`key_order`, so
    it is reproducible). They play until the tie is broken; record the outcome as
    ``playoff_place`` (see :func:`apply_playoff`)."""
    keys = [row.entry.key for row in tied_rows]
    _check_unique(keys)
    if len(keys) < 2:
        raise ValueError("a playoff needs at least two tied players")
    return sorted(keys, key=key_order)


def apply_playoff(entries: Iterable[Entry], places: Mapping[Key, int]) -> list[Entry]:
    """Entries with ``playoff_place`` set from ``places`` (1 = best); totals are unchanged."""
    entries = list(entries)
    known = {e.key for e in entries}
    unknown = [k for k in places if k not in known]
    if unknown:
        raise ValueError(f"playoff places for unknown keys: {unknown!r}")
    return [replace(e, playoff_place=places[e.key]) if e.key in places else e for e in entries]


# --------------------------------------------------------------------------- seasons


@dataclass(frozen=True)
class DropRule:
    """Dropped worst results: none below ``start`` series played; from ``start`` on one,
    plus one more every ``every`` series, at most ``maximum``:

    ``dropped = 0 if played < start else min(maximum, 1 + (played - start) // every)``

    With the defaults: 29 -> 0, 30..34 -> 1, 35..39 -> 2, 40 -> 3, 45 -> 4, 50 and more -> 5.
    """

    start: int = 30
    every: int = 5
    maximum: int = 5

    def __post_init__(self) -> None:
        if self.start < 1 or self.every < 1 or self.maximum < 0:
            raise ValueError("DropRule needs start >= 1, every >= 1 and maximum >= 0")


def dropped_count(series_played: int, rule: DropRule | None) -> int:
    """How many worst results are dropped after ``series_played`` series (see
    :class:`DropRule`). At least one result always counts."""
    if rule is None or series_played < rule.start:
        return 0
    n = min(rule.maximum, 1 + (series_played - rule.start) // rule.every)
    return max(0, min(n, series_played - 1))


@dataclass(frozen=True)
class SeasonEntry:
    """One player's season: ``results`` has one total per series played, in order."""

    key: Key
    results: tuple[Number, ...]


@dataclass(frozen=True)
class SeasonRow:
    """One line of a season ranking. ``dropped`` holds indices into the entry's results
    (ascending); ``counted_total`` and ``average`` are over the counted results. Rows that
    miss the minimum have ``qualified=False`` and ``rank=None`` and come after all others."""

    rank: int | None
    key: Key
    counted_total: Number
    average: float
    played: int
    dropped: tuple[int, ...]
    qualified: bool
    reason: Reason | None


def season_ranking(
    entries: Iterable[SeasonEntry],
    *,
    mode: Literal["total", "average"] = "total",
    minimum_series: int = 0,
    drop_rule: DropRule | None = None,
    higher_is_better: bool = True,
) -> list[SeasonRow]:
    """Season ranking by the counted total or the average per counted series.

    The worst ``dropped_count(played, drop_rule)`` results of each entry are dropped (among
    equal results the earliest). Qualified rows (``played >= minimum_series``) are ranked
    with shared ranks; the others follow in the same order with ``rank=None``. Reasons
    compare adjacent rows: ``"total"`` or ``"average"``, ``"shared"``, or
    ``"minimum_series"`` between the last qualified and the first unqualified row.
    """
    if mode not in ("total", "average"):
        raise ValueError(f"mode must be 'total' or 'average', not {mode!r}")
    entries = list(entries)
    _check_unique([e.key for e in entries])
    sign = -1 if higher_is_better else 1
    # worst first: lowest when higher is better; earliest among equal results.
    worst_key = (lambda r: r) if higher_is_better else (lambda r: -r)

    prepared = []
    for e in entries:
        results = e.results
        played = len(results)
        k = dropped_count(played, drop_rule)
        if k:
            dropped = tuple(
                sorted(sorted(range(played), key=lambda i: (worst_key(results[i]), i))[:k])
            )
            counted_total = sum(results) - sum(results[i] for i in dropped)
        else:
            dropped = ()
            counted_total = sum(results)
        counted = played - k
        average = counted_total / counted if counted else 0.0
        value = counted_total if mode == "total" else average
        qualified = played >= minimum_series
        prepared.append(
            ((not qualified, sign * value), key_order(e.key), e, counted_total, average, dropped)
        )
    prepared.sort(key=lambda p: (p[0], p[1]))

    rows: list[SeasonRow] = []
    current_rank = 0
    n = len(prepared)
    for i, (sk, _ko, e, counted_total, average, dropped) in enumerate(prepared):
        qualified = not sk[0]
        if i == 0 or prepared[i - 1][0] != sk:
            current_rank = i + 1
        reason = None
        if i + 1 < n:
            nsk, _nko, ne, ntotal, naverage, _nd = prepared[i + 1]
            if sk[0] != nsk[0]:
                reason = Reason(MINIMUM_SERIES, len(e.results), len(ne.results))
            elif sk[1] != nsk[1]:
                reason = (
                    Reason("total", counted_total, ntotal)
                    if mode == "total"
                    else Reason("average", average, naverage)
                )
            elif mode == "total":
                reason = Reason(SHARED, counted_total, ntotal)
            else:
                reason = Reason(SHARED, average, naverage)
        rows.append(
            SeasonRow(
                rank=current_rank if qualified else None,
                key=e.key,
                counted_total=counted_total,
                average=average,
                played=len(e.results),
                dropped=dropped,
                qualified=qualified,
                reason=reason,
            )
        )
    return rows
