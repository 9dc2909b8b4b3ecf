import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.archive.dump import dumps, export_event
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Write every raw fact of an event (rule set, players, pairs and teams, seating, every "
        "version of every score sheet) as an event archive (docs/event-format.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="The id of the event.")
        parser.add_argument(
            "-o", "--output", default="-", help="The file to write (default: standard output)."
        )

    def handle(self, *args, event_id, output, **options):
        try:
            event = Event.objects.get(pk=event_id)
        except Event.DoesNotExist as err:
            raise CommandError(f"There is no event with id {event_id}.") from err
        data = export_event(event)
        text = dumps(data)
        if output == "-":
            sys.stdout.write(text)
            return
        Path(output).write_text(text, encoding="utf-8")
        sheets = sum(1 for s in data["series"] for t in s["tables"] if t["sheet"])
        self.stderr.write(
            f"Exported {event.name!r}: {len(data['participants'])} participants, "
            f"{len(data['series'])} series, {sheets} sheets -> {output}"
        )
