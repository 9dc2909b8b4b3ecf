"""The results version of an event: one number that changes with every public figure.

Every write that can change what the public standings, the hall display or the JSON show
calls :func:`bump_results_version` inside its own transaction, so the new number becomes
visible together with the new results. Public responses key their ETag and their cache
entry on it (``scoring.standings.public``). It lives here, below ``scoring.sheets`` and
``scoring.standings``, so both may call it without knowing each other.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from functools import cache

from django.db import connection, transaction
from django.db.models import F, Q
from django.dispatch import Signal
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournaments.models import Event

logger = logging.getLogger(__name__)

# Sent once the write that raised an event's results version has committed (keyword
# ``event_id``). ``scoring`` renders the standings PDF ahead of the click on it
# (``scoring.exports.prerender``, connected in ``scoring.apps``): tournaments knows nothing
# of exports.
results_changed = Signal()

# Sent inside the write's transaction, before the version moves (keywords ``event_ids``, the
# events the write changes, ``names_only``: True when only a player's or club's name
# changed, a rename sends one signal for all the events that show the name; and
# ``sheet_table``: the table whose score sheet alone the write changed, or None). ``live``
# records the change in its outbox here, in the same transaction, and refuses a write to an
# event that a laptop owns (a receiver's exception rolls the write back; names are never
# refused).
results_bumping = Signal()

# Sent once an event's content that came from another installation has committed here
# (keywords ``event_id``, ``actor``): a submission taken in (``federation.submissions``).
# ``leagues`` answers it: a match day played on the host club's laptop reaches the league as
# a result waiting for the officer's approval. Here, below both the sender and the receiver.
event_arrived = Signal()


def _announce(event_id: int) -> None:
    # Robust: a receiver's failure is logged and never turns a committed write into an error.
    for receiver, outcome in results_changed.send_robust(sender=Event, event_id=event_id):
        if isinstance(outcome, Exception):
            logger.error("results_changed receiver %r failed", receiver, exc_info=outcome)


def announce_arrival(event_id: int, actor=None) -> None:
    """Inside the arrival's transaction: once it has committed, ``event_arrived`` is sent
    (keywords ``event_id`` and ``actor``, who sent it, or None)."""

    def send() -> None:
        sent = event_arrived.send_robust(sender=Event, event_id=event_id, actor=actor)
        for receiver, outcome in sent:
            if isinstance(outcome, Exception):
                logger.error("event_arrived receiver %r failed", receiver, exc_info=outcome)

    transaction.on_commit(send)


def _bumping(event_id: int, sheet_table: int | None) -> None:
    results_bumping.send(
        sender=Event, event_ids=[event_id], names_only=False, sheet_table=sheet_table
    )


def bump_results_version(event_id: int, *, sheet_table: int | None = None) -> None:
    """Raise the event's results version by one (an UPDATE ... + 1: no lost bump); once
    the transaction has committed, ``results_changed`` is sent. ``sheet_table``: the write
    changed the sheet of this table and nothing else of the event's raw facts (live results
    then send that sheet alone; tests/live/test_sheet_changes.py holds every such write
    to it)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("bump_results_version belongs inside the write's transaction")
    _bumping(event_id, sheet_table)
    Event.objects.filter(pk=event_id).update(
        results_version=F("results_version") + 1, results_changed_at=timezone.now()
    )
    transaction.on_commit(lambda: _announce(event_id))


def announce_change(event_id: int, *, sheet_table: int | None = None) -> None:
    """A write that changes the event without moving any public figure (a seat swapped,
    a player registered, a sheet entered but not confirmed): ``results_bumping`` only, so
    the outbox numbers it and the owner's guard can refuse it. Inside the transaction.
    ``sheet_table``: as for `bump_results_version`."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("announce_change belongs inside the write's transaction")
    _bumping(event_id, sheet_table)


def bump_for_names(sender, *, player_ids=(), club_ids=(), **_kwargs) -> None:
    """Receiver of ``clubs.signals.public_names_changed`` (connected in ``apps.py``): every
    event that shows a renamed player or club gets a new results version."""
    shown = Q(participants__player_id__in=player_ids) | Q(participants__club_id__in=club_ids)
    events = Event.objects.filter(shown | Q(club_id__in=club_ids)).distinct()
    now = timezone.now()
    with transaction.atomic():  # the sender's transaction, or its own in a shell
        ids = list(events.values_list("pk", flat=True))
        for receiver, outcome in results_bumping.send_robust(
            sender=Event, event_ids=ids, names_only=True
        ):
            if isinstance(outcome, Exception):
                logger.error("results_bumping receiver %r failed", receiver, exc_info=outcome)
        Event.objects.filter(pk__in=ids).update(
            results_version=F("results_version") + 1, results_changed_at=now
        )


@cache
def _state_sql() -> str:
    field = Event._meta.get_field
    columns = ", ".join(
        connection.ops.quote_name(field(name).column)
        for name in ("results_version", "results_changed_at", "created_at")
    )
    table = connection.ops.quote_name(Event._meta.db_table)
    pk = connection.ops.quote_name(Event._meta.pk.column)
    return f"SELECT {columns} FROM {table} WHERE {pk} = %s"


def _aware(value) -> datetime | None:
    # SQLite hands raw queries naive UTC datetimes (or text); the ORM would make them aware.
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def results_state(event_id: int) -> tuple[int, object, object] | None:
    """(version, changed at, created at) of an event in one query, or None.

    The query is plain SQL: it is all a conditional GET answered 304 does, and building it
    with the ORM took as long as the rest of the request (``python -m bench readers``).
    """
    with connection.cursor() as cursor:
        cursor.execute(_state_sql(), [event_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return row[0], _aware(row[1]), _aware(row[2])
