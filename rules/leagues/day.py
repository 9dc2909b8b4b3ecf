"""A match day: each team's result from its players' series totals, the day's ranking
chain (team score, then more series won, then the better best player, then lots drawn
with a stored seed) and the league points of the places.

A team names at most `team_size` players; in every series each empty place of the line-up
(a player not named, or named and without a result in that series) counts as the
settings' missing-player policy says: 0, the worst single score of that series on the day,
or a fixed penalty."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from rules.leagues.settings import PENALTY, WORST, LeagueSettings, league_points
from rules.standings.core import lots_order

TOTAL, SERIES_WON, BEST_PLAYER, LOTS = "total", "series_won", "best_player", "lots"
DAY_CHAIN = (TOTAL, SERIES_WON, BEST_PLAYER, LOTS)


@dataclass(frozen=True)
class DayTeam:
    """A team of the day: `players` maps each named player to their totals by series
    number (a series they did not play is absent)."""

    key: Hashable
    players: Mapping[Hashable, Mapping[int, int]]


@dataclass(frozen=True)
class DayTeamResult:
    key: Hashable
    place: int
    points: int  # league points
    total: int
    series_totals: tuple[int, ...]  # in the order of the day's series
    series_won: int
    best_player: int | None  # the best day total of one of its players
    missing: int  # empty places over all series
    reason: tuple[str, object, object] | None  # (metric, this, next) against the team below


def _better(higher_is_better: bool):
    return max if higher_is_better else min


def _missing_value(settings: LeagueSettings, worst: int) -> int:
    if settings.missing == PENALTY:
        return settings.missing_penalty
    if settings.missing == WORST:
        return worst
    return 0


def rank_day(
    teams: Sequence[DayTeam],
    series: Sequence[int],
    settings: LeagueSettings,
    *,
    higher_is_better: bool,
    lots_seed: int,
) -> list[DayTeamResult]:
    """The teams of one day in order of their places (every place distinct: lots last)."""
    best = _better(higher_is_better)
    worst_of = max if not higher_is_better else min
    totals: dict[Hashable, list[int]] = {}
    missing: dict[Hashable, int] = {}
    for team in teams:
        totals[team.key], missing[team.key] = [], 0
    for number in series:
        scores = [t[number] for team in teams for t in team.players.values() if number in t]
        worst = worst_of(scores) if scores else 0
        fill = _missing_value(settings, worst)
        for team in teams:
            present = [t[number] for t in team.players.values() if number in t]
            empty = max(0, settings.team_size - len(present))
            missing[team.key] += empty
            totals[team.key].append(sum(present) + empty * fill)
    won = dict.fromkeys(totals, 0)
    for i in range(len(series)):
        top = best(t[i] for t in totals.values()) if totals else 0
        for key, t in totals.items():
            won[key] += t[i] == top
    best_player: dict[Hashable, int | None] = {}
    for team in teams:
        day_totals = [sum(t.values()) for t in team.players.values() if t]
        best_player[team.key] = best(day_totals) if day_totals else None
    lots = lots_order(totals, lots_seed)
    sign = 1 if higher_is_better else -1

    def sort_key(key):
        bp = best_player[key]
        return (
            -sign * sum(totals[key]),
            -won[key],
            (1, 0) if bp is None else (0, -sign * bp),
            lots[key],
        )

    order = sorted(totals, key=sort_key)
    table = league_points(settings, len(order))
    values = {
        key: {
            TOTAL: sum(totals[key]),
            SERIES_WON: won[key],
            BEST_PLAYER: best_player[key],
            LOTS: lots[key],
        }
        for key in order
    }
    out = []
    for place, key in enumerate(order, start=1):
        reason = None
        if place < len(order):
            below = order[place]
            metric = next(m for m in DAY_CHAIN if values[key][m] != values[below][m])
            reason = (metric, values[key][metric], values[below][metric])
        out.append(
            DayTeamResult(
                key=key,
                place=place,
                points=table[place - 1],
                total=sum(totals[key]),
                series_totals=tuple(totals[key]),
                series_won=won[key],
                best_player=best_player[key],
                missing=missing[key],
                reason=reason,
            )
        )
    return out
