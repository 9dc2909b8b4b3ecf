"""League play (Ligaspielbetrieb) as pure Python: a league's settings and their German
sentences, a team's result of a match day (with the missing-player policy), the day's
ranking chain and league points, the division table with its named tie chain ("why
above"), and the end-of-season proposal of promotions and relegations.

No Django, no app: the `leagues` app feeds these functions with stored totals and shows
their messages (English msgids marked with `gettext_noop`) in German."""

from rules.leagues.day import DayTeam, DayTeamResult, rank_day
from rules.leagues.promotion import DivisionInput, Move, Proposal, propose
from rules.leagues.settings import (
    LeagueError,
    LeagueSettings,
    describe,
    league_points,
    parse_settings,
)
from rules.leagues.table import DayRecord, TableRow, division_table

__all__ = [
    "DayRecord",
    "DayTeam",
    "DayTeamResult",
    "DivisionInput",
    "LeagueError",
    "LeagueSettings",
    "Move",
    "Proposal",
    "TableRow",
    "describe",
    "division_table",
    "league_points",
    "parse_settings",
    "propose",
    "rank_day",
]
