"""What the league pages, prints and JSON read: a division's table and players' table from
the approved day results, a match day with its line-ups and result, a team with its roster
and days, a season's divisions and calendar. A fixed number of queries each, however many
teams, days or players (tests/leagues/test_queries.py counts them)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.errors import explanation_text
from leagues.models import (
    Division,
    LeagueSeason,
    LineupEntry,
    MatchDay,
    PlayerDayResult,
    RosterEntry,
    Team,
    TeamDayResult,
)
from rules.leagues import DayRecord, describe, division_table
from rules.leagues.table import player_table

METRIC_LABELS = {
    "points": gettext_lazy("league points"),
    "score": gettext_lazy("sum of team scores"),
    "best_day": gettext_lazy("best day"),
    "total": gettext_lazy("team score"),
    "series_won": gettext_lazy("series won"),
    "best_player": gettext_lazy("best player"),
    "lots": gettext_lazy("lot"),
}


def reason_text(reason) -> str:
    """Why a row stands above the next one ("why above"), in German."""
    if not reason:
        return ""
    metric, this, other = reason
    if metric == "shared":
        return _("Equal on league points, team scores and best day: they share the place.")
    if metric == "withdrawn":
        return _("The next team has withdrawn from the season.")
    show = lambda v: "–" if v is None else str(v)  # noqa: E731
    return _("Ahead on “%(metric)s”: %(this)s against %(next)s.") % {
        "metric": METRIC_LABELS.get(metric, metric),
        "this": show(this),
        "next": show(other),
    }


@dataclass
class TableLine:
    rank: int
    team_id: int
    team: str
    club: str
    played: int
    points: int
    score: int
    best_day: int | None
    withdrawn: bool
    why: str


@dataclass
class PlayerLine:
    rank: int | None
    player_id: int
    name: str
    team: str
    series: int
    total: int
    average: str  # German, two decimals
    hidden: bool = False


@dataclass
class DivisionTable:
    division: Division
    season: LeagueSeason
    lines: list[TableLine]
    players: list[PlayerLine]
    days_approved: int
    higher_is_better: bool = False
    rules: list[str] = field(default_factory=list)


def _german(value) -> str:
    return f"{float(value):.2f}".replace(".", ",")


def higher_is_better(division: Division) -> bool:
    # The score direction of the rule set the division's days are played under (the
    # default German rules: higher is better).
    event = (
        MatchDay.objects.filter(division=division, event__isnull=False)
        .select_related("event")
        .first()
    )
    return event.event.ruleset.higher_is_better if event else True


def table_of(division: Division, *, hib: bool | None = None) -> DivisionTable:
    """The division table and players' table from approved results only. Queries: teams,
    approved team days, approved player days (with names), plus one for the score direction
    unless given."""
    season = division.season
    cfg = season.settings
    if hib is None:
        hib = higher_is_better(division)
    teams = list(division.teams.select_related("club").order_by("name"))
    by_id = {t.pk: t for t in teams}
    records = [
        DayRecord(team, day, place, points, score)
        for team, day, place, points, score in TeamDayResult.objects.filter(
            division=division, approved=True
        ).values_list("team_id", "result_id", "place", "points", "score")
    ]
    rows = division_table(
        [t.pk for t in teams],
        records,
        cfg,
        higher_is_better=hib,
        withdrawn=[t.pk for t in teams if t.withdrawn],
    )
    lines = [
        TableLine(
            rank=r.rank,
            team_id=r.team,
            team=by_id[r.team].name,
            club=by_id[r.team].club.short_name,
            played=r.played,
            points=r.points,
            score=r.score,
            best_day=r.best_day,
            withdrawn=r.withdrawn,
            why=reason_text(r.reason),
        )
        for r in rows
    ]
    series: dict[int, list[int]] = defaultdict(list)
    info = {}
    for player_id, team_id, totals, given, family in PlayerDayResult.objects.filter(
        division=division, approved=True
    ).values_list(
        "player_id", "team_id", "series_totals", "player__given_name", "player__family_name"
    ):
        series[player_id] += [t for t in totals if t is not None]
        info[player_id] = (f"{given} {family}", by_id[team_id].name if team_id in by_id else "")
    players = [
        PlayerLine(
            rank=p.rank,
            player_id=p.player,
            name=info[p.player][0],
            team=info[p.player][1],
            series=p.series,
            total=p.total,
            average=_german(p.average) if p.average is not None else "–",
        )
        for p in player_table(series, cfg.min_series, higher_is_better=hib)
    ]
    return DivisionTable(
        division=division,
        season=season,
        lines=lines,
        players=players,
        days_approved=len({r.day for r in records}),
        higher_is_better=hib,
    )


def table_json(table: DivisionTable) -> dict:
    """The division table for club websites (whitelisted fields only)."""
    return {
        "season": table.season.name,
        "division": table.division.name,
        "level": table.division.level,
        "version": table.season.version,
        "lines": [
            {
                "rank": line.rank,
                "team": line.team,
                "club": line.club,
                "played": line.played,
                "points": line.points,
                "score": line.score,
                "best_day": line.best_day,
                "withdrawn": line.withdrawn,
                "why_above": line.why,
            }
            for line in table.lines
        ],
        "players": [
            {
                "rank": p.rank,
                "name": p.name,
                "team": p.team,
                "series": p.series,
                "average": p.average.replace(",", ".") if p.rank is not None else None,
            }
            for p in table.players
        ],
    }


def match_day_detail(match_day: MatchDay) -> dict:
    """Teams, line-ups and (if any) the result of a day. Queries: teams, line-ups, result
    rows of teams and players."""
    teams = list(match_day.teams.select_related("club").order_by("name"))
    lineups = defaultdict(list)
    for entry in LineupEntry.objects.filter(match_day=match_day).select_related("player"):
        lineups[entry.team_id].append(entry.player)
    result = getattr(match_day, "result", None)
    team_rows, player_rows = [], defaultdict(list)
    if result is not None:
        names = {t.pk: t.name for t in teams}
        for row in TeamDayResult.objects.filter(result=result).order_by("place"):
            row.name = names.get(row.team_id, "")
            row.why = reason_text(row.reason and [row.reason[0], *row.reason[1:]])
            team_rows.append(row)
        for row in PlayerDayResult.objects.filter(result=result).select_related("player"):
            player_rows[row.team_id].append(row)
    return {
        "teams": [
            {"team": t, "lineup": lineups.get(t.pk, []), "results": player_rows.get(t.pk, [])}
            for t in teams
        ],
        "result": result,
        "team_rows": team_rows,
    }


def team_detail(team: Team) -> dict:
    """Roster, and each day with the team's line-up and result."""
    roster = list(
        RosterEntry.objects.filter(team=team).select_related("player").order_by("player__sort_key")
    )
    days = list(team.match_days.select_related("host").order_by("number"))
    lineups = defaultdict(list)
    for entry in LineupEntry.objects.filter(team=team).select_related("player"):
        lineups[entry.match_day_id].append(entry.player)
    results = {
        r.result.match_day_id: r
        for r in TeamDayResult.objects.filter(team=team).select_related("result")
    }
    return {
        "roster": roster,
        "days": [
            {"day": d, "lineup": lineups.get(d.pk, []), "result": results.get(d.pk)} for d in days
        ],
    }


def calendar(season: LeagueSeason):
    return list(
        MatchDay.objects.filter(division__season=season)
        .select_related("division", "host")
        .order_by("date", "division__level", "division__name", "number")
    )


def settings_lines(season: LeagueSeason) -> list[str]:
    return [explanation_text(line) for line in describe(season.settings)]
