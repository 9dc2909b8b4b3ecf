"""A league season's settings, their checks and their German sentences (pure Python).

Messages are data, as in `rules.ranking_settings`: LeagueError carries a code, params and
an English msgid; the page says it in German with `err.message(gettext)`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from itertools import pairwise

from rules.ranking_settings import Explanation, gettext_noop

ZERO, WORST, PENALTY = "zero", "worst", "penalty"
MISSING_POLICIES = (ZERO, WORST, PENALTY)
# What a team withdrawn during the season leaves behind in the table.
ANNUL, KEEP = "annul", "keep"
WITHDRAWN_POLICIES = (ANNUL, KEEP)
MAX_TEAM, MAX_SCORE, MAX_DAYS = 50, 1_000_000, 100

LEAGUE_ERRORS: dict[str, str] = {
    "league.number": gettext_noop(
        "The setting “%(setting)s” must be a whole number from %(min)s to %(max)s."
    ),
    "league.roster": gettext_noop(
        "The smallest roster (%(minimum)s) cannot be larger than the largest one (%(maximum)s)."
    ),
    "league.team-size": gettext_noop(
        "A day's line-up (%(team_size)s players) cannot be larger than the largest roster "
        "(%(maximum)s)."
    ),
    "league.missing": gettext_noop(
        "A missing player counts as “zero”, “worst” (the worst score of the day) or "
        "“penalty” (a fixed score)."
    ),
    "league.withdrawn": gettext_noop(
        "The results of a withdrawn team are “annul” (struck out) or “keep” (kept)."
    ),
    "league.points": gettext_noop(
        "League points for %(teams)s teams: give %(teams)s whole numbers from 0 to %(max)s, "
        "the best place first, none larger than the one before."
    ),
    "league.flag": gettext_noop("The setting “%(setting)s” must be yes or no."),
    "league.unknown-setting": gettext_noop("A league has no setting “%(setting)s”."),
    "league.promote-count": gettext_noop(
        "Division “%(division)s”: %(promoted)s teams cannot go up and %(relegated)s go "
        "down from a division of %(teams)s teams."
    ),
    "league.promote-top": gettext_noop(
        "Division “%(division)s” is at the top level; no team can go up from it."
    ),
    "league.parent": gettext_noop(
        "Division “%(division)s” must lie one level below the division its teams go up to."
    ),
}


class LeagueError(ValueError):
    def __init__(self, code: str, **params):
        self.code = code
        self.params = params
        super().__init__(LEAGUE_ERRORS[code] % params)

    def message(self, translate=lambda text: text) -> str:
        return translate(LEAGUE_ERRORS[self.code]) % self.params


@dataclass(frozen=True)
class LeagueSettings:
    roster_min: int = 4
    roster_max: int = 8
    team_size: int = 4  # the most players a team names for a day
    drop_days: int = 3  # match days in a higher team after which a player may not drop
    guest_players: bool = False  # players of other clubs on a roster
    missing: str = ZERO
    missing_penalty: int = 0
    # Places -> league points per number of teams on a day; a count not named here gives
    # n, n-1, ..., 1 (4 teams: 4-3-2-1).
    points: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    min_series: int = 3  # series a player needs for the players' table
    withdrawn: str = ANNUL
    one_club_per_division: bool = True  # two teams of one club may not meet in a division

    def to_json(self) -> dict:
        data = asdict(self)
        data["points"] = {str(k): list(v) for k, v in self.points.items()}
        return data


_NUMBERS = {
    "roster_min": (1, MAX_TEAM),
    "roster_max": (1, MAX_TEAM),
    "team_size": (1, MAX_TEAM),
    "drop_days": (1, MAX_DAYS),
    "missing_penalty": (-MAX_SCORE, MAX_SCORE),
    "min_series": (0, 1000),
}
_FLAGS = ("guest_players", "one_club_per_division")


def _whole(name: str, value) -> int:
    low, high = _NUMBERS[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise LeagueError("league.number", setting=name, min=low, max=high)
    return value


def _points(raw) -> dict[int, tuple[int, ...]]:
    if not isinstance(raw, Mapping):
        raise LeagueError("league.points", teams="?", max=MAX_SCORE)
    out = {}
    for key, values in raw.items():
        try:
            teams = int(key)
        except (TypeError, ValueError):
            raise LeagueError("league.points", teams=key, max=MAX_SCORE) from None
        ok = (
            1 <= teams <= MAX_TEAM
            and isinstance(values, list | tuple)
            and len(values) == teams
            and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            and all(0 <= v <= MAX_SCORE for v in values)
            and all(a >= b for a, b in pairwise(values))
        )
        if not ok:
            raise LeagueError("league.points", teams=teams, max=MAX_SCORE)
        out[teams] = tuple(values)
    return dict(sorted(out.items()))


def parse_settings(data: Mapping | None) -> LeagueSettings:
    """Settings from stored JSON (missing keys take the defaults); LeagueError when bad."""
    data = dict(data or {})
    known = set(LeagueSettings.__dataclass_fields__)
    for key in data:
        if key not in known:
            raise LeagueError("league.unknown-setting", setting=key)
    values = asdict(LeagueSettings())
    values.update(data)
    for name in _NUMBERS:
        values[name] = _whole(name, values[name])
    for name in _FLAGS:
        if not isinstance(values[name], bool):
            raise LeagueError("league.flag", setting=name)
    if values["missing"] not in MISSING_POLICIES:
        raise LeagueError("league.missing")
    if values["withdrawn"] not in WITHDRAWN_POLICIES:
        raise LeagueError("league.withdrawn")
    if values["roster_min"] > values["roster_max"]:
        raise LeagueError(
            "league.roster", minimum=values["roster_min"], maximum=values["roster_max"]
        )
    if values["team_size"] > values["roster_max"]:
        raise LeagueError(
            "league.team-size", team_size=values["team_size"], maximum=values["roster_max"]
        )
    values["points"] = _points(values["points"])
    return LeagueSettings(**values)


def league_points(settings: LeagueSettings, teams: int) -> tuple[int, ...]:
    """League points by place for a day of `teams` teams (place 1 first)."""
    if teams in settings.points:
        return settings.points[teams]
    return tuple(range(teams, 0, -1))


SETTING_TEXTS: dict[str, str] = {
    "roster": gettext_noop("A team's roster holds %(minimum)s to %(maximum)s players of its club."),
    "guests": gettext_noop("Players of other clubs may play as guests."),
    "team_size": gettext_noop("A team names at most %(team_size)s players for a match day."),
    "drop": gettext_noop(
        "A player who has played for a higher team of the club on %(days)s match days may no "
        "longer play for a lower one."
    ),
    "missing.zero": gettext_noop("A missing player counts 0 points."),
    "missing.worst": gettext_noop("A missing player counts the worst score of the day."),
    "missing.penalty": gettext_noop("A missing player counts %(penalty)s points."),
    "points": gettext_noop("A day of %(teams)s teams gives the places %(points)s league points."),
    "points.default": gettext_noop(
        "Otherwise a day of n teams gives n league points for the first place, one less for "
        "each place below."
    ),
    "points.plain": gettext_noop(
        "A day of n teams gives n league points for the first place, one less for each place below."
    ),
    "day_chain": gettext_noop(
        "On a match day the teams are ranked by the sum of their players' scores, then by "
        "more series won, then by the better best player, then by lot."
    ),
    "table_chain": gettext_noop(
        "The table ranks by league points, then by the sum of team scores, then by the best "
        "day; teams equal on all three share the place."
    ),
    "min_series": gettext_noop(
        "The players' table lists players with at least %(min_series)s series."
    ),
    "withdrawn.annul": gettext_noop(
        "A team withdrawn during the season goes down; its results are struck out of the table."
    ),
    "withdrawn.keep": gettext_noop(
        "A team withdrawn during the season goes down; its results stay in the table."
    ),
    "one_club": gettext_noop("Two teams of one club may not play in one division."),
}


def describe(settings: LeagueSettings) -> tuple[Explanation, ...]:
    """Every setting as a sentence for the season's page."""

    def line(code, **params):
        return Explanation(f"league.setting.{code}", SETTING_TEXTS[code], params)

    out = [line("roster", minimum=settings.roster_min, maximum=settings.roster_max)]
    if settings.guest_players:
        out.append(line("guests"))
    out += [line("team_size", team_size=settings.team_size), line("drop", days=settings.drop_days)]
    if settings.missing == PENALTY:
        out.append(line("missing.penalty", penalty=settings.missing_penalty))
    else:
        out.append(line(f"missing.{settings.missing}"))
    out += [
        line("points", teams=teams, points="-".join(map(str, values)))
        for teams, values in settings.points.items()
    ]
    out.append(line("points.default" if settings.points else "points.plain"))
    out += [line("day_chain"), line("table_chain")]
    out += [
        line("min_series", min_series=settings.min_series),
        line(f"withdrawn.{settings.withdrawn}"),
    ]
    if settings.one_club_per_division:
        out.append(line("one_club"))
    return tuple(out)
