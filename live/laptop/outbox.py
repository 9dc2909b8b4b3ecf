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
not read back: `last_number` reads it where it is needed. What the UPDATE reads back is
whether a push waits (``LiveLink.push_after``): read under the row's lock, it cannot be
cleared by a push's end between the reading and the change's commit, which would leave
the change unsent (PostgreSQL; SQLite's IMMEDIATE transactions run one after the other).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import NamedTuple

from django.db import connection, transaction
from django.utils import timezone

from live.models import LiveChange, LiveLink


class Numbered(NamedTuple):
    """A change numbered in the outbox, and whether a push of its event waits: 1 one is due
    within the window the caller gave (or runs now), 0 one is due later or is overdue,
    None none waits (or no window was given)."""

    push_due: int | None


def add_change(
    event_id: int, window: list | None = None, *, sheet_table: int | None = None
) -> Numbered | None:
    """Number one change of the event (inside the caller's transaction); None when the
    event is not sent live. ``window``: the bounds of ``LiveLink.push_after`` within which a
    waiting push counts as due (`live.laptop.sender.push_window`); ``sheet_table``: the
    table whose sheet alone the change touched (`LiveChange.sheet_table`)."""
    quote = connection.ops.quote_name
    links, changes = quote(LiveLink._meta.db_table), quote(LiveChange._meta.db_table)
    update = f"UPDATE {links} SET next_seq = next_seq + 1 WHERE event_id = %s AND enabled = %s"
    # NULL when none waits, by SQL's rule for NULL (SQLite 3.40's RETURNING read
    # "push_after IS NULL" of a NULL as false: tests/live/laptop/test_outbox_sender.py).
    due = "push_after BETWEEN %s AND %s"
    with connection.cursor() as cursor:
        if window is None:
            cursor.execute(update, [event_id, True])
            if cursor.rowcount != 1:
                return None
            numbered = Numbered(None)
        elif connection.features.can_return_columns_from_insert:  # UPDATE … RETURNING
            cursor.execute(f"{update} RETURNING {due}", [event_id, True, *window])
            row = cursor.fetchone()
            if row is None:
                return None
            numbered = Numbered(_due(row[0]))
        else:  # SQLite before 3.35: its IMMEDIATE transaction holds the lock already
            cursor.execute(update, [event_id, True])
            if cursor.rowcount != 1:
                return None
            cursor.execute(f"SELECT {due} FROM {links} WHERE event_id = %s", [*window, event_id])
            numbered = Numbered(_due(cursor.fetchone()[0]))
        # The statement after the UPDATE sees the transaction's own next_seq.
        created = connection.ops.adapt_datetimefield_value(timezone.now())
        cursor.execute(
            f"INSERT INTO {changes} (event_id, seq, created_at, sheet_table)"
            f" SELECT event_id, next_seq - 1, %s, %s FROM {links} WHERE event_id = %s",
            [created, sheet_table, event_id],
        )
    return numbered


def _due(value) -> int | None:
    return None if value is None else int(value)  # PostgreSQL's boolean, SQLite's 0/1


def last_number(event_id: int) -> int:
    """The number of the event's newest change (0 before the first)."""
    next_seq = LiveLink.objects.filter(event_id=event_id).values_list("next_seq", flat=True)
    return next_seq.get() - 1


def waiting(link: LiveLink) -> int:
    """Changes the server has not acknowledged yet."""
    return max(0, link.next_seq - 1 - link.acked_seq)


def allocate_change(event_id: int) -> int | None:
    """Number a change from the worker, synced to the disk even where the worker's other
    commits are not (the hall's live worker, romme/settings.py): a number lost in a power
    cut after the server took it would be given again to another change, which the server
    would then take for one it holds."""
    with synced_commits(), transaction.atomic():
        numbered = add_change(event_id)
        return last_number(event_id) if numbered is not None else None


@contextmanager
def synced_commits():
    # (Inside a transaction the level cannot change: the outer commit decides.)
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        level = cursor.fetchone()[0]
        cursor.execute("PRAGMA synchronous=FULL")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA synchronous={int(level)}")
