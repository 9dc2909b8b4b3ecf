"""A ranking snapshot's lines as rows (issue 27, point 7): one `SnapshotLine` per player, so
that a list page reads one page of rows and a card one row.

A federation's snapshot has 10,000 lines of some 24 results each; written out as dicts
that is 48 MB of JSON per computation. The facts of an event that every result of it
repeats (version, event, event name, date, field) are kept once in the snapshot's
``events``; a row's result is ``[index into events, place, points, counted, reason]``
(14 MB).
`unpack` gives the documented dicts back (docs/federation.md); a result of any other shape
is stored as it is. A line whose results are those of a row of an earlier snapshot names
that row (``results_from``, given by `federation.rankings.compute`) and stores none: after
one approval 400 of 10,000 rows carry results. Read them with `shared_results` or
`read_lines`. Rows are written with one ``executemany``: ``bulk_create`` prepares
every value through its field, seconds for 10,000 rows."""

from __future__ import annotations

from decimal import Decimal

import orjson
from django.db import connection
from django.db.models import JSONField
from django.db.models.functions import Coalesce

from clubs.models import fold_german
from common.json_text import JSONTextField, json_text
from federation.rankings.public_lines import public_text

FACTS = ("version", "event", "event_name", "date", "field")
KEYS = frozenset((*FACTS, "place", "points", "counted", "reason"))
ROW_FIELDS = (
    "snapshot", "position", "player", "region", "rank", "region_rank", "listed", "hidden",
    "line", "results", "sort_name", "sort_club", "events_counted", "points", "public",
    "results_from",
)  # fmt: skip


def sort_columns(line: dict) -> tuple:
    """A line's sort_name, sort_club, events_counted and points (SnapshotLine)."""
    return (fold_german(line.get("name") or "")[:300], fold_german(line.get("club") or "")[:300],
            line.get("events_counted") or 0, Decimal(line.get("value") or 0))  # fmt: skip


def pack(snapshot_id, lines: list[dict], events=()) -> tuple[list[list], list[tuple]]:
    """(the snapshot's events, its rows in ROW_FIELDS order). Results already packed
    against ``events`` (lists, or their JSON text: `federation.rankings.compute` writes
    them so) stay as they are; a line with ``results_from`` (a row's id) stores none. A
    line's region is its first (a computed line has one: the club's on the ranking date);
    its region rank is one more than the region's listed lines ranked strictly better
    (shared ranks stay shared; the listed lines come first in a snapshot)."""
    facts: dict[tuple, int] = {tuple(fact): index for index, fact in enumerate(events)}
    seen: dict = {}  # region -> (its lines so far, the last national rank, its regional rank)
    rows = []
    for position, line in enumerate(lines):
        regions = line.get("regions") or []
        region = regions[0] if regions else None
        region_rank = None
        if region is not None:
            count, previous, regional = seen.get(region, (0, None, None))
            count += 1
            if line.get("listed") and line.get("rank") is not None:
                if line["rank"] != previous:
                    regional, previous = count, line["rank"]
                region_rank = regional
            seen[region] = (count, previous, regional)
        results = line.get("results") or []
        if type(results) is str or (type(results) is list and set(map(type, results)) <= {list}):
            pass  # packed already (federation.rankings.compute): as it is
        else:
            results = _packed(results, facts)
        head = dict(line)  # a copy without the results (a dict comprehension: 4 times slower)
        head.pop("results", None)
        shared = head.pop("results_from", None)
        if shared is not None:
            results = ""  # read from the row named
        rows.append(
            (snapshot_id, position, line["player"], region, line.get("rank"), region_rank,
             bool(line.get("listed")), bool(line.get("hidden")), head, results,
             *sort_columns(line), public_text(head), shared)
        )  # fmt: skip
    return [list(key) for key in facts], rows


def _packed(raw, facts: dict) -> list:
    """A line's results packed against the events (`facts`: fact -> index, grown here)."""
    results = []
    for r in raw:
        if type(r) is list:
            results.append(r)
        elif r.keys() == KEYS:
            key = (r["version"], r["event"], r["event_name"], r["date"], r["field"])
            index = facts.setdefault(key, len(facts))
            results.append([index, r["place"], r["points"], r["counted"], r["reason"]])
        else:
            results.append(r)
    return results


def unpack(results: list, events: list) -> list[dict]:
    """A row's results as the documented dicts."""
    out = []
    for r in results:
        if type(r) is list:
            version, event, name, day, size = events[r[0]]
            out.append(
                {
                    "version": version,
                    "event": event,
                    "event_name": name,
                    "date": day,
                    "place": r[1],
                    "field": size,
                    "points": r[2],
                    "counted": r[3],
                    "reason": r[4],
                }
            )
        else:
            out.append(r)
    return out


_JSON = (dict, list)


def insert(model, fields, rows, *, casts=None, skip_conflicts: bool = False) -> None:
    """``rows`` (tuples in ``fields`` order; a dict or list in a JSON column goes in as JSON,
    a text as it is) in one executemany. ``casts``: PostgreSQL types of the columns given as
    text (json, date)."""
    if not rows:
        return
    casts = casts or {}
    quote = connection.ops.quote_name
    postgres = connection.vendor == "postgresql"
    columns = ", ".join(quote(model._meta.get_field(f).column) for f in fields)
    marks = ", ".join("%s" + (f"::{casts[f]}" if postgres and f in casts else "") for f in fields)
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
    if skip_conflicts:
        sql += " ON CONFLICT DO NOTHING"
    # Only the JSON columns are looked at (15 values a row, 10,000 rows).
    json_at = [n for n, f in enumerate(fields)
               if isinstance(model._meta.get_field(f), JSONTextField | JSONField)]  # fmt: skip
    params = []
    for row in rows:
        row = list(row)
        for n in json_at:
            if type(row[n]) in _JSON:
                row[n] = json_text(row[n])
        params.append(row)
    with connection.cursor() as cursor:
        if postgres and not skip_conflicts:
            # COPY: a fraction of an executemany's time for 10,000 rows on PostgreSQL.
            table = quote(model._meta.db_table)
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in params:
                    copy.write_row(row)
        else:
            cursor.executemany(sql, params)


def shared_results():
    """A row's results in a query (``values_list("line", shared_results())``): its own, or
    those of the row it shares them with (one join)."""
    return Coalesce("results_from__results", "results", output_field=JSONTextField())


def read_lines(model, snapshot_id, region_id=None, *, results: bool = False) -> list:
    """The lines of a snapshot (or of one region) in its order, without their results, or
    (line, packed results) pairs: one query on ``model``'s table (SnapshotLine) whose JSON
    is parsed in one go (a field converter per row costs more than the database for 10,000
    rows)."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    if results:  # its own or those of the row it shares them with
        columns = "r.line, COALESCE(s.results, r.results)"
        source = f"{table} r LEFT JOIN {table} s ON s.id = r.results_from_id"
    else:
        columns, source = "r.line", f"{table} r"
    where, params = "r.snapshot_id = %s", [snapshot_id]
    if region_id is not None:
        where, params = where + " AND r.region = %s", [*params, region_id]
    sql = f"SELECT {columns} FROM {source} WHERE {where} ORDER BY r.position"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    # The columns are JSON stored as text (common.json_text): one parse for all rows.
    if results:
        return orjson.loads("[" + ",".join(f"[{a},{b}]" for a, b in rows) + "]")
    return orjson.loads("[" + ",".join(row[0] for row in rows) + "]")
