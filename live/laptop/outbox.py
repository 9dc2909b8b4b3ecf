"""The laptop's outbox (docs/live.md): every change of what the server must show is
numbered in the change's own transaction.

`add_change` runs inside the write's transaction (called by `live.receivers.on_change`,
the receiver of ``tournaments.results.results_bumping``). For an event with an enabled
LiveLink it moves the link's next_seq on (on PostgreSQL that UPDATE locks the row; SQLite's
transaction already holds the write lock) and writes LiveChange with the number it took: a
rolled-back write leaves neither the row nor a hole, and two writers at once wait for each
other on the lock, so no number is given twice or skipped.

Its two statements are plain SQL: they run in every save and confirmation of the director,
and the ORM's building of them cost more than the database's work (bench: about 0.8 ms a
statement on the hall laptop's shared cores, a tenth of a save + confirm). The number is
not read back (``RETURNING`` needs SQLite 3.35): `last_number` reads it where it is needed.
"""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

from live.models import LiveChange, LiveLink


def add_change(event_id: int) -> bool:
    """Number one change of the event (inside the caller's transaction); False when the
    event is not sent live."""
    quote = connection.ops.quote_name
    links, changes = quote(LiveLink._meta.db_table), quote(LiveChange._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {links} SET next_seq = next_seq + 1 WHERE event_id = %s AND enabled = %s",
            [event_id, True],
        )
        if cursor.rowcount != 1:
            return False
        # The statement after the UPDATE sees the transaction's own next_seq.
        created = connection.ops.adapt_datetimefield_value(timezone.now())
        cursor.execute(
            f"INSERT INTO {changes} (event_id, seq, created_at)"
            f" SELECT event_id, next_seq - 1, %s FROM {links} WHERE event_id = %s",
            [created, event_id],
        )
    return True


def last_number(event_id: int) -> int:
    """The number of the event's newest change (0 before the first)."""
    next_seq = LiveLink.objects.filter(event_id=event_id).values_list("next_seq", flat=True)
    return next_seq.get() - 1


def waiting(link: LiveLink) -> int:
    """Changes the server has not acknowledged yet."""
    return max(0, link.next_seq - 1 - link.acked_seq)
