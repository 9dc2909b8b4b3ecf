"""Writes of a league season's set-up: the season and its rules, divisions, teams and
rosters. One transaction each, permission checked here, the reason in the history; bad
input raises ValidationError with a German message naming the field, team or player."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from common.history import delete_with_history, save_with_history
from federation.associations.permissions import can_manage
from federation.associations.tree import associations_below
from federation.models import Affiliation, Association
from leagues.errors import validation_error
from leagues.models import Division, LeagueSeason, RosterEntry, Team
from leagues.permissions import is_officer, require_club, require_officer
from rules.leagues import LeagueError, parse_settings


def bump(season_id: int) -> None:
    """A change the league pages show: new ETags and cache keys."""
    LeagueSeason.objects.filter(pk=season_id).update(
        version=F("version") + 1, changed_at=timezone.now()
    )


def _rules(raw) -> dict:
    try:
        return parse_settings(raw).to_json()
    except LeagueError as error:
        raise validation_error(error, "rules") from error


@transaction.atomic
def create_season(
    actor,
    association: Association,
    *,
    name,
    first_year,
    last_year,
    rules=None,
    roster_deadline=None,
    reason="",
) -> LeagueSeason:
    if not can_manage(actor, association):
        raise ValidationError(_("Only a ranking officer of the association may create a season."))
    if LeagueSeason.objects.filter(association=association, name=name).exists():
        raise ValidationError({"name": _("A season “%(name)s” exists already.") % {"name": name}})
    season = LeagueSeason(
        association=association,
        name=name,
        first_year=first_year,
        last_year=last_year,
        rules=_rules(rules or {}),
        roster_deadline=roster_deadline,
    )
    if last_year is not None and first_year is not None and last_year < first_year:
        raise ValidationError({"last_year": _("The last year cannot be before the first year.")})
    return save_with_history(season, actor, reason or "created")


@transaction.atomic
def update_season(actor, season: LeagueSeason, *, reason: str, **fields) -> LeagueSeason:
    require_officer(actor, season)
    if "rules" in fields:
        fields["rules"] = _rules(fields["rules"])
    for key, value in fields.items():
        setattr(season, key, value)
    save_with_history(season, actor, reason)
    bump(season.pk)
    return season


@transaction.atomic
def create_division(
    actor, season: LeagueSeason, *, name, level, parent=None, promoted=0, relegated=0, reason=""
) -> Division:
    require_officer(actor, season)
    if season.divisions.filter(name=name).exists():
        raise ValidationError({"name": _("A division “%(name)s” exists already.") % {"name": name}})
    if parent is not None and (parent.season_id != season.pk or parent.level != level - 1):
        raise ValidationError(
            {"parent": _("Teams go up to a division of this season one level higher.")}
        )
    if parent is None and level != 1:
        raise ValidationError({"parent": _("Name the division its teams go up to.")})
    if level == 1 and promoted:
        raise ValidationError({"promoted": _("No team goes up from the top level.")})
    division = Division(
        season=season,
        name=name,
        level=level,
        parent=parent,
        promoted=promoted,
        relegated=relegated,
    )
    save_with_history(division, actor, reason or "created")
    bump(season.pk)
    return division


@transaction.atomic
def update_division(actor, division: Division, *, promoted, relegated, reason) -> Division:
    season = division.season
    require_officer(actor, season)
    size = division.teams.count()
    if promoted + relegated > max(size, 0) and size:
        raise ValidationError(
            {
                "promoted": _(
                    "Division “%(division)s” has %(teams)s teams: %(promoted)s up and "
                    "%(relegated)s down are too many."
                )
                % {
                    "division": division.name,
                    "teams": size,
                    "promoted": promoted,
                    "relegated": relegated,
                }
            }
        )
    if division.parent_id is None and promoted:
        raise ValidationError({"promoted": _("No team goes up from the top level.")})
    division.promoted, division.relegated = promoted, relegated
    save_with_history(division, actor, reason)
    bump(season.pk)
    return division


@transaction.atomic
def register_team(
    actor, division: Division, club: Club, *, name, captain_name="", captain=None, reason=""
) -> Team:
    """A club registers a team for a division (its director or the officer)."""
    season = division.season
    require_club(actor, season, club)
    if season.status == LeagueSeason.Status.CLOSED:
        raise ValidationError(_("The season “%(season)s” is closed.") % {"season": season.name})
    _require_member(club, season.association)
    if division.teams.filter(name=name).exists():
        raise ValidationError(
            {"name": _("A team “%(name)s” plays in this division.") % {"name": name}}
        )
    if season.settings.one_club_per_division and division.teams.filter(club=club).exists():
        raise ValidationError(
            _(
                "“%(club)s” has a team in “%(division)s” already; two teams of one club may not "
                "play in one division."
            )
            % {"club": club.name, "division": division.name}
        )
    team = Team(division=division, club=club, name=name, captain_name=captain_name, captain=captain)
    save_with_history(team, actor, reason or "registered")
    bump(season.pk)
    return team


def _require_member(club: Club, association: Association) -> None:
    """A league is played by the clubs of its association: the club belongs to it or to an
    association below it."""
    below = associations_below(association.pk)
    if not Affiliation.objects.filter(club=club, association_id__in=below).exists():
        raise ValidationError(
            {
                "club": _(
                    "“%(club)s” does not belong to “%(association)s” or an association below it; "
                    "only its clubs play in its league."
                )
                % {"club": club.name, "association": association.name}
            }
        )


@transaction.atomic
def update_team(actor, team: Team, *, captain_name, captain, reason="") -> Team:
    season = team.division.season
    require_club(actor, season, team.club)
    team.captain_name, team.captain = captain_name, captain
    save_with_history(team, actor, reason or "captain")
    bump(season.pk)
    return team


@transaction.atomic
def withdraw_team(actor, team: Team, *, reason: str) -> Team:
    season = team.division.season
    require_officer(actor, season)
    if not reason:
        raise ValidationError({"reason": _("Give a reason.")})
    team.withdrawn = True
    save_with_history(team, actor, reason)
    bump(season.pk)
    return team


def _after_deadline(season: LeagueSeason) -> bool:
    return season.roster_deadline is not None and timezone.localdate() > season.roster_deadline


def _roster_gate(actor, team: Team, reason: str) -> None:
    season = team.division.season
    require_club(actor, season, team.club)
    if season.status == LeagueSeason.Status.CLOSED:
        raise ValidationError(_("The season “%(season)s” is closed.") % {"season": season.name})
    if _after_deadline(season):
        if not is_officer(actor, season):
            raise ValidationError(
                _(
                    "The roster deadline (%(date)s) has passed; only the officer changes rosters "
                    "now."
                )
                % {"date": season.roster_deadline.strftime("%d.%m.%Y")}
            )
        if not reason:
            raise ValidationError({"reason": _("After the deadline a change needs a reason.")})


def roster_problems(team: Team, player: Player) -> list[str]:
    """Why `player` may not join `team`'s roster (German, naming the player)."""
    season = team.division.season
    cfg = season.settings
    name = player.full_name
    problems = []
    if team.roster.filter(player=player).exists():
        return [
            _("%(name)s is on the roster of “%(team)s” already.")
            % {"name": name, "team": team.name}
        ]
    if team.roster.count() >= cfg.roster_max:
        problems.append(
            _("The roster of “%(team)s” is full (%(max)s players); %(name)s cannot join.")
            % {"team": team.name, "max": cfg.roster_max, "name": name}
        )
    clash = (
        RosterEntry.objects.filter(
            player=player, team__division__season=season, team__division__level=team.division.level
        )
        .exclude(team=team)
        .select_related("team")
        .first()
    )
    if clash is not None:
        problems.append(
            _(
                "%(name)s is on the roster of “%(other)s” at the same level this season; a player "
                "plays for one team per level."
            )
            % {"name": name, "other": clash.team.name}
        )
    if not cfg.guest_players:
        club_id = (
            Player.objects.with_current_club()
            .filter(pk=player.pk)
            .values_list("current_club_id", flat=True)
            .first()
        )
        if club_id != team.club_id:
            problems.append(
                _("%(name)s is not a player of “%(club)s”; this league allows no guest players.")
                % {"name": name, "club": team.club.name}
            )
    return problems


@transaction.atomic
def add_to_roster(actor, team: Team, player: Player, *, reason: str = "") -> RosterEntry:
    _roster_gate(actor, team, reason)
    Team.objects.select_for_update().filter(pk=team.pk).first()  # one roster write at a time
    problems = roster_problems(team, player)
    if problems:
        raise ValidationError(problems)
    entry = save_with_history(RosterEntry(team=team, player=player), actor, reason or "roster")
    bump(team.division.season_id)
    return entry


@transaction.atomic
def remove_from_roster(actor, entry: RosterEntry, *, reason: str = "") -> None:
    _roster_gate(actor, entry.team, reason)
    delete_with_history(entry, actor, reason or "roster")
    bump(entry.team.division.season_id)
