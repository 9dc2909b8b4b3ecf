"""Standings pages, the public page, the hall display, the player page, the season ranking
and the read-only JSON. Thin: ``scoring.ranking`` reads, ``scoring.standings_services``
writes."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from clubs.models import Player
from clubs.permissions import ORGANISER, has_role, require_role
from romme.safety import safe_next
from tournaments.models import Event, Season, Series

from . import ranking, standings_services
from . import standings as core
from .messages_rules import tie_policy_text
from .standings_tables import SeasonTable, StandingTable, season_rows, table_rows

SCORE_METRICS = ("hands_won", "hand_rommes", "fewest_hand_points", "last_series", "best_series")


# --------------------------------------------------------------------------- helpers


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _selection(request, event_series: list[dict] | None = None) -> dict:
    """competition, scope and number from the query string (unknown values fall back)."""
    competition = request.GET.get("competition", ranking.INDIVIDUAL)
    if competition not in ranking.COMPETITIONS:
        competition = ranking.INDIVIDUAL
    scope = request.GET.get("scope", ranking.OVERALL)
    if scope not in ranking.SCOPES:
        scope = ranking.OVERALL
    number = _int(request.GET.get("n"))
    if scope != ranking.OVERALL and number is None:
        scope = ranking.OVERALL
    return {"competition": competition, "scope": scope, "number": number}


def _tabs(base_url: str, selection: dict) -> dict:
    """Links of the competition tabs and the scope selectors, keeping the other choices."""

    def link(**changes):
        params = {**selection, **changes}
        query = f"competition={params['competition']}&scope={params['scope']}"
        if params["scope"] != ranking.OVERALL and params["number"] is not None:
            query += f"&n={params['number']}"
        return f"{base_url}?{query}"

    return {
        "competitions": [
            {
                "key": key,
                "label": label,
                "url": link(competition=key),
                "active": key == selection["competition"],
            }
            for key, label in ranking.COMPETITION_LABELS.items()
        ],
        "link": link,
    }


def _scope_links(standing: ranking.EventStanding, base_url: str, selection: dict) -> list[dict]:
    def link(scope, number=None):
        query = f"competition={selection['competition']}&scope={scope}"
        if number is not None:
            query += f"&n={number}"
        return f"{base_url}?{query}"

    active = (selection["scope"], selection["number"])
    out = [
        {
            "label": _("Overall"),
            "url": link(ranking.OVERALL),
            "active": active[0] == ranking.OVERALL,
        }
    ]
    if len(standing.days) > 1:
        for day in standing.days:
            out.append(
                {
                    "label": _("Day %(day)d") % {"day": day},
                    "url": link(ranking.DAY, day),
                    "active": active == (ranking.DAY, day),
                }
            )
    for s in standing.series:
        if s["kind"] != Series.Kind.REGULAR:
            continue
        out.append(
            {
                "label": _("Series %(number)d") % {"number": s["number"]},
                "url": link(ranking.SERIES, s["number"]),
                "active": active == (ranking.SERIES, s["number"]),
            }
        )
    return out


def _table(request, standing, rows, *, link_players):
    metrics = [k for k in standing.chain if k in SCORE_METRICS or k == "lots"]
    series_numbers = standing.counted_series if standing.scope != ranking.SERIES else []
    table = StandingTable(
        table_rows(standing, rows),
        series_numbers=series_numbers,
        metrics=metrics,
        link_players=link_players,
    )
    RequestConfig(request, paginate=False).configure(table)
    return table


def _clubs_of(standing) -> list[tuple[int, str]]:
    seen = {}
    for row in standing.rows:
        if row.club_id:
            seen[row.club_id] = row.club
        for member in row.members:
            if member.get("club_id"):
                seen[member["club_id"]] = member["club"]
    return sorted(seen.items(), key=lambda kv: kv[1])


def _context(request, event, standing, *, base_url, public):
    selection = {
        "competition": standing.competition,
        "scope": standing.scope,
        "number": standing.number,
    }
    club_id = _int(request.GET.get("club"))
    rows = ranking.filter_by_club(standing.rows, club_id)
    return {
        "event": event,
        "standing": standing,
        "table": _table(request, standing, rows, link_players=not public),
        "tabs": _tabs(base_url, selection)["competitions"],
        "scopes": _scope_links(standing, base_url, selection),
        "selection": selection,
        "clubs": _clubs_of(standing),
        "club_id": club_id,
        "chain_labels": [ranking.metric_label(k) for k in standing.chain],
        "public": public,
    }


# --------------------------------------------------------------------------- event standings


@login_required
@require_GET
def event_standings(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    director = ranking.is_director(request.user, event)
    insider = ranking.sees_unpublished(request.user, event)
    organiser = has_role(request.user, event.club_id, ORGANISER)
    provisional = director and request.GET.get("provisional") == "1"
    selection = _selection(request)
    standing = ranking.event_standing(
        event,
        **selection,
        include_entered=provisional,
        only_published=not insider,
    )
    context = _context(
        request,
        event,
        standing,
        base_url=reverse("standings:event", args=[event.pk]),
        public=False,
    )
    context.update(
        {
            "director": director,
            "insider": insider,
            "organiser": organiser,
            "provisional_requested": provisional,
            "playoffs": ranking.playoffs(event) if insider else [],
        }
    )
    return render(request, "standings/event.html", context)


@login_required
@require_POST
def series_publish(request, pk):
    series = get_object_or_404(Series.objects.select_related("event__club"), pk=pk)
    published = request.POST.get("published") == "1"
    standings_services.set_series_published(request.user, series, published)
    if published:
        messages.success(request, _("Series %(number)d published.") % {"number": series.number})
    else:
        messages.success(
            request, _("Series %(number)d taken off the public pages.") % {"number": series.number}
        )
    return redirect(safe_next(request, reverse("standings:event", args=[series.event_id])))


@login_required
@require_POST
def playoff_create(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    ids = [_int(v) for v in request.POST.getlist("participant")]
    try:
        series = standings_services.create_playoff(request.user, event, [i for i in ids if i])
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("standings:event", event.pk)
    messages.success(
        request,
        _("Playoff created as series %(number)d: enter its sheet like any other.")
        % {"number": series.number},
    )
    return redirect("scoring:sheet_entry", series.pk, 1)


class TieBreakForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    prize_lines = forms.CharField(
        label=gettext_lazy("Prize lines"),
        required=False,
        help_text=gettext_lazy("Places that win a prize or qualify, e.g. “1, 3, 8”."),
    )

    def __init__(self, *args, chain=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "–")] + [
            (key, ranking.metric_label(key)) for key in core.METRICS if key != "total"
        ]
        tie_breaks = [k for k in chain if k != "total"]
        for i in range(len(core.METRICS) - 1):
            self.fields[f"step_{i + 1}"] = forms.ChoiceField(
                label=gettext_lazy("Tie-break %(step)d") % {"step": i + 1},
                choices=choices,
                required=False,
                initial=tie_breaks[i] if i < len(tie_breaks) else "",
            )

    def chain(self) -> list[str]:
        steps = [self.cleaned_data.get(f"step_{i + 1}") for i in range(len(core.METRICS) - 1)]
        return ["total", *(s for s in steps if s)]

    def lines(self) -> list[int] | None:
        text = self.cleaned_data.get("prize_lines", "").replace(";", ",")
        if not text.strip():
            return None
        return [_int(x.strip(), -1) for x in text.split(",") if x.strip()]


@login_required
def tie_break(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    form = TieBreakForm(
        request.POST or None,
        chain=event.tie_break_chain,
        initial={"prize_lines": ", ".join(str(x) for x in event.prize_lines or [1])},
    )
    if request.method == "POST" and form.is_valid():
        try:
            reason = form.cleaned_data["reason"]
            standings_services.change_tie_break(request.user, event, form.chain(), reason)
            lines = form.lines()
            if lines is not None and lines != list(event.prize_lines or []):
                standings_services.set_prize_lines(request.user, event, lines, reason)
        except ValidationError as error:
            for field, errors in error.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            messages.success(request, _("Saved."))
            return redirect("standings:event", event.pk)
    history = [
        {
            "date": record.history_date,
            "user": record.history_user,
            "reason": record.history_change_reason,
            "chain": [ranking.metric_label(k) for k in (record.tie_break_chain or [])],
            "lines": record.prize_lines,
        }
        for record in event.history.select_related("history_user").order_by("-history_date")[:30]
    ]
    # Keep only the records where the chain or the lines changed.
    changes = [
        h
        for i, h in enumerate(history)
        if i + 1 == len(history)
        or (h["chain"], h["lines"]) != (history[i + 1]["chain"], history[i + 1]["lines"])
    ]
    return render(
        request,
        "standings/tie_break.html",
        {
            "event": event,
            "form": form,
            "changes": changes,
            "has_results": standings_services.has_results(event),
            "ties_policy": event.ruleset.ties,
            "ties_policy_text": tie_policy_text(event.ruleset.ties),
            "metrics": [
                (ranking.metric_label(k), ranking.METRIC_DESCRIPTIONS.get(k, ""))
                for k in core.METRICS
            ],
        },
    )


# --------------------------------------------------------------------------- public


@require_GET
def public_standings(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    standing = ranking.event_standing(event, **_selection(request), only_published=True)
    context = _context(
        request,
        event,
        standing,
        base_url=reverse("standings:public", args=[event.pk]),
        public=True,
    )
    return render(request, "standings/public.html", context)


DISPLAY_ROWS = 20


@require_GET
def display(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    panels = []
    for competition in ranking.COMPETITIONS:
        standing = ranking.event_standing(event, competition=competition, only_published=True)
        if not standing.rows:
            continue
        # Every row is shown: larger fields are paged through, DISPLAY_ROWS rows a page.
        pages = (len(standing.rows) + DISPLAY_ROWS - 1) // DISPLAY_ROWS
        for start in range(0, len(standing.rows), DISPLAY_ROWS):
            rows = [
                {
                    "rank": row.rank,
                    "name": row.name,
                    "club": row.club,
                    "total": row.total,
                    "cells": [row.series_totals.get(n, "–") for n in standing.counted_series],
                }
                for row in standing.rows[start : start + DISPLAY_ROWS]
            ]
            panels.append(
                {
                    "title": ranking.COMPETITION_LABELS[competition],
                    "page": start // DISPLAY_ROWS + 1,
                    "pages": pages,
                    "rows": rows,
                    "series": standing.counted_series,
                }
            )
    return render(
        request,
        "standings/display.html",
        {"event": event, "panels": panels, "refresh_seconds": 30, "rotate_seconds": 10},
    )


# --------------------------------------------------------------------------- JSON


def _row_json(row: ranking.StandingRow, competition: str) -> dict:
    data = {
        "rank": row.rank,
        "total": row.total,
        "tie_break": {k: v for k, v in row.values.items() if k != "total"},
        "provisional": row.provisional,
        "reason": None
        if row.reason is None
        else {"metric": row.reason.metric, "this": row.reason.this, "next": row.reason.next},
    }
    if competition == ranking.INDIVIDUAL:
        data["player"] = {
            "id": row.player_id,
            "participant_id": row.participant_id,
            "name": row.name,
            "club": row.club,
        }
    else:
        data["group"] = {"id": row.group_id, "name": row.name, "members": row.members}
    return data


@require_GET
def api_standings(request, pk):
    """``GET /api/events/<id>/standings?competition=individual|pair|team&series=<n>``.

    Readers outside the event's club get published series only; ``provisional=1`` adds
    unconfirmed sheets for the directors alone (403 otherwise; ``scoring.visibility``).
    """
    event = get_object_or_404(Event, pk=pk)
    competition = request.GET.get("competition", ranking.INDIVIDUAL)
    if competition not in ranking.COMPETITIONS:
        return JsonResponse({"error": "unknown competition"}, status=400)
    director = ranking.is_director(request.user, event)
    insider = ranking.sees_unpublished(request.user, event)
    wants_provisional = request.GET.get("provisional") == "1"
    if wants_provisional and not director:
        return JsonResponse({"error": "provisional standings are for the director"}, status=403)
    number = request.GET.get("series")
    scope = ranking.OVERALL
    if number not in (None, ""):
        number = _int(number)
        if number is None:
            return JsonResponse({"error": "series must be a number"}, status=400)
        scope = ranking.SERIES
    else:
        number = None
    standing = ranking.event_standing(
        event,
        competition=competition,
        scope=scope,
        number=number,
        include_entered=wants_provisional,
        only_published=not insider,
    )
    if scope == ranking.SERIES and number not in standing.counted_series:
        raise Http404("no such series")
    return JsonResponse(
        {
            "event": {"id": event.pk, "name": event.name},
            "competition": competition,
            "series": number,
            "series_counted": standing.counted_series,
            "provisional": standing.provisional,
            "chain": list(standing.chain),
            "ties": {"policy": standing.ties_policy, "text": standing.ties_policy_text},
            "lots_seed": standing.lots_seed,
            "rows": [_row_json(r, competition) for r in standing.rows],
        },
        json_dumps_params={"ensure_ascii": False},
    )


# --------------------------------------------------------------------------- player


def _chart(results: list[ranking.PlayerSeries], width=640, height=220, pad=36) -> dict | None:
    """Coordinates of an inline SVG line chart of the series totals (server-rendered)."""
    if not results:
        return None
    values = [r.total for r in results]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    step = (width - 2 * pad) / max(1, len(values) - 1)

    def y(v):
        return round(pad + (high - v) * (height - 2 * pad) / span, 1)

    points = [
        {
            "x": round(pad + i * step, 1),
            "y": y(r.total),
            "label": f"{r.event_name} · "
            + _("Series %(number)d") % {"number": r.number}
            + f": {r.total}",
        }
        for i, r in enumerate(results)
    ]
    return {
        "width": width,
        "height": height,
        "points": points,
        "path": " ".join(f"{p['x']},{p['y']}" for p in points),
        "zero": y(0),
        "high": high,
        "low": low,
        "y_high": y(high),
        "y_low": y(low),
        "right": width - pad,
        "pad": pad,
    }


@login_required
@require_GET
def player_results(request, pk):
    player = get_object_or_404(Player, pk=pk)
    results = ranking.player_results(player, request.user)
    return render(
        request,
        "standings/player.html",
        {"player": player, "results": results, "chart": _chart(results)},
    )


# --------------------------------------------------------------------------- season


class SeasonSettingsForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["ranking_mode", "minimum_series", "drop_start", "drop_every", "drop_maximum"]


@login_required
def season_ranking(request, pk):
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    organiser = has_role(request.user, season.club_id, ORGANISER)
    form = None
    if organiser:
        form = SeasonSettingsForm(request.POST or None, instance=season)
        if request.method == "POST" and form.is_valid():
            standings_services.update_season_ranking(request.user, season, **form.cleaned_data)
            messages.success(request, _("Saved."))
            return redirect("standings:season", season.pk)
    elif request.method == "POST":
        raise PermissionDenied
    insider = ranking.sees_unpublished(request.user, season.club_id)
    standing = ranking.season_standing(season, only_published=not insider)
    table = SeasonTable(season_rows(standing))
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "standings/season.html",
        {"season": season, "standing": standing, "table": table, "form": form},
    )


__all__ = [
    "api_standings",
    "display",
    "event_standings",
    "player_results",
    "playoff_create",
    "public_standings",
    "season_ranking",
    "series_publish",
    "tie_break",
]
