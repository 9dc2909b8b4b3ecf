"""Receivers of live results, connected by `live.apps.LiveConfig.ready` through `connect`."""

from __future__ import annotations


def connect() -> None:
    """Connect the outbox to ``results_bumping`` (idempotent: a dispatch uid)."""
    from live.outbox import record_change
    from tournaments.results import results_bumping

    results_bumping.connect(record_change, dispatch_uid="live.outbox.record_change")
