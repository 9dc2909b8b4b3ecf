"""The wall lists: a standing as a bordered table in large type on A3 portrait, to hang up
in the hall after a series. Only confirmed sheets count; players whose table is not
confirmed yet are marked, and the whole list says "vorläufig" in that case.

`WallExporter` is the layout (templates/exports/wall.html); the overall standing is here,
the series and day standings (`ScopedWallExporter`) in scope_standings.py."""

from __future__ import annotations

from typing import ClassVar

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import SCORER
from scoring.exports.exporters.standings import pending_series, scope_tables, standing_table
from scoring.exports.parts import wall_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import ExportTable
from scoring.standings import selectors

# The wall shows what a player looks for: rank, name (a pair's or team's members), club,
# the series, the total, and which series still wait for a confirmed sheet.
WALL_COLUMNS = {"rank", "name", "members", "club", "total", "provisional"}


def wall_table(table: ExportTable) -> ExportTable:
    """`table` with the wall's columns only (the series columns "s1", "s2", ... stay)."""
    table.columns = [c for c in table.columns if c.key in WALL_COLUMNS or c.key.startswith("s")]
    return table


class WallExporter(Exporter):
    """Base of the A3 wall lists: subclasses set `slug`, `name`, `scope`, `description`,
    `tables`, `wall_label(obj)` and, for a series, `event_of`."""

    # Counts unpublished series like the director's standings: the director decides to print.
    permission = SCORER
    formats = ("pdf", "html")
    template = "exports/wall.html"

    def event_of(self, obj):
        return obj

    def wall_label(self, obj) -> str:
        raise NotImplementedError

    def header_text(self, obj):
        return self.event_of(obj).name

    def title(self, obj):
        return f"{self.wall_label(obj)} – {self.event_of(obj)}"

    def context(self, obj, *, base_url: str = ""):
        return {
            "event": self.event_of(obj),
            "wall_label": self.wall_label(obj),
            "printed_at": timezone.localtime(),
            "empty_note": self.empty_note(obj),
        }

    def expected_pages(self, obj) -> int:
        return max(1, self.event_of(obj).participants.count() // 45 + 1)

    def pdf_parts(self, context, workers):
        return wall_parts(context, workers, self.template)


@register
class WallListExporter(WallExporter):
    slug = "standings-wall"
    name = gettext_lazy("Standings for the wall (A3)")
    scope = "event"
    description = gettext_lazy(
        "The overall standing in large type on A3 portrait, bordered, to hang up in the hall."
    )

    def wall_label(self, event) -> str:
        return _("Overall standing")

    def tables(self, event) -> list[ExportTable]:
        standing = selectors.event_standing(event, include_entered=False, only_published=False)
        table = standing_table(
            standing, pending_series(event), _("Individual – overall standing"), _("Overall")
        )
        return [wall_table(table)]


class ScopedWallExporter(WallExporter):
    """Base of the wall lists of one series or one day (the series scope, as the A4 prints
    `standings.ScopedStandingsExporter`): individual, pairs and teams one after another.
    Subclasses set `heading` and `scoped(series) -> (scope, number, label)`."""

    scope = "series"
    heading: ClassVar = ""

    def scoped(self, series) -> tuple[str, int, str]:
        raise NotImplementedError

    def event_of(self, series):
        return series.event

    def label(self, series) -> str:
        return self.scoped(series)[2]

    def wall_label(self, series) -> str:
        return f"{self.heading} – {self.label(series)}"

    def tables(self, series) -> list[ExportTable]:
        return [wall_table(t) for t in scope_tables(series.event, *self.scoped(series))]
