"""Public federation pages (issue 27, point 6): anonymous, German first, readable on a phone
and printable. Thin: federation.public.selectors reads, federation.public.cache keys the
ranking pages on their newest snapshot. Non-public rankings and hidden players answer 404."""

from __future__ import annotations

import contextlib
import datetime as dt
from decimal import Decimal, InvalidOperation

import django_filters
from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from clubs.models import Club
from common.forms import parse_int
from federation.public import selectors as public
from federation.public.cache import LANGUAGE_PARAM, snapshot_view
from federation.rankings.public_lines import public_line, public_results
from tournaments.models import Participant

LIST_PAGE_SIZE = 200
ARCHIVE_PAGE_SIZE = 50


def language_links(request, base_url: str) -> list[dict]:
    """GET links to the page in each language: no form, so no CSRF cookie on public pages."""
    current = translation.get_language()
    links = []
    for code, name in settings.LANGUAGES:
        query = request.GET.copy()
        query[LANGUAGE_PARAM] = code
        query.pop("page", None)
        links.append(
            {
                "code": code,
                "name": translation.get_language_info(code)["name_local"] or name,
                "url": f"{base_url}?{query.urlencode()}",
                "active": code == current,
            }
        )
    return links


def _activate(request) -> None:
    """?lang= for the public pages that are not cached per snapshot."""
    code = request.GET.get(LANGUAGE_PARAM)
    if code:
        try:
            code = translation.get_supported_language_variant(code)
        except LookupError:
            return
        translation.activate(code)
        request.LANGUAGE_CODE = code


@require_safe
def index(request):
    _activate(request)
    return render(
        request,
        "federation/public/index.html",
        {
            "rankings": public.public_rankings(),
            "languages": language_links(request, reverse("federation_public:index")),
        },
    )


@require_safe
def calendar(request):
    _activate(request)
    context = public.calendar()
    context["languages"] = language_links(request, reverse("federation_public:calendar"))
    return render(request, "federation/public/calendar.html", context)


class ArchiveFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(
        label=gettext_lazy("Event"), field_name="status__event__name", lookup_expr="icontains"
    )
    club = django_filters.ModelChoiceFilter(
        label=gettext_lazy("Club"),
        field_name="status__event__club",
        queryset=Club.objects.order_by("name"),
        empty_label=gettext_lazy("all"),
    )
    year = django_filters.NumberFilter(
        label=gettext_lazy("Year"), field_name="status__event__start_date__year"
    )
    player = django_filters.CharFilter(label=gettext_lazy("Player"), method="filter_player")

    def filter_player(self, queryset, name, value):
        # By name only (a player number is not public), never a player hidden from the public.
        words = value.split()[:4]
        if not words:
            return queryset
        who = Q(player__public_hiding__isnull=True)
        for word in words:
            who &= Q(player__name_key__contains=word.casefold()[:40])
        played = Participant.objects.filter(who, event=OuterRef("status__event_id"))
        return queryset.filter(Exists(played))


@require_safe
def archive(request):
    _activate(request)
    found = ArchiveFilter(request.GET, queryset=public.approved_versions())
    rows = found.qs if found.is_valid() else public.approved_versions().none()
    page = Paginator(rows, ARCHIVE_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "federation/public/archive.html",
        {
            "filter": found,
            "page": page,
            "query": query.urlencode(),
            "languages": language_links(request, reverse("federation_public:archive")),
        },
    )


def _region(request, state):
    """The ?region= of a national ranking: (its regions, the chosen one or None); 404 for a
    region that is not one of them."""
    regions = public.ranking_regions(state)
    wanted = request.GET.get("region")
    if wanted in (None, ""):
        return regions, None
    chosen = next((r for r in regions if r.pk == parse_int(wanted)), None)
    if chosen is None:
        raise Http404(_("This ranking has no such regional association."))
    return regions, chosen


def number_text(value) -> str:
    """A decimal string of a snapshot in the page's language ("123.5" -> "123,5")."""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return ""
    number = number.quantize(Decimal(1)) if number == number.to_integral() else number.normalize()
    return formats.number_format(number, use_l10n=True)


def _translated(line: dict) -> dict:
    """Reasons are English msgids in the snapshot; numbers are formatted for the page."""
    if line.get("reason"):
        line["reason"] = _(line["reason"])
    if isinstance(line.get("date"), str):
        with contextlib.suppress(ValueError):
            line["date"] = dt.date.fromisoformat(line["date"])
    for key in ("value", "best", "points"):
        if key in line:
            line[f"{key}_text"] = number_text(line[key])
    return line


@snapshot_view("page", ("region", "page"))
def ranking(request, state):
    regions, region = _region(request, state)
    page = public.lines_page(state, region and region.pk, request.GET.get("page"), LIST_PAGE_SIZE)
    query = request.GET.copy()
    query.pop("page", None)
    base_url = reverse("federation_public:ranking", args=[state.pk])
    return render(
        request,
        "federation/public/ranking.html",
        {
            "state": state,
            "regions": regions,
            "region": region,
            "page": page,
            "lines": [_translated(public_line(line)) for line in page.object_list],
            "total": page.paginator.count,
            "query": query.urlencode(),
            "base_url": base_url,
            "languages": language_links(request, request.path),
        },
    )


@snapshot_view("card", every_ranking=True)
def player_card(request, state, player):
    line = public.snapshot_line(state.snapshot_id, player)
    if line is None or line.get("hidden"):
        raise Http404(_("This player has no public card in this ranking."))
    return render(
        request,
        "federation/public/card.html",
        {
            "state": state,
            "line": _translated(public_line(line)),
            "results": [_translated(r) for r in public_results(line)],
            "official": public.official_results(player),
            "languages": language_links(request, request.path),
        },
    )
