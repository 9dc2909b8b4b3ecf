from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from live.server.tokens import issue_token
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Make a live token with which a laptop sends one event of a club to this server "
        "(docs/live.md). Prints the token and nothing else on standard output: it is shown "
        "once and only its hash is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", type=int, required=True, help="The id of the club.")
        parser.add_argument(
            "--event",
            type=int,
            help="The id of an event of the club already received from a laptop (a new "
            "token for it); without it, the token's first push creates its event.",
        )
        parser.add_argument("--label", default="", help="To recognise the token in lists.")

    def handle(self, *args, club, event, label, **options):
        found = Club.objects.filter(pk=club).first()
        if found is None:
            raise CommandError(f"There is no club with id {club}.")
        bound = None
        if event is not None:
            bound = Event.objects.filter(pk=event).first()
            if bound is None:
                raise CommandError(f"There is no event with id {event}.")
        try:
            token, raw = issue_token(found, event=bound, label=label)
        except ValidationError as err:
            raise CommandError(" ".join(err.messages)) from err
        self.stdout.write(raw)
        self.stderr.write(f"Live token {token.prefix}… for {found.name!r} (shown only now).")
