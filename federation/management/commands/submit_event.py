"""manage.py submit_event <event id> --to https://verband.example.org --token <token>

Sends the event to the federation's installation (`federation.submissions.client`), whose
worker reads it; asks for its state until it is read (``--timeout``, default 120 s for
everything). Exit 0 when the server took it in, or holds it waiting for the ranking
officer's matching (said so); exit 1 with the server's German reason otherwise (refused,
not read in time, the server not reachable)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from federation.submissions import client as submit_client
from tournaments.models import Event


class Command(BaseCommand):
    help = "Send an event to the federation's installation (exit 0: it was taken or waits)."

    def add_arguments(self, parser):
        parser.add_argument("event", type=int, help="the event's id on this installation")
        parser.add_argument("--to", required=True, dest="server_url", help="the server address")
        parser.add_argument("--token", required=True, help="the club token the federation showed")
        parser.add_argument(
            "--timeout",
            type=float,
            default=submit_client.TIMEOUT_S,
            help="seconds for sending and waiting until the server has read the event",
        )

    def handle(self, *args, event, server_url, token, timeout, **options):
        found = Event.objects.filter(pk=event).first()
        if found is None:
            raise CommandError(_("There is no event %(id)s here.") % {"id": event})
        sent = submit_client.submit(found, server_url, token, timeout=max(timeout, 1.0))
        if not sent.ok or sent.pending:  # pending: a server that named no submission
            raise CommandError(sent.message)
        if sent.waiting:
            self.stdout.write(
                _("The federation holds the event. %(message)s") % {"message": sent.message}
            )  # fmt: skip
        else:
            self.stdout.write(sent.message or _("The federation took the event in."))
