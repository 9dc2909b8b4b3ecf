"""The lots seed of an event: drawn with `secrets` and stored the first time a tie needs it.
The one write a standings read may make, named as such."""

from __future__ import annotations

import secrets

from django.db import transaction

from tournaments.models import Event
from tournaments.results import results_bumping


def ensure_lots_seed(event: Event) -> int:
    """The event's lots seed; drawn with `secrets` and stored the first time it is needed."""
    if event.lots_seed is None:
        seed = secrets.randbits(62)
        with transaction.atomic():
            drawn = Event.objects.filter(pk=event.pk, lots_seed__isnull=True).update(lots_seed=seed)
            if drawn:  # a copy sent live draws its ties alike: the outbox numbers the seed
                # (names_only: like a rename, never refused by a live owner's guard)
                results_bumping.send(sender=Event, event_ids=[event.pk], names_only=True)
        event.lots_seed = Event.objects.values_list("lots_seed", flat=True).get(pk=event.pk)
    return event.lots_seed
