"""The one receiver of ``tournaments.results.results_bumping`` (connected by
`live.apps.LiveConfig.ready` through `connect`): inside every write's transaction, one query
asks whether the event is sent live from here (the outbox numbers the change, and its
UPDATE tells whether a push already waits) or owned by a laptop here (the owner's guard
refuses the write). Events that are neither cost that one query and nothing else."""

from __future__ import annotations

from functools import lru_cache

from django.db import connection, transaction

from live.models import LiveLink, ReceivedEvent


def on_change(
    sender=None, *, event_ids, names_only: bool = False, sheet_table=None, **_kwargs
) -> None:
    """Refuse a write to an event a laptop owns (`live.server.services.guard`: never a
    rename, never the live apply itself); number the change of each event sent live
    (`live.laptop.outbox.add_change`, which also reads whether a push waits; with the one
    table whose sheet alone it changed, ``sheet_table``) and ask the worker to send it
    (`live.laptop.sender.wake`). One query for all the events (a renamed club may be shown
    by hundreds)."""
    from live.laptop.outbox import add_change
    from live.laptop.sender import push_window, wake
    from live.server.services import guard

    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a live change belongs inside the write's transaction")
    if not event_ids:
        return
    sending, owned = set(), set()
    with connection.cursor() as cursor:
        cursor.execute(_live_sql(len(event_ids)), [*event_ids, *event_ids])
        for event_id, laptop_owns in cursor.fetchall():
            (owned if laptop_owns else sending).add(event_id)
    for event_id in sorted(sending | owned):
        if event_id in owned and not names_only:
            guard(event_id)
        numbered = None
        if event_id in sending:
            numbered = add_change(event_id, push_window(), sheet_table=sheet_table)
        if numbered is not None:
            wake(event_id, numbered.push_due)


@lru_cache(maxsize=32)
def _live_sql(count: int) -> str:
    """The events of `count` ids sent live from here (second column false) or owned by a
    laptop here (true). Plain SQL on the two live tables: it runs inside every write, and
    the ORM's join of the event table took 0.5-0.8 ms of CPU a call to build (issue 38)."""
    quote = connection.ops.quote_name

    def column(model, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    ids = ", ".join(["%s"] * count)
    link, source = quote(LiveLink._meta.db_table), quote(ReceivedEvent._meta.db_table)
    owner = ReceivedEvent.Owner.LAPTOP.value
    return (
        f"SELECT {column(LiveLink, 'event')}, 0 FROM {link} "
        f"WHERE {column(LiveLink, 'event')} IN ({ids}) AND {column(LiveLink, 'enabled')} "
        f"UNION ALL SELECT {column(ReceivedEvent, 'event')}, 1 FROM {source} "
        f"WHERE {column(ReceivedEvent, 'event')} IN ({ids}) "
        f"AND {column(ReceivedEvent, 'owner')} = '{owner}'"
    )


def connect() -> None:
    """Connect `on_change` to ``results_bumping`` (idempotent: a dispatch uid)."""
    from tournaments.results import results_bumping

    results_bumping.connect(on_change, dispatch_uid="live.on_change")
