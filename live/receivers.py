"""The one receiver of ``tournaments.results.results_bumping`` (connected by
`live.apps.LiveConfig.ready` through `connect`): inside every write's transaction, one query
asks whether the event is sent live from here (the outbox numbers the change) or owned by a
laptop here (the owner's guard refuses the write). Events that are neither cost that one
query and nothing else."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from live.models import ReceivedEvent
from tournaments.models import Event


def on_change(sender=None, *, event_ids, names_only: bool = False, **_kwargs) -> None:
    """Refuse a write to an event a laptop owns (`live.server.services.guard`: never a
    rename, never the live apply itself); number the change of each event sent live
    (`live.laptop.outbox.add_change`) and ask the worker to send it
    (`live.laptop.sender.wake`). One query for all the events (a renamed club may be shown
    by hundreds)."""
    from live.laptop.outbox import add_change
    from live.laptop.sender import wake
    from live.server.services import guard

    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a live change belongs inside the write's transaction")
    if not event_ids:
        return
    rows = (
        Event.objects.filter(pk__in=event_ids)
        .filter(Q(live_link__enabled=True) | Q(live_source__owner=ReceivedEvent.Owner.LAPTOP))
        .values_list("pk", "live_link__enabled", "live_source__owner")
    )
    for event_id, sending, owner in rows:
        if owner == ReceivedEvent.Owner.LAPTOP and not names_only:
            guard(event_id)
        if sending and add_change(event_id) is not None:
            wake(event_id)


def connect() -> None:
    """Connect `on_change` to ``results_bumping`` (idempotent: a dispatch uid)."""
    from tournaments.results import results_bumping

    results_bumping.connect(on_change, dispatch_uid="live.on_change")
