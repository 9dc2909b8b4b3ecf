"""What a push sends (docs/live.md, "The sender"): the event's parts as they are now, with
their fingerprints, dumped whole or, when every change waiting to be sent names the one
sheet it touched, only those sheets.

`dump(event, link, sent_parts)` runs in the live worker's push (`live.laptop.sender.push`).
This process keeps what it dumped of the last events (`live.shared.parts.KeptDumps`): the
next dump reads only new sheet versions' grids and fingerprints only the sheets that
changed, and knows when it last dumped the whole event for the link.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from common.gc_tuning import cycle_collection_paused
from live.models import LiveChange, LiveLink
from live.shared.parts import (
    KeptDumps,
    KeptVersions,
    event_parts,
    fingerprints,
    read_snapshot,
    sheet_parts,
)

_KEPT = KeptVersions(events=2, make=KeptDumps)  # (a laptop sends one event, seldom two)
# A push whose changes each name the one sheet they touched dumps only those sheets
# (`_sheet_tables`), but the whole event at least this often: a write that numbers no
# change, or names a sheet but touched more, reaches the server within this time.
WHOLE_EVERY_S = 60.0
_clock = time.monotonic


@dataclass
class Dump:
    """The parts (by key) and their fingerprints; the keys the server holds that are gone;
    the link's next change number when it was read (the changes up to it are in)."""

    parts: dict[str, Any]
    prints: dict[str, str]
    removed: list[str]
    next_seq: int


def dump(event, link: LiveLink, sent_parts: dict) -> Dump:
    """The event as the push sends it, in one consistent read (see the module's
    docstring); ``sent_parts``: the fingerprints the server acknowledged."""
    # The dump makes some 100,000 short-lived objects that hold no cycles: the collector's
    # walks over the worker's heap doubled its CPU (docs/performance-log.md, 2026-11-26).
    with cycle_collection_paused():
        with read_snapshot():
            link_row = LiveLink.objects.filter(pk=link.pk)
            next_seq = link_row.values_list("next_seq", flat=True).get()
            kept = _KEPT.of(event.pk)
            tables = _sheet_tables(link, next_seq - 1, kept)
            parts = None if tables is None else sheet_parts(event, tables, kept.versions)
            whole = parts is None
            if whole:
                parts = event_parts(event, kept.versions)
                kept.whole_of, kept.whole_at = (link.pk, link.created_at), _clock()
        if whole:
            removed = sorted(k for k in sent_parts if k not in parts)
        else:  # a table of the changes whose sheet is gone
            removed = sorted(k for k, data in parts.items() if data is None and k in sent_parts)
            parts = {k: data for k, data in parts.items() if data is not None}
            for key in removed:
                kept.sheets.pop(key, None)
        prints = fingerprints(parts, kept, whole=whole)
    return Dump(parts, prints, removed, next_seq)


def _sheet_tables(link: LiveLink, to_seq: int, kept: KeptDumps) -> set[int] | None:
    """The tables whose sheets alone the changes waiting to be sent touched (each change
    names one: `LiveChange.sheet_table`; none when no change waits), when this process
    dumped the whole event for this link within ``WHOLE_EVERY_S``; None: dump the whole
    event (a change that may touch anything, or the last whole dump too old). A sheet's
    save or confirmation then dumps one sheet, not the 400-player event (issue 38: 39 → 2
    ms a push), and a follow-up push that finds nothing dumps nothing."""
    if kept.whole_of != (link.pk, link.created_at) or _clock() - kept.whole_at > WHOLE_EVERY_S:
        return None
    if to_seq <= link.acked_seq:
        return set()
    waiting = LiveChange.objects.filter(
        event_id=link.event_id, seq__gt=link.acked_seq, seq__lte=to_seq
    )
    tables = list(waiting.values_list("sheet_table", flat=True))
    if len(tables) != to_seq - link.acked_seq or None in tables:
        return None
    return set(tables)
