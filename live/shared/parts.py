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
from typing import Any

import orjson
from django.db import connection, transaction
from django.utils import timezone

from live.shared import protocol
from scoring.archive.dump import export_event
from scoring.archive.validate import FORMAT, VERSION

ROSTER_KEYS = ("clubs", "players", "participants", "groups")
# Top-level keys of the archive that are the document's envelope, not a part.
ENVELOPE = ("format", "version", "exported_at", "exported_from")


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


class KeptVersions:
    """The sheet versions a process dumped before (see `export_event`'s
    ``version_dumps``), for the last ``events`` events it dumped: the next dump of one of
    them reads only the new versions' grids. Process memory only: a restarted process
    dumps everything once."""

    def __init__(self, events: int):
        self.events = events
        self._of: OrderedDict[int, dict] = OrderedDict()

    def of(self, event_id: int) -> dict:
        kept = self._of.pop(event_id, None)
        self._of[event_id] = kept = {} if kept is None else kept
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


def fingerprints(parts: dict[str, Any]) -> dict[str, str]:
    return {key: fingerprint(data) for key, data in parts.items()}


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
