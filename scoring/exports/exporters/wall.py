"""The wall list: the overall standing as a bordered table in large type on A3 portrait,
to hang up in the hall after a series. Only confirmed sheets count; players whose table
is not confirmed yet are marked, and the whole list says "vorläufig" in that case."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import SCORER
from scoring.exports.exporters.standings import pending_series, standing_table
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import ExportTable
from scoring.standings import selectors


@register
class WallListExporter(Exporter):
    slug = "standings-wall"
    name = gettext_lazy("Standings for the wall (A3)")
    scope = "event"
    # Counts unpublished series like the director's standings: the director decides to print.
    permission = SCORER
    formats = ("pdf", "html")
    description = gettext_lazy(
        "The overall standing in large type on A3 portrait, bordered, to hang up in the hall."
    )
    template = "exports/wall.html"

    def header_text(self, event):
        return event.name

    def title(self, event):
        return _("Overall standing") + f" – {event}"

    def _standing(self, event):
        return selectors.event_standing(event, include_entered=False, only_published=False)

    def tables(self, event) -> list[ExportTable]:
        standing = self._standing(event)
        table = standing_table(
            standing, pending_series(event), _("Individual – overall standing"), _("Overall")
        )
        # The wall shows what a player looks for: rank, name, club, series, total.
        keep = {"rank", "name", "club", "total", "provisional"}
        table.columns = [c for c in table.columns if c.key in keep or c.key.startswith("s")]
        return [table]

    def context(self, event, *, base_url: str = ""):
        return {"event": event, "printed_at": timezone.localtime()}

    def expected_pages(self, event) -> int:
        return max(1, event.participants.count() // 45 + 1)
