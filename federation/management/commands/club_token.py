"""manage.py club_token <club id> [--label …]: a new club token, on the federation's
installation. The same kind of token as the live results' (`live.server.tokens`): a club's own
installation sends its events with it (`submit_event`), a laptop its live results."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubs.models import Club
from live.server.tokens import issue_token


class Command(BaseCommand):
    help = (
        "Make a club token with which another installation submits the club's events to "
        "this one (docs/federation.md). Prints the token and nothing else on standard "
        "output: it is shown once and only its hash is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("club", type=int, help="the id of the club")
        parser.add_argument("--label", default="", help="to recognise the token in lists")

    def handle(self, *args, club, label, **options):
        found = Club.objects.filter(pk=club).first()
        if found is None:
            raise CommandError(_("There is no club with the id %(id)s.") % {"id": club})
        token, raw = issue_token(found, label=label or _("Submissions"))
        self.stdout.write(raw)
        self.stderr.write(
            _("Club token %(prefix)s… for “%(club)s” (shown only now).")
            % {"prefix": token.prefix, "club": found.name}
        )
