"""Who may do what in league play, checked on the server by every view and service.

- The officer (Ranglistenwart) of the association that owns the season, or of one above
  it, manages the season: divisions, match days, approvals, late changes, the season's end.
- A club's director (organiser) registers the club's teams and rosters and runs the
  match days the club hosts; a team's captain names its line-ups.
- Anonymous users see the public pages only.

A season the user may not manage and that is not public answers 404."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, has_role
from federation.associations.permissions import can_manage, can_view
from leagues.models import Team


def is_officer(user, season) -> bool:
    return can_manage(user, season.association_id)


def require_officer(user, season) -> None:
    if not is_officer(user, season):
        raise PermissionDenied(
            _("Only a ranking officer of “%(association)s” may do this.")
            % {"association": season.association.name}
        )


def is_director(user, club) -> bool:
    return has_role(user, club, ORGANISER)


def require_club(user, season, club) -> None:
    """The club's director or the season's officer."""
    if not (is_director(user, club) or is_officer(user, season)):
        raise PermissionDenied(
            _("Only a director of “%(club)s” or the league's officer may do this.")
            % {"club": club.name}
        )


def is_captain(user, team) -> bool:
    return user.is_authenticated and team.captain_id == user.pk


def can_name_lineup(user, team) -> bool:
    season = team.division.season
    return is_captain(user, team) or is_director(user, team.club_id) or is_officer(user, season)


def require_lineup(user, team) -> None:
    if not can_name_lineup(user, team):
        raise PermissionDenied(
            _(
                "Only the captain of “%(team)s”, a director of its club or the officer may name "
                "its line-up."
            )
            % {"team": team.name}
        )


def can_run_day(user, match_day) -> bool:
    return is_director(user, match_day.host_id) or is_officer(user, match_day.division.season)


def require_run_day(user, match_day) -> None:
    if not can_run_day(user, match_day):
        raise PermissionDenied(
            _("Only a director of the host “%(club)s” or the officer may run this match day.")
            % {"club": match_day.host.name}
        )


def can_see(user, season) -> bool:
    """Members' pages: the association's officers and viewers, the directors of clubs with
    a team in the season and the teams' captains."""
    if not user.is_authenticated:
        return False
    if can_view(user, season.association_id):
        return True
    teams = Team.objects.filter(division__season=season)
    if teams.filter(captain=user).exists():
        return True
    clubs = set(teams.values_list("club_id", flat=True))
    return any(is_director(user, club) for club in clubs)


def require_see(user, season) -> None:
    if not can_see(user, season):
        raise Http404(_("No such league season."))
