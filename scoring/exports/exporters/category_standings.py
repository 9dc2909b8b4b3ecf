"""Exports: the category standings (women, seniors, youth, the club's own), in the look of
the series and day prints (scope_standings.py): each category by itself (the "category"
scope: `/exports/category/<pk>/category-standing.pdf`, linked beside the standings page's
category tabs), as an A4 print with bordered grids, XLSX and print page, and as an A3 wall
list; and all categories of an event in one file (the event scope), one table each.

A table is the overall individual standing's rows of the category's members, re-ranked
among themselves (`scoring.standings.categories`) exactly as the standings page's category
tabs; all confirmed sheets count, published or not (the scorer role, as the `standings`
and series prints), unconfirmed ones never do ("VORLÄUFIG" then: members whose every table
waits for its confirmation follow the ranking without rank). A disqualified player stays
in, marked in the name column.
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
    waiting_rows,
)
from scoring.exports.exporters.wall import WallExporter, wall_table
from scoring.exports.parts import ranking_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import ExportTable
from scoring.standings import labels
from scoring.standings.categories import CategoryStanding, rerank
from tournaments.categories import CategoryInfo, category_membership, members_for
from tournaments.models import Participant


def _overall(event):
    """The confirmed overall individual standing and the players' pending series."""
    overall = confirmed_standings(event, (labels.INDIVIDUAL,), labels.OVERALL, None)
    return overall[labels.INDIVIDUAL], pending_series(event)


def category_table(cut: CategoryStanding, overall, pending, members: set[int]) -> ExportTable:
    """The table of one category (`cut`, cut from `overall`); `members` its participant
    ids: those without a row because no sheet of theirs is confirmed yet follow, unranked."""
    standing = replace(overall, rows=cut.rows)
    title = _("%(category)s – category standing") % {"category": cut.category.name}
    waiting = waiting_rows(standing, {p: n for p, n in pending.items() if p in members})
    table = standing_table(standing, pending, title, cut.category.name[:31], waiting)
    marked = {r.participant_id for r in cut.rows if r.disqualified}
    for data, row in zip(table.rows, cut.rows, strict=False):
        if row.participant_id in marked:
            data["name"] = f"{data['name']} ({_('disqualified')})"
    return table


def category_tables(event) -> list[ExportTable]:
    """One table per category of the event, in the categories' order (none without
    categories): the overall standing read once, the members once."""
    overall, pending = _overall(event)
    categories, members = category_membership(event)
    out = []
    for category in categories:
        ids = members.get(category.id, set())
        cut = CategoryStanding(category, rerank(overall.rows, ids), len(ids))
        out.append(category_table(cut, overall, pending, ids))
    return out


def one_category_table(category) -> ExportTable:
    """The table of one category (a `tournaments.models.Category`): a fixed number of
    queries however large the field (the standing, the pending sheets, the members)."""
    event = category.event
    info = CategoryInfo(category.pk, category.name, category.kind, category.age_limit)
    overall, pending = _overall(event)
    members = members_for(event, [info]).get(info.id, set())
    cut = CategoryStanding(info, rerank(overall.rows, members), len(members))
    return category_table(cut, overall, pending, members)


def _no_categories_note(tables) -> list[str]:
    return [] if tables else [_("The event has no categories.")]


def _pages(event) -> int:
    return max(1, Participant.objects.filter(event=event).count() // 50 + 1)


# ----- one category (the category scope) -------------------------------------------------


@register
class CategoryStandingExporter(Exporter):
    slug = "category-standing"
    name = gettext_lazy("Category standing")
    scope = "category"
    # Unpublished series count, as in the director's standings export: the same role.
    permission = SCORER
    description = gettext_lazy(
        "This category's members ranked among themselves in the overall order, with the "
        "tie-break values. All confirmed sheets count, published or not; unconfirmed ones "
        "never do."
    )
    template = "exports/ranking.html"

    def label(self, category) -> str:
        return category.name

    def header_text(self, category):
        return category.event.name

    def title(self, category):
        return f"{self.name} – {category.name} – {category.event}"

    def tables(self, category) -> list[ExportTable]:
        return [one_category_table(category)]

    def context(self, category, *, base_url: str = ""):
        return print_context(category.event, self.tables(category))

    def pdf_parts(self, context, workers):
        return ranking_parts(context, workers)

    def expected_pages(self, category) -> int:
        return _pages(category.event)


@register
class CategoryStandingWallExporter(WallExporter):
    slug = "category-standing-wall"
    name = gettext_lazy("Category standing for the wall (A3)")
    scope = "category"
    description = gettext_lazy(
        "This category's standing in large type on A3 portrait, to hang up in the hall."
    )

    def event_of(self, category):
        return category.event

    def label(self, category) -> str:
        return category.name

    def wall_label(self, category) -> str:
        return f"{CategoryStandingExporter.name} – {category.name}"

    def tables(self, category) -> list[ExportTable]:
        return [wall_table(one_category_table(category))]


# ----- every category of an event in one file (the event scope) ----------------------------


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

    def title(self, event):
        return f"{self.name} – {event}"

    def tables(self, event) -> list[ExportTable]:
        return category_tables(event)

    def empty_note(self, event) -> str:
        return _("The event has no categories.")

    def context(self, event, *, base_url: str = ""):
        tables = self.tables(event)
        return print_context(event, tables, notes=_no_categories_note(tables))

    def pdf_parts(self, context, workers):
        return ranking_parts(context, workers)

    def expected_pages(self, event) -> int:
        return _pages(event)


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

    def empty_note(self, event) -> str:
        return _("The event has no categories.")
