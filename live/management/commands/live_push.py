"""manage.py live_push <event id> --to https://server.example --token <token> [--watch]

Pairs the event with the server (as "Live veröffentlichen" does) and sends everything
outstanding. Exit 0 only when the server has acknowledged all of it (every change and no
part differing); exit 1 with the reason otherwise. --watch keeps sending (with the backoff
of the worker after a failure) until Ctrl+C.
"""

from __future__ import annotations

import time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from live.laptop import sender, services
from tournaments.models import Event

MAX_ROUNDS = 50  # pushes in a row without --watch (each one answers new changes)


class Command(BaseCommand):
    help = "Send an event live to a results server (exit 0: the server holds all of it)."

    def add_arguments(self, parser):
        parser.add_argument("event", type=int, help="the event's id on this laptop")
        parser.add_argument("--to", required=True, dest="server_url", help="the server address")
        parser.add_argument("--token", default="", help="the token the server showed")
        parser.add_argument("--watch", action="store_true", help="keep sending until Ctrl+C")
        parser.add_argument("--timeout", type=float, default=sender.TIMEOUT_S)
        parser.add_argument("--poll", type=float, default=1.0, help=argparse_hidden())

    def handle(self, *args, **options):
        event = Event.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(_("There is no event %(id)s here.") % {"id": options["event"]})
        try:
            services.pair(None, event, server_url=options["server_url"], token=options["token"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        if options["watch"]:
            self._watch(event, options)
            return
        result = None
        for _round in range(MAX_ROUNDS):
            result = sender.push(event, timeout=options["timeout"])
            self._report(result)
            if result.state == "nothing":
                self.stdout.write(
                    _("The server holds everything up to change %(seq)s.")
                    % {"seq": result.last_seq}
                )
                return
            if result.state in ("refused", "off") or (result.state == "retry" and result.retry_in):
                break
        raise CommandError(
            result.message if result and result.message else _("Not everything was sent.")
        )

    def _report(self, result) -> None:
        if result.state == "done":
            self.stdout.write(
                _("Sent %(parts)s parts in %(batches)s batches; the server holds change %(seq)s.")
                % {
                    "parts": result.sent + result.removed,
                    "batches": result.batches,
                    "seq": result.last_seq,
                }
            )
        elif result.state == "retry" and result.retry_in:
            self.stderr.write(result.message)

    def _watch(self, event, options) -> None:
        try:
            while True:
                result = sender.push(event, timeout=options["timeout"])
                if result.state != "nothing":
                    self._report(result)
                if result.state == "refused":
                    raise CommandError(result.message)
                pause = result.retry_in if result.state == "retry" else options["poll"]
                if not result.more:
                    time.sleep(pause or 0)
        except KeyboardInterrupt:
            self.stdout.write(_("Stopped."))


def argparse_hidden():
    import argparse

    return argparse.SUPPRESS
