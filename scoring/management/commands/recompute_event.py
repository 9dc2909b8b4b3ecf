from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from scoring.sheets.services import recompute_results
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Recompute every derived value of an event (points, hand points held) from the "
        "stored raw facts under the event's rule set, in one transaction. The same service "
        "a rule-set change uses; each sheet gets a version of kind 'recompute'."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="The id of the event.")
        parser.add_argument(
            "--user", required=True, help="Username of an organiser of the event's club."
        )
        parser.add_argument("--reason", required=True, help="Kept in every sheet's history.")

    def handle(self, *args, event_id, user, reason, **options):
        try:
            event = Event.objects.select_related("club").get(pk=event_id)
        except Event.DoesNotExist as err:
            raise CommandError(f"There is no event with id {event_id}.") from err
        try:
            actor = get_user_model().objects.get(username=user)
        except get_user_model().DoesNotExist as err:
            raise CommandError(f"There is no user {user!r}.") from err
        try:
            result = recompute_results(actor, event, reason)
        except (PermissionDenied, ValidationError) as err:
            raise CommandError(str(err)) from err
        self.stdout.write(
            f"Recomputed {event.name!r}: {result.sheets} sheets, {result.hand_seats} seats, "
            f"{result.changed} changed, {result.unscorable} unscorable, "
            f"{result.problems} problems under the rule set."
        )
