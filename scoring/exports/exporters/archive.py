"""Export: the event archive (JSON, docs/event-format.md), the file another installation
imports (`manage.py import_event` or the import page, `scoring.archive.views`).

Always a job: on the large data set (400 players, 10,000 hands, a 15 MB file) reading the
event and writing the JSON took 2.5 s (`python -m bench archive`), more than a click
should wait for. Directors only (the organiser role): the archive holds every sheet's
history, unconfirmed and unpublished results included.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from clubs.permissions import ORGANISER
from scoring.archive.dump import dumps, export_event
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Progress


@register
class EventArchiveExporter(Exporter):
    slug = "event-archive"
    name = gettext_lazy("Event archive")
    scope = "event"
    permission = ORGANISER
    formats = ("json",)
    description = gettext_lazy(
        "Every raw fact of the event (players, seating, every version of every score sheet) "
        "as JSON, to import it on another installation."
    )

    def render_file(self, event, fmt: str, progress: Progress | None = None) -> bytes:
        if progress:
            progress(0, 2, "step")
        data = export_event(event)
        if progress:
            progress(1, 2, "step")
        content = dumps(data).encode("utf-8")
        if progress:
            progress(2, 2, "step")
        return content

    def is_long(self, obj, fmt: str) -> bool:
        return True
