"""Receivers of live results, connected by `live.apps.LiveConfig.ready` through `connect`."""

from __future__ import annotations

from django.db import transaction


def record_change(sender=None, *, event_id: int, **_kwargs) -> None:
    """Receiver of ``results_bumping`` (names too: a renamed player is shown by the
    server): the outbox numbers the change in the write's transaction; once it has
    committed, the worker is asked to send it (`live.sender.schedule_push`)."""
    from live.outbox import add_change
    from live.sender import schedule_push

    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a live change belongs inside the write's transaction")
    if add_change(event_id) is not None:
        transaction.on_commit(lambda: schedule_push(event_id, wake=True))


def connect() -> None:
    """Connect the outbox to ``results_bumping`` (idempotent: a dispatch uid)."""
    from tournaments.results import results_bumping

    results_bumping.connect(record_change, dispatch_uid="live.outbox.record_change")
