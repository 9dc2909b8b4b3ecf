"""What the public may see of a snapshot's line (issue 27, points 5 and 6; DSGVO): built
field by field from a whitelist (name, club, results; never birth year, PIN or player
number). A hidden line keeps its rank and points and loses its name, club, player id and
results. `public_text` is that line as the JSON API writes it, stored with the row when the
snapshot is written (`federation.rankings.snapshot_rows.pack`), so that the national list
splices 10,000 stored texts instead of building and encoding 10,000 dicts per request."""

from __future__ import annotations

import orjson

# Only these leave the house; a hidden line keeps the first group only.
RANKED = ("rank", "value", "listed", "events_counted", "best")
PERSON = ("player", "name", "club")
RESULT = ("event_name", "date", "place", "field", "points", "counted", "reason")


def public_line(line: dict) -> dict:
    """A line as the public may see it (see the module's docstring)."""
    out = {key: line.get(key) for key in RANKED}
    out["hidden"] = bool(line.get("hidden"))
    if "region_rank" in line:
        out["region_rank"] = line["region_rank"]
    if not out["listed"]:
        out["reason"] = line.get("reason") or ""
    if out["hidden"]:
        out.update(player=None, name=None, club=None)
    else:
        out.update({key: line.get(key) for key in PERSON})
    return out


def public_results(line: dict) -> list[dict]:
    if line.get("hidden"):
        return []
    return [{key: result.get(key) for key in RESULT} for result in line.get("results", [])]


def public_text(line: dict) -> str:
    """`public_line` of a line without ``region_rank`` in JSON, its reason untranslated
    (the reader's language is known only when read)."""
    if "region_rank" in line:  # never in a computed line: no copy for 10,000 of them
        line = {key: value for key, value in line.items() if key != "region_rank"}
    return orjson.dumps(public_line(line)).decode()
