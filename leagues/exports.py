"""The division table's prints through the one exporter registry (scoring.exports.registry):
A4 (PDF, XLSX, print page) and A3 for the hall's wall. Their scope is an app scope, served
by the league's own pages (leagues.views / leagues.public.views), which check who may see
the season; the generic export pages never serve it. Registered by LeaguesConfig.ready."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.models import Division
from leagues.selectors import table_of
from scoring.exports.grids import grids, printed_at
from scoring.exports.registry import (
    AppScope,
    Exporter,
    get_exporter,
    register,
    register_scope,
)
from scoring.exports.rendering import ATTACHMENTS, render_export
from scoring.exports.tables import Column, ExportTable


@dataclass(frozen=True)
class DivisionTableDoc:
    division: Division
    export_scope: ClassVar[str] = "league-division"

    @property
    def pk(self) -> int:
        return self.division.pk

    def __str__(self) -> str:
        return f"{self.division.season.name} – {self.division.name}"


def _url(doc: DivisionTableDoc, slug: str = "", fmt: str = "") -> str:
    if slug:
        return reverse("leagues_public:division_export", args=[doc.division.pk, slug, fmt])
    return reverse("leagues_public:division", args=[doc.division.pk])


register_scope(AppScope(DivisionTableDoc.export_scope, gettext_lazy("league table"), _url))


def division_tables(division: Division, *, players=True) -> list[ExportTable]:
    table = table_of(division)
    out = [
        ExportTable(
            _("League table"),
            [
                Column("rank", _("Place"), "int", width=6),
                Column("team", _("Team"), width=26),
                Column("club", _("Club"), width=14),
                Column("played", _("Match days"), "int", width=8),
                Column("points", _("League points"), "int", width=10),
                Column("score", _("Team scores"), "int", width=10),
                Column("best", _("Best day"), "int", width=9),
                Column("why", _("Why above"), width=40),
            ],
            [
                {
                    "rank": line.rank,
                    "team": line.team + (f" ({_('withdrawn')})" if line.withdrawn else ""),
                    "club": line.club,
                    "played": line.played,
                    "points": line.points,
                    "score": line.score,
                    "best": line.best_day,
                    "why": line.why,
                }
                for line in table.lines
            ],
            sheet_name=str(_("League table")),
        )
    ]
    if players:
        out.append(
            ExportTable(
                _("Players"),
                [
                    Column("rank", _("Place"), "int", width=6),
                    Column("name", _("Name"), width=26),
                    Column("team", _("Team"), width=22),
                    Column("series", _("Series"), "int", width=7),
                    Column("average", _("Average per series"), "decimal", width=12),
                ],
                [
                    {
                        "rank": p.rank,
                        "name": p.name,
                        "team": p.team,
                        "series": p.series,
                        "average": Decimal(p.average.replace(",", ".")) if p.rank else None,
                    }
                    for p in table.players
                ],
                sheet_name=str(_("Players")),
            )
        )
    return out


@register
class DivisionTableExporter(Exporter):
    slug = "league-table"
    name = gettext_lazy("League table")
    scope = DivisionTableDoc.export_scope
    description = gettext_lazy(
        "Place, team, club, match days, league points, team scores, best day and why a team "
        "stands above the next; the players' averages below."
    )

    def title(self, doc):
        return _("League table") + f" – {doc}"

    # Bordered grids sized to the A4 page in Python, as the standings print (exports.grids).
    template = "exports/ranking.html"

    def header_text(self, doc):
        return doc.division.season.association.name

    def tables(self, doc) -> list[ExportTable]:
        return division_tables(doc.division)

    def context(self, doc, *, base_url: str = ""):
        season = doc.division.season
        return {
            "grids": grids(self.tables(doc)),
            "facts": [season.association.name, printed_at()],
            "provisional": False,
            "note": _("Only approved match days count."),
        }


@dataclass(frozen=True)
class _WallHead:
    name: str
    start_date: None = None
    venue: str = ""


@register
class DivisionWallExporter(Exporter):
    slug = "league-table-wall"
    name = gettext_lazy("League table for the wall (A3)")
    scope = DivisionTableDoc.export_scope
    description = gettext_lazy("The league table in large type on A3 portrait, to hang up.")
    formats = ("pdf", "html")
    template = "exports/wall.html"

    def title(self, doc):
        return _("League table") + f" – {doc}"

    def tables(self, doc) -> list[ExportTable]:
        return division_tables(doc.division, players=False)

    def context(self, doc, *, base_url: str = ""):
        return {
            "event": _WallHead(str(doc)),
            "wall_label": _("League table"),
            "wall_class": "league-wall",
            "printed_at": timezone.localtime(),
        }


def export_links(division, *, public):
    doc = DivisionTableDoc(division)
    name = "leagues_public:division_export" if public else "leagues:division_export"
    return [
        {
            "label": f"{get_exporter(slug).name} ({fmt.upper()})",
            "url": reverse(name, args=[doc.pk, slug, fmt]),
        }
        for slug in ("league-table", "league-table-wall")
        for fmt in get_exporter(slug).formats
    ]


def export_response(request, division, slug, fmt) -> HttpResponse:
    if slug not in ("league-table", "league-table-wall"):
        raise Http404
    exporter = get_exporter(slug)
    if fmt not in exporter.formats:
        raise Http404
    nonce = getattr(request, "csp_nonce", "") if fmt == "html" else ""
    content, filename, content_type = render_export(
        slug, DivisionTableDoc(division), fmt, csp_nonce=nonce
    )
    response = HttpResponse(content, content_type=content_type)
    if fmt != "html":
        response["Content-Disposition"] = content_disposition_header(fmt in ATTACHMENTS, filename)
    return response
