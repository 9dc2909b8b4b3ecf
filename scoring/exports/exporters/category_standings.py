"""Exports: the category standings (women, seniors, youth, the club's own) of an event, one
table per category, as an A4 print with bordered grids, XLSX and print page, and as an A3
wall list, in the look of the series and day prints (scope_standings.py).

Each table is the overall individual standing's rows of the category's members, re-ranked
among themselves (`scoring.standings.categories.category_standings`) exactly as the
standings page's category tabs; all confirmed sheets count, published or not (the scorer
role, as the `standings` export), unconfirmed ones never do ("VORLÄUFIG" then). A
disqualified player stays in, marked in the name column.
"""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import SCORER
from scoring.exports.exporters.standings import (
    confirmed_standings,
    pending_series,
    print_context,
    standing_table,
)
from scoring.exports.exporters.wall import WallExporter, wall_table
from scoring.exports.parts import ranking_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import ExportTable
from scoring.standings import labels
from scoring.standings.categories import category_standings
from tournaments.models import Participant


def category_tables(event) -> list[ExportTable]:
    """One table per category of the event, in the categories' order (none without
    categories): the overall standing read once, the members once."""
    overall = confirmed_standings(event, (labels.INDIVIDUAL,), labels.OVERALL, None)
    overall = overall[labels.INDIVIDUAL]
    pending = pending_series(event)
    out = []
    for cut in category_standings(event, overall):
        standing = replace(overall, rows=cut.rows)
        title = _("%(category)s – category standing") % {"category": cut.category.name}
        table = standing_table(standing, pending, title, cut.category.name[:31])
        marked = {r.participant_id for r in cut.rows if r.disqualified}
        for data, row in zip(table.rows, cut.rows, strict=False):
            if row.participant_id in marked:
                data["name"] = f"{data['name']} ({_('disqualified')})"
        out.append(table)
    return out


def _no_categories_note(tables) -> list[str]:
    return [] if tables else [_("The event has no categories.")]


@register
class CategoryStandingsExporter(Exporter):
    slug = "category-standings"
    name = gettext_lazy("Category standings")
    scope = "event"
    permission = SCORER
    description = gettext_lazy(
        "Every category of the event (women, seniors, youth, club categories): its members "
        "ranked among themselves in the overall order. All confirmed sheets count, published "
        "or not; unconfirmed ones never do."
    )
    template = "exports/ranking.html"

    def header_text(self, event):
        return event.name

    def label(self, event) -> str:
        return str(self.name)

    def title(self, event):
        return f"{self.name} – {event}"

    def tables(self, event) -> list[ExportTable]:
        return category_tables(event)

    def context(self, event, *, base_url: str = ""):
        tables = self.tables(event)
        return print_context(event, tables, notes=_no_categories_note(tables))

    def pdf_parts(self, context, workers):
        return ranking_parts(context, workers)

    def expected_pages(self, event) -> int:
        return max(1, Participant.objects.filter(event=event).count() // 50 + 1)


@register
class CategoryWallExporter(WallExporter):
    slug = "category-standings-wall"
    name = gettext_lazy("Category standings for the wall (A3)")
    scope = "event"
    description = gettext_lazy(
        "Every category's standing in large type on A3 portrait, to hang up in the hall."
    )

    def wall_label(self, event) -> str:
        return str(CategoryStandingsExporter.name)

    def tables(self, event) -> list[ExportTable]:
        return [wall_table(t) for t in category_tables(event)]
