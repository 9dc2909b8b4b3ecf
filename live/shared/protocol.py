"""What a laptop sends a server, and what the server answers (version 1). Both sides read
this module; nothing else spells these names.

A batch (POST /api/live/v1/batches, header ``Authorization: Bearer <token>``, JSON):

    {
      "protocol": "romme-live", "version": 1,
      "origin": "<the laptop's Installation.key>",
      "event": <the event's id on the laptop>,
      "from_seq": 38,            # the first change this batch answers (acked + 1)
      "to_seq": 52,              # the last change it answers: the server holds 1..52 after it
      "final": true,             # false: more batches of the same range follow (a large
                                 # backlog is split); the server moves its number only on
                                 # the final one, applying every part it gets idempotently
      "parts": [{"key": "sheet:3:12", "data": {...}}, ...],
      "removed": ["sheet:3:14"]  # parts that no longer exist on the laptop
    }

A part is the current state of one piece of the event, cut from the event archive
(`scoring.archive.dump.export_event`, participants referred to by their laptop id, which
stays the same from one dump to the next): changes are sent as the parts they touched, each
whole, so applying a part twice changes nothing. Part keys:

    "event"                    the archive's "event" object (fields, rule set, club, season)
    "roster"                   {"clubs", "players", "participants", "groups"} of the archive
    "series:<n>"               the archive's series <n> with its tables and seats, without
                               the tables' sheets
    "sheet:<n>:<t>"            the archive's sheet of table <t> in series <n> (versions, hands)
    "section:<name>"           the archive's section <name> (e.g. "categories", "prizes")

Answers (JSON): 200 {"last_seq": N} (also for a batch already applied: nothing changes);
409 {"error": "<German>", "code": "gap", "last_seq": N} (send again from N + 1);
409 {"error": …, "code": "taken_over", "taken_over_at": …, "by": …};
401/403 {"error": …, "code": "token"} (revoked, unknown, another club's or event's);
400 {"error": …, "code": "invalid", "path": …}; 413 too large; 429 {"retry_after": s}.
GET /api/live/v1/status?origin=…&event=… (same header) answers {"last_seq": N, "owner": …}.
"""

from __future__ import annotations

PROTOCOL = "romme-live"
VERSION = 1
BATCHES_PATH = "/api/live/v1/batches"
STATUS_PATH = "/api/live/v1/status"

EVENT = "event"
ROSTER = "roster"
SERIES = "series"
SHEET = "sheet"
SECTION = "section"

# Codes of refusals; the laptop tells the director the German text the server sent.
GAP = "gap"
TAKEN_OVER = "taken_over"
TOKEN = "token"
INVALID = "invalid"

# A batch the server reads whole: the archive import's limits apply to it as well.
MAX_BATCH_BYTES = 8 * 1024 * 1024


def series_key(number: int) -> str:
    return f"{SERIES}:{int(number)}"


def sheet_key(series_number: int, table_number: int) -> str:
    return f"{SHEET}:{int(series_number)}:{int(table_number)}"


def section_key(name: str) -> str:
    return f"{SECTION}:{name}"


def parse_key(key: str) -> tuple[str, tuple]:
    """("sheet", (3, 12)) for "sheet:3:12"; ValueError for anything else."""
    kind, _sep, rest = str(key).partition(":")
    if kind in (EVENT, ROSTER) and not rest:
        return kind, ()
    if kind == SERIES:
        return kind, (_number(rest),)
    if kind == SHEET:
        series, _sep, table = rest.partition(":")
        return kind, (_number(series), _number(table))
    if kind == SECTION and rest.isidentifier():
        return kind, (rest,)
    raise ValueError(f"not a part key: {str(key)[:40]!r}")


def _number(text: str) -> int:
    if not text.isdigit() or len(text) > 6:
        raise ValueError(f"not a number: {text[:10]!r}")
    return int(text)
