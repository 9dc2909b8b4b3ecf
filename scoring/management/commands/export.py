from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from scoring.exports.registry import EXPORTERS
from scoring.exports.rendering import render_export
from tournaments.models import Event, Series


class Command(BaseCommand):
    help = (
        "Render one export of an event (an exporter slug of scoring.exports) to a file. "
        "Series exports need --series N; club exports read the event's club."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="The id of the event.")
        parser.add_argument("what", help="The exporter's slug, e.g. seating or score-sheets.")
        parser.add_argument("--format", dest="fmt", choices=("xlsx", "pdf", "json"), default="xlsx")
        parser.add_argument("-o", "--output", required=True, help="The file to write.")
        parser.add_argument("--series", type=int, help="The series number (series exports).")
        parser.add_argument(
            "--language",
            default=settings.LANGUAGE_CODE,
            help="The language of headers and texts (default: %(default)s).",
        )
        parser.add_argument(
            "--base-url", default="", help="Makes the links in QR codes absolute (http://host)."
        )

    def handle(self, *args, event_id, what, fmt, output, series, language, base_url, **options):
        exporter = EXPORTERS.get(what)
        if exporter is None:
            known = ", ".join(f"{slug} ({e.scope})" for slug, e in sorted(EXPORTERS.items()))
            raise CommandError(f"Unknown export {what!r}. Known: {known}")
        if fmt not in exporter.formats:
            raise CommandError(f"{what} is not offered as {fmt}.")
        try:
            event = Event.objects.select_related("club").get(pk=event_id)
        except Event.DoesNotExist as err:
            raise CommandError(f"There is no event with id {event_id}.") from err

        if exporter.scope == "series":
            numbers = list(
                Series.objects.filter(event=event)
                .order_by("number")
                .values_list("number", flat=True)
            )
            if series is None:
                raise CommandError(
                    f"{what} exports one series: give --series N (this event has "
                    f"{', '.join(map(str, numbers)) or 'no series'})."
                )
            obj = (
                Series.objects.select_related("event__club")
                .filter(event=event, number=series)
                .first()
            )
            if obj is None:
                raise CommandError(f"The event has no series {series}.")
        elif series is not None:
            raise CommandError(f"{what} exports a whole {exporter.scope}; --series does not apply.")
        elif exporter.scope == "club":
            obj = event.club
        else:
            obj = event

        def progress(done, total, unit):
            if options["verbosity"] >= 2:
                self.stderr.write(f"{done}/{total} {unit}s")

        with translation.override(language):
            content, filename, _content_type = render_export(
                what, obj, fmt, progress, base_url=base_url
            )
        Path(output).write_bytes(content)
        self.stderr.write(f"Wrote {what} of {obj} ({filename}, {len(content)} bytes) -> {output}")
