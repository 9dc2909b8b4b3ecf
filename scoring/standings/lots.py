"""The lots seed of an event: drawn with `secrets` and stored the first time a tie needs it.
The one write a standings read may make, named as such."""

from __future__ import annotations

import secrets

from tournaments.models import Event


def ensure_lots_seed(event: Event) -> int:
    """The event's lots seed; drawn with `secrets` and stored the first time it is needed."""
    if event.lots_seed is None:
        seed = secrets.randbits(62)
        Event.objects.filter(pk=event.pk, lots_seed__isnull=True).update(lots_seed=seed)
        event.lots_seed = Event.objects.values_list("lots_seed", flat=True).get(pk=event.pk)
    return event.lots_seed
