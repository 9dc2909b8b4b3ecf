"""The members' league pages: seasons, divisions, teams with rosters, match days with
line-ups, opening, result and approval. Thin: forms parse, services check and write,
selectors read. 404 for a season the user may not see, 403 for what they see but may not
change (leagues.permissions)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Club, Player
from clubs.permissions import ORGANISER, VIEWER, clubs_with_role, has_role
from common.forms import add_validation_errors, parse_int
from federation.associations.permissions import associations_for
from federation.models import AssociationRole
from leagues import selectors
from leagues.exports import export_links, export_response
from leagues.forms import (
    DecideForm,
    DivisionForm,
    LineupForm,
    MatchDayForm,
    ReasonForm,
    RosterForm,
    SeasonForm,
    TeamForm,
)
from leagues.matchdays import services as matchday_services
from leagues.models import Division, LeagueSeason, MatchDay, MatchDayResult, RosterEntry, Team
from leagues.permissions import (
    can_name_lineup,
    can_run_day,
    is_director,
    is_officer,
    require_officer,
    require_see,
)
from leagues.seasons import services as season_services


def _season(request, pk) -> LeagueSeason:
    season = get_object_or_404(LeagueSeason.objects.select_related("association"), pk=pk)
    require_see(request.user, season)
    return season


def _division(request, pk) -> Division:
    division = get_object_or_404(
        Division.objects.select_related("season__association", "parent"), pk=pk
    )
    require_see(request.user, division.season)
    return division


def _team(request, pk) -> Team:
    team = get_object_or_404(
        Team.objects.select_related("division__season__association", "club"), pk=pk
    )
    require_see(request.user, team.division.season)
    return team


def _match_day(request, pk) -> MatchDay:
    day = get_object_or_404(
        MatchDay.objects.select_related("division__season__association", "host", "event"), pk=pk
    )
    require_see(request.user, day.division.season)
    return day


def _form_view(request, form, write, *, title, back):
    """POST: write(form) in the service; its ValidationError shows on the form."""
    if request.method == "POST" and form.is_valid():
        try:
            target = write(form.cleaned_data)
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect(target.get_absolute_url())
    return render(request, "leagues/form.html", {"form": form, "title": title, "back": back})


@login_required
def season_list(request):
    managed = associations_for(request.user, AssociationRole.Role.VIEWER)
    clubs = clubs_with_role(request.user, ORGANISER)
    seasons = (
        LeagueSeason.objects.filter(association__in=managed)
        | LeagueSeason.objects.filter(divisions__teams__club__in=clubs)
        | LeagueSeason.objects.filter(divisions__teams__captain=request.user)
    )
    context = {
        "seasons": seasons.distinct().select_related("association"),
        "may_create": associations_for(request.user, AssociationRole.Role.OFFICER).exists(),
    }
    return render(request, "leagues/season_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request):
    associations = associations_for(request.user, AssociationRole.Role.OFFICER)
    if not associations.exists():
        raise PermissionDenied(_("Only a ranking officer may create a league season."))
    form = SeasonForm(request.POST or None, associations=associations)

    def write(data):
        return season_services.create_season(
            request.user,
            data["association"],
            name=data["name"],
            first_year=data["first_year"],
            last_year=data["last_year"],
            rules=data["rules"],
            roster_deadline=data["roster_deadline"],
            reason=data["reason"],
        )

    return _form_view(request, form, write, title=_("New league season"), back=None)


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request, pk):
    season = _season(request, pk)
    require_officer(request.user, season)
    form = SeasonForm(
        request.POST or None,
        initial=SeasonForm.initial_from(season),
        associations=associations_for(request.user, AssociationRole.Role.OFFICER),
    )

    def write(data):
        if not data["reason"]:
            raise ValidationError({"reason": _("Give a reason.")})
        return season_services.update_season(
            request.user,
            season,
            reason=data["reason"],
            name=data["name"],
            first_year=data["first_year"],
            last_year=data["last_year"],
            rules=data["rules"],
            roster_deadline=data["roster_deadline"],
        )

    return _form_view(request, form, write, title=_("Change the season"), back=season)


@login_required
def season_detail(request, pk):
    season = _season(request, pk)
    officer = is_officer(request.user, season)
    waiting = MatchDayResult.objects.filter(
        match_day__division__season=season, status=MatchDayResult.Status.SUBMITTED
    ).select_related("match_day__division")
    context = {
        "season": season,
        "officer": officer,
        "settings": selectors.settings_lines(season),
        "divisions": season.divisions.select_related("parent").order_by("level", "name"),
        "waiting": waiting if officer else [],
        "calendar": selectors.calendar(season),
    }
    return render(request, "leagues/season_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def division_new(request, pk):
    season = _season(request, pk)
    require_officer(request.user, season)
    form = DivisionForm(request.POST or None, season=season)

    def write(data):
        return season_services.create_division(
            request.user,
            season,
            name=data["name"],
            level=data["level"],
            parent=data["parent"],
            promoted=data["promoted"],
            relegated=data["relegated"],
            reason=data["reason"],
        )

    return _form_view(request, form, write, title=_("New division"), back=season)


@login_required
def division_detail(request, pk):
    division = _division(request, pk)
    season = division.season
    table = selectors.table_of(division)
    context = {
        "division": division,
        "season": season,
        "table": table,
        "officer": is_officer(request.user, season),
        "match_days": division.match_days.select_related("host", "result").order_by("number"),
        "exports": export_links(division, public=False),
        "may_register": clubs_with_role(request.user, ORGANISER).exists()
        or is_officer(request.user, season),
    }
    return render(request, "leagues/division_detail.html", context)


@login_required
def division_export(request, pk, slug, fmt):
    return export_response(request, _division(request, pk), slug, fmt)


@login_required
@require_http_methods(["GET", "POST"])
def team_new(request, pk):
    division = _division(request, pk)
    season = division.season
    clubs = Club.objects.all() if is_officer(request.user, season) else None
    clubs = clubs if clubs is not None else clubs_with_role(request.user, ORGANISER)
    if not clubs.exists():
        raise PermissionDenied(_("Only a club's director registers its teams."))
    form = TeamForm(request.POST or None, clubs=clubs)

    def write(data):
        return season_services.register_team(
            request.user,
            division,
            data["club"],
            name=data["name"],
            captain_name=data["captain_name"],
            captain=data["captain_username"],
            reason=data["reason"],
        )

    return _form_view(request, form, write, title=_("Register a team"), back=division)


@login_required
@require_http_methods(["GET", "POST"])
def match_day_new(request, pk):
    division = _division(request, pk)
    require_officer(request.user, division.season)
    clubs = Club.objects.filter(league_teams__division=division).distinct()
    form = MatchDayForm(request.POST or None, division=division, clubs=clubs)

    def write(data):
        return matchday_services.create_match_day(
            request.user,
            division,
            number=data["number"],
            date=data["date"],
            host=data["host"],
            venue=data["venue"],
            teams=data["teams"],
            series_count=data["series_count"],
            reason=data["reason"],
        )

    return _form_view(request, form, write, title=_("New match day"), back=division)


def _club_players(team: Team):
    return Player.objects.filter(
        memberships__club=team.club, memberships__valid_until__isnull=True
    ).order_by("sort_key")


@login_required
@require_http_methods(["GET", "POST"])
def team_detail(request, pk):
    team = _team(request, pk)
    season = team.division.season
    may_edit = is_director(request.user, team.club_id) or is_officer(request.user, season)
    form = RosterForm(request.POST or None, players=_club_players(team)) if may_edit else None
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(_("Only a director of the club changes its roster."))
        if form.is_valid():
            try:
                season_services.add_to_roster(
                    request.user,
                    team,
                    form.cleaned_data["player"],
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("Saved."))
                return redirect(team.get_absolute_url())
    context = {
        "team": team,
        "season": season,
        "detail": selectors.team_detail(team),
        "form": form,
        "may_edit": may_edit,
        "officer": is_officer(request.user, season),
        "min_roster": season.settings.roster_min,
    }
    return render(request, "leagues/team_detail.html", context)


@login_required
@require_POST
def roster_remove(request, pk):
    entry = get_object_or_404(RosterEntry.objects.select_related("team__division__season"), pk=pk)
    require_see(request.user, entry.team.division.season)
    try:
        season_services.remove_from_roster(
            request.user, entry, reason=request.POST.get("reason", "")[:100]
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(entry.team.get_absolute_url())


@login_required
@require_POST
def team_withdraw(request, pk):
    team = _team(request, pk)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason."))
    else:
        season_services.withdraw_team(request.user, team, reason=form.cleaned_data["reason"])
    return redirect(team.get_absolute_url())


@login_required
@require_http_methods(["GET", "POST"])
def match_day_detail(request, pk):
    day = _match_day(request, pk)
    season = day.division.season
    teams = list(day.teams.select_related("club").order_by("name"))
    forms_by_team = {}
    for team in teams:
        if can_name_lineup(request.user, team):
            roster = Player.objects.filter(league_rosters__team=team).order_by("sort_key")
            data = request.POST if request.POST.get("team") == str(team.pk) else None
            initial = {
                "players": list(day.lineup.filter(team=team).values_list("player", flat=True))
            }
            forms_by_team[team.pk] = LineupForm(
                data, roster=roster, initial=initial, prefix=f"t{team.pk}"
            )
    if request.method == "POST":
        team_id = parse_int(request.POST.get("team"))  # ("²" is a digit, not an int)
        form = forms_by_team.get(team_id)
        if form is None:
            raise PermissionDenied(_("You may not name this line-up."))
        if form.is_valid():
            team = next(t for t in teams if t.pk == team_id)
            try:
                matchday_services.set_lineup(
                    request.user,
                    day,
                    team,
                    list(form.cleaned_data["players"]),
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(
                    request, _("The line-up of “%(team)s” is saved.") % {"team": team.name}
                )
                return redirect(day.get_absolute_url())
    detail = selectors.match_day_detail(day)
    for item in detail["teams"]:
        item["form"] = forms_by_team.get(item["team"].pk)
    officer = is_officer(request.user, season)
    result = detail["result"]
    context = {
        "day": day,
        "season": season,
        "detail": detail,
        "may_run": can_run_day(request.user, day),
        # the event's own pages are the host club's: linked only for its members
        "host_member": has_role(request.user, day.host, VIEWER),
        "officer": officer,
        "problems": matchday_services.result_problems(day) if day.event_id else [],
        "decide_form": DecideForm()
        if officer and result and result.status == "submitted"
        else None,
    }
    return render(request, "leagues/match_day_detail.html", context)


def _day_action(request, pk, action):
    day = _match_day(request, pk)
    try:
        action(day)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Saved."))
    return redirect(day.get_absolute_url())


@login_required
@require_POST
def match_day_open(request, pk):
    return _day_action(request, pk, lambda day: matchday_services.open_match_day(request.user, day))


@login_required
@require_POST
def match_day_submit(request, pk):
    return _day_action(request, pk, lambda day: matchday_services.submit_result(request.user, day))


@login_required
@require_POST
def match_day_decide(request, pk):
    form = DecideForm(request.POST)

    def decide(day):
        result = getattr(day, "result", None)
        if result is None:
            raise ValidationError(_("This match day has no result yet."))
        if not form.is_valid():
            raise ValidationError(_("Choose approve or reject."))
        matchday_services.decide_result(
            request.user,
            result,
            approve=form.cleaned_data["decision"] == "approve",
            note=form.cleaned_data["note"],
        )

    return _day_action(request, pk, decide)
