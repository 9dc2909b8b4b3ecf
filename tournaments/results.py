"""The results version of an event: one number that changes with every public figure.

Every write that can change what the public standings, the hall display or the JSON show
calls :func:`bump_results_version` inside its own transaction, so the new number becomes
visible together with the new results. Public responses key their ETag and their cache
entry on it (``scoring.standings.public``). It lives here, below ``scoring.sheets`` and
``scoring.standings``, so both may call it without knowing each other.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments.models import Event


def bump_results_version(event_id: int) -> None:
    """Raise the event's results version by one (an UPDATE ... + 1: no lost bump)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("bump_results_version belongs inside the write's transaction")
    Event.objects.filter(pk=event_id).update(
        results_version=F("results_version") + 1, results_changed_at=timezone.now()
    )


def results_state(event_id: int) -> tuple[int, object, object] | None:
    """(version, changed at, created at) of an event in one query, or None."""
    return (
        Event.objects.filter(pk=event_id)
        .values_list("results_version", "results_changed_at", "created_at")
        .first()
    )
