"""The public league pages (issue 37, point 6): anonymous, German first, readable at 390 px,
printable. A season that is not public answers 404; results count only once approved;
players hidden from public lists (federation PublicHiding, DSGVO) show as "nicht
öffentlich" without name. Pages and JSON are cached per season version
(leagues.public.cache)."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from federation.models import PublicHiding
from leagues import selectors
from leagues.exports import export_links, export_response
from leagues.models import Division, LeagueSeason, MatchDay, MatchDayResult, Team
from leagues.public.cache import season_view


def _hidden(player_ids) -> set[int]:
    return set(
        PublicHiding.objects.filter(player_id__in=list(player_ids)).values_list(
            "player_id", flat=True
        )
    )


@require_safe
def index(request):
    seasons = LeagueSeason.objects.filter(public=True).select_related("association")
    return render(request, "leagues/public_index.html", {"seasons": seasons})


@require_safe
@season_view("season", LeagueSeason)
def season(request, pk):
    season = get_object_or_404(LeagueSeason.objects.select_related("association"), pk=pk)
    context = {
        "season": season,
        "settings": selectors.settings_lines(season),
        "divisions": season.divisions.order_by("level", "name"),
        "calendar": selectors.calendar(season),
    }
    return render(request, "leagues/public_season.html", context)


def _public_table(division):
    table = selectors.table_of(division)
    hidden = _hidden(p.player_id for p in table.players)
    for p in table.players:
        if p.player_id in hidden:
            p.name, p.hidden = _("not public"), True
    return table


@require_safe
@season_view("division", Division)
def division(request, pk):
    division = get_object_or_404(Division.objects.select_related("season__association"), pk=pk)
    context = {
        "division": division,
        "season": division.season,
        "table": _public_table(division),
        "match_days": division.match_days.select_related("host", "result").order_by("number"),
        "exports": export_links(division, public=True),
    }
    return render(request, "leagues/public_division.html", context)


@require_safe
def division_export(request, pk, slug, fmt):
    division = get_object_or_404(
        Division.objects.select_related("season__association"), pk=pk, season__public=True
    )
    return export_response(request, division, slug, fmt)


@require_safe
@season_view("division-json", Division)
def division_json(request, pk):
    division = get_object_or_404(Division.objects.select_related("season"), pk=pk)
    data = selectors.table_json(_public_table(division))
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})


@require_safe
@season_view("match-day", MatchDay)
def match_day(request, pk):
    day = get_object_or_404(MatchDay.objects.select_related("division__season", "host"), pk=pk)
    result = getattr(day, "result", None)
    if result is not None and result.status != MatchDayResult.Status.APPROVED:
        result = None
    detail = selectors.match_day_detail(day) if result else {"teams": [], "team_rows": []}
    players = [r for item in detail["teams"] for r in item["results"]]
    hidden = _hidden(r.player_id for r in players)
    for item in detail["teams"]:
        for r in item["results"]:
            r.public_name = _("not public") if r.player_id in hidden else r.player.full_name
    return render(
        request,
        "leagues/public_match_day.html",
        {"day": day, "season": day.division.season, "result": result, "detail": detail},
    )


@require_safe
@season_view("team", Team)
def team(request, pk):
    team = get_object_or_404(Team.objects.select_related("division__season", "club"), pk=pk)
    detail = selectors.team_detail(team)
    ids = {e.player_id for e in detail["roster"]} | {
        p.pk for d in detail["days"] for p in d["lineup"]
    }
    hidden = _hidden(ids)
    for d in detail["days"]:
        result = d["result"]
        d["result"] = result if result and result.result.status == "approved" else None
        d["names"] = [_("not public") if p.pk in hidden else p.full_name for p in d["lineup"]]
    roster = [
        _("not public") if e.player_id in hidden else e.player.full_name for e in detail["roster"]
    ]
    return render(
        request,
        "leagues/public_team.html",
        {"team": team, "season": team.division.season, "roster": roster, "days": detail["days"]},
    )
