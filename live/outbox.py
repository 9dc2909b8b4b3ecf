"""The laptop's outbox (docs/live.md): every change of what the server must show is
numbered in the change's own transaction.

`add_change` runs inside the write's transaction (called by `live.receivers.on_change`,
the receiver of ``tournaments.results.results_bumping``). For an event with an enabled
LiveLink it locks the link's row, writes LiveChange(seq=next_seq) and moves next_seq on: a
rolled-back write leaves neither the row nor a hole, and two writers at once wait for each
other on the lock, so no number is given twice or skipped. An event without a link costs
one indexed lookup.
"""

from __future__ import annotations

from live.models import LiveChange, LiveLink


def add_change(event_id: int) -> int | None:
    """Number one change of the event (inside the caller's transaction); its seq, or None
    when the event is not sent live."""
    row = (
        LiveLink.objects.select_for_update()
        .filter(event_id=event_id, enabled=True)
        .values_list("pk", "next_seq")
        .first()
    )
    if row is None:
        return None
    pk, seq = row
    LiveChange.objects.create(event_id=event_id, seq=seq)
    LiveLink.objects.filter(pk=pk).update(next_seq=seq + 1)
    return seq


def waiting(link: LiveLink) -> int:
    """Changes the server has not acknowledged yet."""
    return max(0, link.next_seq - 1 - link.acked_seq)
