"""Standings pages, the public page, the player page and the season ranking (the hall
display is `display.py`, the JSON `api.py`). Thin: ``selectors`` read, ``services`` write."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST, require_safe
from django_tables2 import RequestConfig

from clubs.models import Player
from clubs.permissions import ORGANISER, has_role, require_role
from common.forms import add_validation_errors, parse_int
from common.safety import safe_next
from rules.standings import metrics as standings_metrics
from scoring.standings import categories as standing_categories
from scoring.standings import labels, selectors, series_tables, services
from scoring.standings import season as standings_season
from scoring.standings.charts import results_chart
from scoring.standings.forms import SeasonSettingsForm, TieBreakForm
from scoring.standings.labels import tie_policy_text
from scoring.standings.public import LANGUAGE_PARAM, public_event, public_view
from scoring.standings.public import version_response as public_version_response
from scoring.standings.tables import SeasonTable, StandingTable, season_rows, table_rows
from tournaments.models import Category, Event, Season, Series

# --------------------------------------------------------------------------- helpers


def _selection(request, event_series: list[dict] | None = None) -> dict:
    """competition, scope and number from the query string (unknown values fall back)."""
    competition = request.GET.get("competition", labels.INDIVIDUAL)
    if competition not in labels.COMPETITIONS:
        competition = labels.INDIVIDUAL
    scope = request.GET.get("scope", labels.OVERALL)
    if scope not in labels.SCOPES:
        scope = labels.OVERALL
    number = parse_int(request.GET.get("n"))
    if scope != labels.OVERALL and number is None:
        scope = labels.OVERALL
    return {"competition": competition, "scope": scope, "number": number}


def _tabs(base_url: str, selection: dict, suffix: str = "") -> dict:
    """Links of the competition tabs and the scope selectors, keeping the other choices."""

    def link(**changes):
        params = {**selection, **changes}
        query = f"competition={params['competition']}&scope={params['scope']}"
        if params["scope"] != labels.OVERALL and params["number"] is not None:
            query += f"&n={params['number']}"
        return f"{base_url}?{query}{suffix}"

    return {
        "competitions": [
            {
                "key": key,
                "label": label,
                "url": link(competition=key),
                "active": key == selection["competition"],
            }
            for key, label in labels.COMPETITION_LABELS.items()
        ],
        "link": link,
    }


def _scope_links(
    standing: selectors.EventStanding, base_url: str, selection: dict, suffix: str = ""
) -> list[dict]:
    def link(scope, number=None):
        query = f"competition={selection['competition']}&scope={scope}"
        if number is not None:
            query += f"&n={number}"
        return f"{base_url}?{query}{suffix}"

    active = (selection["scope"], selection["number"])
    out = [
        {
            "key": (labels.OVERALL, None),
            "label": _("Overall"),
            "url": link(labels.OVERALL),
            "active": active[0] == labels.OVERALL,
        }
    ]
    if len(standing.days) > 1:
        for day in standing.days:
            out.append(
                {
                    "key": (labels.DAY, day),
                    "label": _("Day %(day)d") % {"day": day},
                    "url": link(labels.DAY, day),
                    "active": active == (labels.DAY, day),
                }
            )
    for s in standing.series:
        if s["kind"] != Series.Kind.REGULAR:
            continue
        out.append(
            {
                "key": (labels.SERIES, s["number"]),
                "series_id": s["id"],
                "label": _("Series %(number)d") % {"number": s["number"]},
                "url": link(labels.SERIES, s["number"]),
                "active": active == (labels.SERIES, s["number"]),
            }
        )
    return out


# The one-click prints beside a series or day tab (scoring/exports/exporters/): the A4
# standing and the A3 wall list of that series, or of that day (named by its first series).
SCOPE_PRINTS = {
    labels.SERIES: ("series-standings", "series-standings-wall"),
    labels.DAY: ("day-standings", "day-standings-wall"),
}
OVERALL_PRINTS = ("standings", "standings-wall")
# Beside a category tab of the overall standing: that category's own A4 print and A3 list.
CATEGORY_PRINTS = ("category-standing", "category-standing-wall")


def _add_prints(scopes: list[dict], standing: selectors.EventStanding) -> None:
    """Give the overall tab and each series and day tab the URLs of its A4 print and A3
    wall list."""
    first_of_day = {}
    for s in standing.series:
        if s["kind"] == Series.Kind.REGULAR:
            first_of_day.setdefault(s["day"], s["id"])
    for scope in scopes:
        kind, number = scope["key"]
        if kind == labels.OVERALL:
            # The overall tables (individual, pairs, teams) and the overall wall list.
            scope["print_url"], scope["wall_url"] = (
                reverse("exports:export", args=["event", standing.event.pk, slug, "pdf"])
                for slug in OVERALL_PRINTS
            )
            continue
        if kind not in SCOPE_PRINTS:
            continue
        series_id = scope["series_id"] if kind == labels.SERIES else first_of_day[number]
        pdf, wall = (
            reverse("exports:export", args=["series", series_id, slug, "pdf"])
            for slug in SCOPE_PRINTS[kind]
        )
        scope["print_url"], scope["wall_url"] = pdf, wall


def _table(request, standing, rows, *, link_players):
    # every metric of the chain but the total (already a column of its own)
    metrics = [k for k in standing.chain if k != "total" and k in standings_metrics.METRICS]
    series_numbers = standing.counted_series if standing.scope != labels.SERIES else []
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


def _context(request, event, standing, *, base_url, public, categories=None):
    selection = {
        "competition": standing.competition,
        "scope": standing.scope,
        "number": standing.number,
    }
    club_id = parse_int(request.GET.get("club"))
    # A category tab (standing_categories): its members re-ranked among themselves.
    cats = standing_categories.page_cut(
        event, standing, request.GET.get("category"), categories=categories
    )
    cut = cats["cut"]
    rows = selectors.filter_by_club(cut.rows if cut else standing.rows, club_id)
    # A public page keeps the language chosen by its GET link (?lang=) in every link.
    lang = request.GET.get(LANGUAGE_PARAM, "") if public else ""
    suffix = f"&{LANGUAGE_PARAM}={lang}" if lang else ""
    link = _tabs(base_url, selection, suffix)["link"]
    in_category = f"&category={cut.category.id}" if cut else ""
    return {
        "category": cut,
        "category_tabs": standing_categories.category_links(
            cats["categories"], cut, lambda c: link() + (f"&category={c}" if c else "")
        ),
        "event": event,
        "standing": standing,
        "table": _table(request, standing, rows, link_players=not public),
        "tabs": _tabs(base_url, selection, suffix)["competitions"],
        "scopes": _scope_links(standing, base_url, selection, suffix + in_category),
        "lang": lang,
        "selection": selection,
        "clubs": _clubs_of(standing),
        "club_id": club_id,
        "chain_labels": [labels.metric_label(k) for k in standing.chain],
        "public": public,
        "incomplete": [
            labels.incomplete_text(s, provisional=standing.include_entered)
            for s in standing.incomplete_series
        ],
    }


# --------------------------------------------------------------------------- event standings


@login_required
@require_GET
def event_standings(request, pk):
    has_categories = Exists(Category.objects.filter(event=OuterRef("pk")))  # no extra query
    event = get_object_or_404(
        Event.objects.select_related("club").annotate(has_categories=has_categories), pk=pk
    )
    director = selectors.is_director(request.user, event)
    insider = selectors.sees_unpublished(request.user, event)
    organiser = has_role(request.user, event.club_id, ORGANISER)
    provisional = director and request.GET.get("provisional") == "1"
    selection = _selection(request)
    standing = selectors.event_standing(
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
        categories=None if event.has_categories else [],
    )
    # The prints count unpublished series: they need the role that sees them (the
    # exporters' permission, the scorer role; tests/exports/test_scope_prints.py).
    if insider:
        _add_prints(context["scopes"], standing)
        if standing.scope == labels.OVERALL:  # a category's prize standing is the overall one
            for tab in context["category_tabs"][1:]:
                tab["print_url"], tab["wall_url"] = (
                    reverse("exports:export", args=["category", tab["category_id"], slug, "pdf"])
                    for slug in CATEGORY_PRINTS
                )
    context.update(
        {
            "director": director,
            "insider": insider,
            "organiser": organiser,
            "provisional_requested": provisional,
            # The playoff tables' query only when the event has a playoff series.
            "playoffs": series_tables.playoffs(event)
            if insider and any(s["kind"] == Series.Kind.PLAYOFF for s in standing.series)
            else [],
        }
    )
    return render(request, "standings/event.html", context)


@login_required
@require_POST
def series_publish(request, pk):
    series = get_object_or_404(Series.objects.select_related("event__club"), pk=pk)
    published = request.POST.get("published") == "1"
    back = safe_next(request, reverse("standings:event", args=[series.event_id]))
    ask = request.POST.get("open_tables") != "ok"
    try:
        services.set_series_published(request.user, series, published, ask_if_open=ask)
    except services.OpenTables as open_tables:
        context = {"series": series, "open_tables": open_tables.numbers, "back": back}
        return render(request, "standings/publish_open.html", context)
    if published:
        messages.success(request, _("Series %(number)d published.") % {"number": series.number})
    else:
        messages.success(
            request, _("Series %(number)d taken off the public pages.") % {"number": series.number}
        )
    return redirect(back)


@login_required
@require_POST
def playoff_create(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    ids = [parse_int(v) for v in request.POST.getlist("participant")]
    try:
        series = services.create_playoff(request.user, event, [i for i in ids if i])
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
            services.update_tie_break(
                request.user, event, form.chain(), form.lines(), form.cleaned_data["reason"]
            )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("standings:event", event.pk)
    history = [
        {
            "date": record.history_date,
            "user": record.history_user,
            "reason": record.history_change_reason,
            "chain": [labels.metric_label(k) for k in (record.tie_break_chain or [])],
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
            "has_results": services.has_results(event),
            "ties_policy": event.ruleset.ties,
            "ties_policy_text": tie_policy_text(event.ruleset.ties),
            "metrics": [
                (labels.metric_label(k), labels.metric_description(k))
                for k in standings_metrics.METRICS
            ],
        },
    )


# --------------------------------------------------------------------------- public


def _language_links(request, base_url: str) -> list[dict]:
    """GET links to the page in each language: no form, so no CSRF cookie on public pages."""
    current = translation.get_language()
    links = []
    for code, name in settings.LANGUAGES:
        query = request.GET.copy()
        query[LANGUAGE_PARAM] = code
        links.append(
            {
                "code": code,
                "name": translation.get_language_info(code)["name_local"] or name,
                "url": f"{base_url}?{query.urlencode()}",
                "active": code == current,
            }
        )
    return links


PUBLIC_PARAMS = ("competition", "scope", "n", "club", "sort", "category")


@require_safe
@public_view("page", PUBLIC_PARAMS)
def public_standings(request, pk):
    event = public_event(request, pk)
    standing = selectors.event_standing(event, **_selection(request), only_published=True)
    base_url = reverse("standings:public", args=[event.pk])
    context = _context(request, event, standing, base_url=base_url, public=True)
    context["languages"] = _language_links(request, base_url)
    context["version_url"] = reverse("standings:version", args=[event.pk])
    return render(request, "standings/public.html", context)


@require_safe
def results_version(request, pk):
    """The results version of an event as JSON, polled by the display and the public page:
    a counter, nothing about what changed."""
    return public_version_response(request, pk)


# --------------------------------------------------------------------------- JSON


@login_required
@require_GET
def player_results(request, pk):
    player = get_object_or_404(Player, pk=pk)
    results = standings_season.player_results(player, request.user)
    return render(
        request,
        "standings/player.html",
        {"player": player, "results": results, "chart": results_chart(results)},
    )


# --------------------------------------------------------------------------- season


@login_required
def season_ranking(request, pk):
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    organiser = has_role(request.user, season.club_id, ORGANISER)
    form = None
    if organiser:
        form = SeasonSettingsForm(request.POST or None, instance=season)
        if request.method == "POST" and form.is_valid():
            services.update_season_ranking(request.user, season, **form.cleaned_data)
            messages.success(request, _("Saved."))
            return redirect("standings:season", season.pk)
    elif request.method == "POST":
        raise PermissionDenied
    insider = selectors.sees_unpublished(request.user, season.club_id)
    standing = standings_season.season_standing(season, only_published=not insider)
    table = SeasonTable(season_rows(standing))
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "standings/season.html",
        {"season": season, "standing": standing, "table": table, "form": form},
    )
