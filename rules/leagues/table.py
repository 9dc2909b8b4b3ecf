"""The division table and the players' table of a division over a season.

Table chain: league points (more), then the sum of team scores, then the best day (the
better single day score); teams equal on all three share the place. Withdrawn teams stand
below all others (their results struck out or kept, as the settings say). Each row says why
it stands above the next one (`reason`: metric, this value, next value)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.leagues.settings import ANNUL, LeagueSettings

POINTS, SCORE, BEST_DAY, WITHDRAWN, SHARED = "points", "score", "best_day", "withdrawn", "shared"
TABLE_CHAIN = (POINTS, SCORE, BEST_DAY)


@dataclass(frozen=True)
class DayRecord:
    """One team's approved result of one match day."""

    team: Hashable
    day: Hashable
    place: int
    points: int
    score: int


@dataclass(frozen=True)
class TableRow:
    rank: int
    team: Hashable
    played: int
    points: int
    score: int
    best_day: int | None
    withdrawn: bool
    reason: tuple[str, object, object] | None


def division_table(
    teams: Iterable[Hashable],
    records: Iterable[DayRecord],
    settings: LeagueSettings,
    *,
    higher_is_better: bool,
    withdrawn: Iterable[Hashable] = (),
) -> list[TableRow]:
    teams = list(dict.fromkeys(teams))
    gone = set(withdrawn)
    mine: dict[Hashable, list[DayRecord]] = {t: [] for t in teams}
    for r in records:
        if r.team in mine and not (r.team in gone and settings.withdrawn == ANNUL):
            mine[r.team].append(r)
    sign = 1 if higher_is_better else -1
    pick = max if higher_is_better else min
    values = {}
    for t in teams:
        days = mine[t]
        values[t] = {
            POINTS: sum(r.points for r in days),
            SCORE: sum(r.score for r in days),
            BEST_DAY: pick(r.score for r in days) if days else None,
            WITHDRAWN: t in gone,
        }

    def key(t):
        v = values[t]
        best = (1, 0) if v[BEST_DAY] is None else (0, -sign * v[BEST_DAY])
        return (v[WITHDRAWN], -v[POINTS], -sign * v[SCORE], best)

    order = sorted(teams, key=key)  # stable: equal teams keep their given order
    rows = []
    rank = 0
    for i, t in enumerate(order):
        if i == 0 or key(order[i - 1]) != key(t):
            rank = i + 1
        reason = None
        if i + 1 < len(order):
            below = order[i + 1]
            if values[t][WITHDRAWN] != values[below][WITHDRAWN]:
                reason = (WITHDRAWN, False, True)
            else:
                metric = next((m for m in TABLE_CHAIN if values[t][m] != values[below][m]), SHARED)
                shown = POINTS if metric == SHARED else metric
                reason = (metric, values[t][shown], values[below][shown])
        v = values[t]
        rows.append(
            TableRow(
                rank=rank,
                team=t,
                played=len(mine[t]),
                points=v[POINTS],
                score=v[SCORE],
                best_day=v[BEST_DAY],
                withdrawn=v[WITHDRAWN],
                reason=reason,
            )
        )
    return rows


@dataclass(frozen=True)
class PlayerRow:
    rank: int | None  # None: below the minimum of series, not ranked
    player: Hashable
    series: int
    total: int
    average: Fraction | None


def player_table(
    series_totals: Mapping[Hashable, Sequence[int]], min_series: int, *, higher_is_better: bool
) -> list[PlayerRow]:
    """Players ranked by their average per series (equal averages share a rank); those
    with fewer than `min_series` series follow unranked, most series first."""
    sign = 1 if higher_is_better else -1
    listed, below = [], []
    for player, totals in series_totals.items():
        n = len(totals)
        avg = Fraction(sum(totals), n) if n else None
        (listed if n and n >= min_series else below).append((player, n, sum(totals), avg))
    listed.sort(key=lambda x: -sign * x[3])
    rows = []
    for i, (player, n, total, avg) in enumerate(listed):
        rank = i + 1 if i == 0 or listed[i - 1][3] != avg else rows[-1].rank
        rows.append(PlayerRow(rank, player, n, total, avg))
    below.sort(key=lambda x: -x[1])
    rows += [PlayerRow(None, player, n, total, avg) for player, n, total, avg in below]
    return rows
