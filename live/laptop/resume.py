"""Sending again after a restart (docs/live.md, "Failures and retries"): a laptop killed
between a change's commit and its wake-up of the worker, or while its worker was in the
middle of a push, leaves changes numbered in the outbox and no waiting task to send them
(a task that was running when the process died stays "running" for ever). When the task
worker starts, `resume_pushes` asks for a push of every event whose changes wait, so
that they are sent without a director opening a page."""

from __future__ import annotations

from django.db.models import F

from live.laptop.sender import schedule_push
from live.models import LiveLink


def resume_pushes() -> list[int]:
    """Schedule a push (at once) for every enabled, unrefused link whose changes wait; the
    ids of those events. A push already waiting is brought forward, never doubled."""
    events = list(
        LiveLink.objects.filter(enabled=True, refused="", next_seq__gt=F("acked_seq") + 1)
        .order_by("event_id")
        .values_list("event_id", flat=True)
    )
    for event_id in events:
        schedule_push(event_id)
    return events
