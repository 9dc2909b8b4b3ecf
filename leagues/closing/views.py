"""The officer's end of season: the proposal per division (table, proposed move of each
team, the notes), a choice per team to change it, the reason and the next season's name."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.forms import parse_int
from leagues.closing.services import KINDS, proposal
from leagues.closing.services import close_season as close
from leagues.models import LeagueSeason
from leagues.permissions import require_officer
from leagues.views import _season


def _choices(plan, team) -> list[tuple[str, str]]:
    level = {d.pk: d.level for d in plan.divisions}[team.division_id]
    out = []
    for d in plan.divisions:
        kind = {level - 1: KINDS.UP, level: KINDS.STAY, level + 1: KINDS.DOWN}.get(d.level)
        if kind:
            out.append((f"{kind}:{d.pk}", f"{KINDS(kind).label}: {d.name}"))
    out.append((f"{KINDS.OUT}:", str(KINDS.OUT.label)))
    return out


def _parse(value: str):
    kind, _sep, target = (value or "").partition(":")
    return kind, parse_int(target)


@login_required
@require_http_methods(["GET", "POST"])
def close_season(request, pk):
    season = _season(request, pk)
    require_officer(request.user, season)
    errors = []
    try:
        plan = proposal(season)
    except ValidationError as error:
        plan, errors = None, error.messages
    if (
        request.method == "POST"
        and plan is not None
        and season.status != LeagueSeason.Status.CLOSED
    ):
        changes = {
            team_id: _parse(request.POST.get(f"move_{team_id}", "")) for team_id in plan.teams
        }
        try:
            nxt = close(
                request.user,
                season,
                changes=changes,
                reason=request.POST.get("reason", "")[:100],
                next_name=request.POST.get("next_name", "").strip()[:200] or f"{season.name} +1",
                next_first_year=season.first_year + 1,
                next_last_year=season.last_year + 1,
            )
        except ValidationError as error:
            errors = error.messages
        else:
            messages.success(request, _("The season is closed; the next one has been created."))
            return redirect(nxt.get_absolute_url())
    rows = []
    if plan is not None:
        for division in plan.divisions:
            lines = []
            for line in plan.tables[division.pk]:
                team = plan.teams[line.team_id]
                kind, target = plan.moves[line.team_id]
                lines.append(
                    {
                        "line": line,
                        "team": team,
                        "choices": _choices(plan, team),
                        "proposed": f"{kind}:{target or ''}",
                    }
                )
            rows.append({"division": division, "lines": lines})
    context = {
        "season": season,
        "rows": rows,
        "notes": plan.notes if plan else [],
        "errors": errors,
    }
    return render(request, "leagues/close_season.html", context)
