"""An event as the parts live results send (`live.shared.protocol`), and back.

`event_parts` cuts the event archive (`scoring.archive.dump.export_event`, participants
referred to by their id here, so a participant keeps its ref from one dump to the next) into
parts: "event", "roster", "series:<n>" (tables and seats without the sheets),
"sheet:<n>:<t>" (a table's sheet; a table without one has no part) and "section:<name>".
`assemble` puts parts back together into an archive document the archive import reads (the
server creates and rebuilds its copy with it). `fingerprint` tells the laptop which parts
changed since the server acknowledged them; `read_snapshot` is the one consistent read the
sender dumps them in.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.db import connection, transaction
from django.utils import timezone

from live.shared import protocol
from scoring.archive.dump import dump_sheets, export_event
from scoring.archive.validate import FORMAT, VERSION
from tournaments.models import Table

ROSTER_KEYS = ("clubs", "players", "participants", "groups")
# Top-level keys of the archive that are the document's envelope, not a part.
ENVELOPE = ("format", "version", "exported_at", "exported_from")
SHEET_PREFIX = protocol.SHEET + ":"


def cut(data: dict) -> dict[str, Any]:
    """The parts of an archive document. ``data`` is not changed; the parts share its inner
    values (a deep copy cost three quarters of a push of a 400-player event: bench), so a
    caller that changes a part copies it first (`assemble` does)."""
    parts: dict[str, Any] = {
        protocol.EVENT: data["event"],
        protocol.ROSTER: {key: data.get(key, []) for key in ROSTER_KEYS},
    }
    for series in data.get("series", []):
        number = series["number"]
        tables = []
        for table in series.get("tables", []):
            table = dict(table)
            sheet = table.pop("sheet", None)
            if sheet is not None:
                parts[protocol.sheet_key(number, table["number"])] = sheet
            tables.append(table)
        parts[protocol.series_key(number)] = {**series, "tables": tables}
    core = {*ENVELOPE, "event", "series", *ROSTER_KEYS}
    for name, value in data.items():
        if name not in core:
            parts[protocol.section_key(name)] = value
    return parts


def event_parts(event, version_dumps: dict | None = None) -> dict[str, Any]:
    """The event's parts as they are now (participants by their ids here).
    ``version_dumps``: see `scoring.archive.dump.export_event`."""
    return cut(export_event(event, refs="id", version_dumps=version_dumps))


def sheet_parts(event, table_ids, version_dumps: dict | None = None) -> dict[str, Any] | None:
    """The sheet parts of the tables ``table_ids`` of ``event`` as `event_parts` has them:
    by key, None for a table without a sheet. None when a table is not the event's (any
    more): the caller dumps the whole event instead."""
    tables = Table.objects.filter(pk__in=table_ids, series__event=event)
    rows = tables.values_list("pk", "series__number", "number")
    keys = {pk: protocol.sheet_key(series, number) for pk, series, number in rows}
    if len(keys) != len(set(table_ids)):
        return None
    sheets = dump_sheets({"table_id__in": list(keys)}, version_dumps=version_dumps)
    return {key: sheets.get(pk) for pk, key in keys.items()}


class KeptVersions:
    """What a process dumped before of the last ``events`` events it dumped: by default
    the sheet versions (see `export_event`'s ``version_dumps``: the next dump of one of
    them reads only the new versions' grids), or what ``make`` makes (the sender's
    `KeptDumps`). Process memory only: a restarted process dumps everything once."""

    def __init__(self, events: int, make=dict):
        self.events = events
        self.make = make
        self._of: OrderedDict[int, Any] = OrderedDict()

    def of(self, event_id: int):
        kept = self._of.pop(event_id, None)
        self._of[event_id] = kept = self.make() if kept is None else kept
        while len(self._of) > self.events:
            self._of.popitem(last=False)
        return kept


@contextmanager
def read_snapshot():
    """One consistent read of the event without the write lock. The laptop's SQLite begins
    every transaction IMMEDIATE (the hall mode's settings), which would hold the write lock
    for the whole dump of the event and make a director's save wait behind it (bench:
    save + confirm p95 41 ms → 595 ms with the push running): there a deferred read
    transaction is opened by hand (WAL: readers never block the writer). PostgreSQL's
    transaction takes no lock for reading."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic():
            yield
        return
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ROLLBACK")


_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def fingerprint(data: Any) -> str:
    """SHA-256 of the canonical JSON of a part's data (keys sorted, no spaces): orjson, a
    fifth of json's time for a 400-player event's parts (13 against 58 ms a push); json for
    what orjson does not write (a number beyond 64 bits). The fingerprints stay on the
    laptop (LiveLink.sent_parts): one written by another program differs once, and the
    part is sent again, which changes nothing on the server."""
    try:
        text = orjson.dumps(data, option=_CANONICAL)
    except TypeError:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        text = text.encode("utf-8")
    return hashlib.sha256(text).hexdigest()


@dataclass
class KeptDumps:
    """One event's dumps a sender keeps from push to push: its sheet versions
    (`event_parts`' ``version_dumps``) and its sheet parts with their fingerprints, by key."""

    versions: dict = field(default_factory=dict)
    sheets: dict[str, tuple[Any, str]] = field(default_factory=dict)
    # The last whole dump: for which link (id, creation time) and when (monotonic s).
    whole_of: tuple | None = None
    whole_at: float = 0.0


def fingerprints(
    parts: dict[str, Any], kept: KeptDumps | None = None, *, whole: bool = True
) -> dict[str, str]:
    """The parts' fingerprints. With ``kept``, a sheet's is taken over from the last call
    when its part is equal: sheets are nearly all of a 400-player event's parts, a push
    changes a few, and the comparison is cheap (a kept version's dump is the same object
    from one dump to the next: equal lists of versions compare by identity). Only sheets:
    besides their versions they hold model fields of one type each, while a JSON field
    elsewhere could turn 1 into 1.0 or true, equal in Python but not in the part sent.
    ``whole``: ``parts`` are all of the event's (else a few sheets, `sheet_parts`: the
    others' kept fingerprints stay)."""
    if kept is None:
        return {key: fingerprint(data) for key, data in parts.items()}
    prints, sheets = {}, {}
    for key, data in parts.items():
        before = kept.sheets.get(key)
        if before is not None and before[0] == data:
            prints[key] = before[1]
        else:
            prints[key] = fingerprint(data)
        if key.startswith(SHEET_PREFIX):
            sheets[key] = (data, prints[key])
    if whole:
        kept.sheets = sheets
    else:
        kept.sheets.update(sheets)
    return prints


def assemble(parts: dict[str, Any], *, exported_from: str = "") -> dict:
    """An archive document from parts: the inverse of `cut` (but for the envelope).

    Raises ValueError for a key that is not a part key, KeyError when "event" or "roster"
    is missing. A sheet whose series is missing is left out (the series brings its tables).
    """
    series_of: dict[int, dict] = {}
    sheets: dict[tuple[int, int], Any] = {}
    sections: dict[str, Any] = {}
    for key, data in parts.items():
        kind, args = protocol.parse_key(key)
        if kind == protocol.SERIES:
            series_of[args[0]] = data
        elif kind == protocol.SHEET:
            sheets[args] = data
        elif kind == protocol.SECTION:
            sections[args[0]] = data
    roster = parts[protocol.ROSTER]
    series_out = []
    for number in sorted(series_of):
        series = copy.deepcopy(series_of[number])
        series["tables"] = [
            {**table, "sheet": copy.deepcopy(sheets.get((number, table.get("number"))))}
            for table in series.get("tables", [])
        ]
        series_out.append(series)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "exported_from": exported_from or "Rommé Ledger (live)",
        "event": copy.deepcopy(parts[protocol.EVENT]),
        **{key: copy.deepcopy(roster.get(key, [])) for key in ROSTER_KEYS},
        "series": series_out,
        **copy.deepcopy(sections),
    }
