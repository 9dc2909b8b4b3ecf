"""The laptop's outbox (docs/live.md): every change of what the server must show is
numbered in the change's own transaction.

`add_change` runs inside the write's transaction (called by `live.receivers.on_change`,
the receiver of ``tournaments.results.results_bumping``). For an event with an enabled
LiveLink it locks the link's row, writes LiveChange(seq=next_seq) and moves next_seq on: a
rolled-back write leaves neither the row nor a hole, and two writers at once wait for each
other on the lock, so no number is given twice or skipped. An event without a link costs
one indexed lookup.

Its three statements are plain SQL: they run in every save and confirmation of the
director, and the ORM's building of them cost more than the database's work (bench: about
0.8 ms a statement on the hall laptop's shared cores, a tenth of a save + confirm).
"""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

from live.models import LiveChange, LiveLink


def add_change(event_id: int) -> int | None:
    """Number one change of the event (inside the caller's transaction); its seq, or None
    when the event is not sent live."""
    quote = connection.ops.quote_name
    links, changes = quote(LiveLink._meta.db_table), quote(LiveChange._meta.db_table)
    # The row lock on PostgreSQL; SQLite's transaction already holds the write lock.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, next_seq FROM {links} WHERE event_id = %s AND enabled = %s{lock}",
            [event_id, True],
        )
        row = cursor.fetchone()
        if row is None:
            return None
        pk, seq = row
        created = connection.ops.adapt_datetimefield_value(timezone.now())
        cursor.execute(
            f"INSERT INTO {changes} (event_id, seq, created_at) VALUES (%s, %s, %s)",
            [event_id, seq, created],
        )
        cursor.execute(f"UPDATE {links} SET next_seq = %s WHERE id = %s", [seq + 1, pk])
    return seq


def waiting(link: LiveLink) -> int:
    """Changes the server has not acknowledged yet."""
    return max(0, link.next_seq - 1 - link.acked_seq)
