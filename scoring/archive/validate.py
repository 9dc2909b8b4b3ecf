"""Checking an archive before anything is written: the JSON Schema (``schema.json``) first,
then what a schema cannot say (references, seats, table sizes, each sheet's grid read by the
rules module). `validate` returns the plan of every sheet or raises `ArchiveError` naming
the JSON path of the first bad field."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.utils.translation import gettext as _

from rules import PRESETS, RuleSetError, ruleset_from
from scoring.archive import sections
from scoring.models import Sheet, SheetVersion
from scoring.sheets import grid as sheets_grid
from scoring.sheets.grid import GridError
from scoring.sheets.messages import problem_message
from tournaments import draw
from tournaments.models import Series

FORMAT = "romme-ledger-event"
# 2: the sections of scoring.archive.sections (categories, the prize-giving). Version 1
# archives (without them) are read as they are.
VERSION = 2
READABLE_VERSIONS = (1, 2)
SCHEMA_PATH = Path(__file__).with_name("schema.json")
MESSAGE_LIMIT = 240


class ArchiveError(Exception):
    """The file is refused; ``path`` is the JSON path of the first bad field, ``message``
    says why in the active language, ``code`` names the kind of refusal where a caller
    reacts to it ("duplicate": the club has an event of that name on that day)."""

    def __init__(self, path: str, message: str, code: str = ""):
        self.path = path
        self.message = message
        self.code = code
        super().__init__(f"{path}: {message}")


def json_path(parts) -> str:
    """``["series", 1, "tables"]`` -> ``"$.series[1].tables"``."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def shorten(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def json_reason(msg: str) -> str:
    """The json module's English reason (a fixed set) in the active language."""
    reasons = {
        "Expecting value": _("a value is missing"),
        "Expecting property name enclosed in double quotes": _(
            "a property name in double quotes is missing"
        ),
        "Expecting ',' delimiter": _("a comma is missing"),
        "Expecting ':' delimiter": _("a colon is missing"),
        "Extra data": _("more text follows the end of the data"),
        "Unterminated string starting at": _("a text is not closed"),
        "Invalid control character at": _("a control character stands in a text"),
        "Invalid \\escape": _("a backslash starts no valid escape"),
    }
    return reasons.get(msg, "")


# ----- generic fields --------------------------------------------------------------------------


@cache
def core_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def schema() -> dict:
    """schema.json with the schema of every registered section as a top-level property."""
    full = dict(core_schema())
    full["properties"] = {**full["properties"], **sections.schemas()}
    return full


def _document_order(instance, path) -> tuple:
    """Where a path lies in the document (keys in file order, then list indices)."""
    key, node = [], instance
    for part in path:
        if isinstance(node, dict):
            keys = list(node)
            key.append(keys.index(part) if part in keys else len(keys))
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int):
            key.append(part)
            node = node[part] if 0 <= part < len(node) else None
        else:
            key.append(0)
            node = None
    return tuple(key)


def check_schema(data) -> None:
    """Raise ArchiveError for the first place (in document order) that breaks the schema."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema())
    errors = list(validator.iter_errors(data))
    if not errors:
        return
    first = min(errors, key=lambda e: (_document_order(data, e.absolute_path), len(e.path)))
    # anyOf/oneOf: the branch error is more telling than "not valid under any".
    if first.context:
        deepest = max(first.context, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) > len(first.absolute_path):
            first = deepest
    raise ArchiveError(json_path(first.absolute_path), shorten(schema_message(first)))


def _shown(value) -> str:
    """A value as a message shows it: texts and numbers as written, objects by their kind."""
    if isinstance(value, dict):
        return _("the object")
    if isinstance(value, list):
        return _("the list")
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def schema_message(error) -> str:
    """jsonschema's message in the active language (its own texts are English only)."""
    kind, limit, value = error.validator, error.validator_value, error.instance
    shown = _shown(value)
    if kind == "required":
        missing = [n for n in limit if isinstance(value, dict) and n not in value] or limit
        return _("%(name)s is a required property") % {"name": repr(missing[0])}
    if kind == "type":
        types = limit if isinstance(limit, list) else [limit]
        return _("%(value)s is not of type %(type)s") % {
            "value": shown,
            "type": ", ".join(repr(t) for t in types),
        }
    if kind == "const":
        return _("%(expected)s was expected") % {"expected": repr(limit)}
    if kind == "enum":
        return _("%(value)s is not one of %(choices)s") % {
            "value": shown,
            "choices": ", ".join(repr(c) for c in limit),
        }
    if kind == "maximum":
        return _("%(value)s is greater than the maximum of %(limit)s") % {
            "value": shown,
            "limit": limit,
        }
    if kind == "minimum":
        return _("%(value)s is less than the minimum of %(limit)s") % {
            "value": shown,
            "limit": limit,
        }
    if kind == "maxLength":
        return _("%(value)s is longer than %(limit)s characters") % {"value": shown, "limit": limit}
    if kind == "minLength":
        return _("%(value)s is shorter than %(limit)s characters") % {
            "value": shown,
            "limit": limit,
        }
    if kind == "maxItems":
        return _("the list has more than %(limit)s entries") % {"limit": limit}
    if kind == "minItems":
        return _("the list has fewer than %(limit)s entries") % {"limit": limit}
    if kind == "pattern":
        return _("%(value)s does not match %(pattern)s") % {"value": shown, "pattern": repr(limit)}
    if kind == "additionalProperties" and isinstance(value, dict):
        known = error.schema.get("properties", {})
        extra = [repr(k) for k in value if k not in known]
        return _("properties that are not allowed here: %(names)s") % {"names": ", ".join(extra)}
    if kind in ("anyOf", "oneOf"):
        return _("%(value)s fits none of the allowed forms") % {"value": shown}
    return _("%(value)s breaks the rule “%(rule)s” of the format") % {"value": shown, "rule": kind}


@dataclass
class _SheetPlan:
    """What the semantic check learnt about one sheet, reused by the import."""

    path: list
    check: sheets_grid.GridCheck | None
    numbers: list[int]


def _check_semantics(data: dict) -> dict[tuple[int, int], _SheetPlan]:
    """What a schema cannot say; raises ArchiveError at the first problem. Returns the
    checked grid of every sheet, keyed by (series index, table index)."""
    event = data["event"]
    try:
        if event["ruleset"]["slug"] not in PRESETS:
            raise ArchiveError(
                "$.event.ruleset.slug",
                _("unknown rule set %(slug)s (known: %(known)s)")
                % {"slug": repr(event["ruleset"]["slug"]), "known": ", ".join(PRESETS)},
            )
        ruleset = ruleset_from(event["ruleset"]["slug"], event["ruleset"]["overrides"])
    except RuleSetError as err:
        codes = ", ".join(p.code for p in err.problems)
        raise ArchiveError(
            "$.event.ruleset.overrides", _("not a valid rule set (%(codes)s)") % {"codes": codes}
        ) from err

    club_names = {event["club"]["short_name"]}
    for i, club in enumerate(data.get("clubs", [])):
        if club["short_name"] in club_names:
            raise ArchiveError(json_path(["clubs", i, "short_name"]), _("club listed twice"))
        club_names.add(club["short_name"])

    numbers = set()
    for i, player in enumerate(data["players"]):
        if player["player_number"] in numbers:
            raise ArchiveError(
                json_path(["players", i, "player_number"]),
                _("player number %(number)s appears twice")
                % {"number": repr(player["player_number"])},
            )
        numbers.add(player["player_number"])

    refs: dict[int, dict] = {}
    seen_players = set()
    for i, participant in enumerate(data["participants"]):
        path = ["participants", i]
        if participant["ref"] in refs:
            raise ArchiveError(
                json_path([*path, "ref"]),
                _("ref %(ref)s appears twice") % {"ref": participant["ref"]},
            )
        refs[participant["ref"]] = participant
        number = participant["player_number"]
        if number not in numbers:
            raise ArchiveError(
                json_path([*path, "player_number"]),
                _("no player %(number)s in $.players") % {"number": repr(number)},
            )
        if number in seen_players:
            raise ArchiveError(
                json_path([*path, "player_number"]),
                _("player %(number)s takes part twice") % {"number": repr(number)},
            )
        seen_players.add(number)
        short = participant["club_short_name"]
        if short is not None and short not in club_names:
            raise ArchiveError(
                json_path([*path, "club_short_name"]),
                _("club %(club)s is neither the event's club nor in $.clubs")
                % {"club": repr(short)},
            )

    def ref_exists(ref, path):
        if ref not in refs:
            raise ArchiveError(json_path(path), _("no participant with ref %(ref)s") % {"ref": ref})

    group_names, grouped = set(), set()
    for i, group in enumerate(data["groups"]):
        if (group["kind"], group["name"]) in group_names:
            if group["kind"] == "pair":
                twice = _("two pairs named %(name)s")
            else:
                twice = _("two teams named %(name)s")
            raise ArchiveError(
                json_path(["groups", i, "name"]), twice % {"name": repr(group["name"])}
            )
        group_names.add((group["kind"], group["name"]))
        for j, ref in enumerate(group["members"]):
            ref_exists(ref, ["groups", i, "members", j])
            if (group["kind"], ref) in grouped:
                raise ArchiveError(
                    json_path(["groups", i, "members", j]),
                    (
                        _("participant %(ref)s is in two pairs")
                        if group["kind"] == "pair"
                        else _("participant %(ref)s is in two teams")
                    )
                    % {"ref": ref},
                )
            grouped.add((group["kind"], ref))

    plans: dict[tuple[int, int], _SheetPlan] = {}
    series_numbers = set()
    for si, series in enumerate(data["series"]):
        spath = ["series", si]
        if series["number"] in series_numbers:
            raise ArchiveError(
                json_path([*spath, "number"]),
                _("series %(number)s appears twice") % {"number": series["number"]},
            )
        series_numbers.add(series["number"])
        playoff = series.get("kind") == Series.Kind.PLAYOFF
        low, high = (ruleset.players_min, ruleset.players_max) if playoff else draw.DRAW_TABLE_SIZES
        seated, table_numbers = set(), set()
        for ti, table in enumerate(series["tables"]):
            tpath = [*spath, "tables", ti]
            if table["number"] in table_numbers:
                raise ArchiveError(
                    json_path([*tpath, "number"]),
                    _("table %(number)s appears twice") % {"number": table["number"]},
                )
            table_numbers.add(table["number"])
            if not low <= len(table["seats"]) <= high:
                raise ArchiveError(
                    json_path([*tpath, "seats"]),
                    _("%(seats)s seats; a table seats %(low)s to %(high)s players")
                    % {"seats": len(table["seats"]), "low": low, "high": high},
                )
            for k, ref in enumerate(table["seats"]):
                ref_exists(ref, [*tpath, "seats", k])
                if ref in seated:
                    raise ArchiveError(
                        json_path([*tpath, "seats", k]),
                        _("participant %(ref)s is seated twice in series %(series)s")
                        % {"ref": ref, "series": series["number"]},
                    )
                seated.add(ref)
            if table["sheet"] is not None:
                plans[(si, ti)] = _check_sheet(
                    table["sheet"], [*tpath, "sheet"], ruleset, len(table["seats"]),
                    series["planned_rounds"], table["number"],
                )  # fmt: skip
    return plans


def _check_sheet(sheet, path, ruleset, size, planned_rounds, table_number) -> _SheetPlan:
    versions = sheet["versions"]
    seen = set()
    grids = []
    for k, version in enumerate(versions):
        vpath = [*path, "versions", k]
        if version["number"] in seen:
            raise ArchiveError(
                json_path([*vpath, "number"]),
                _("version %(number)s appears twice") % {"number": version["number"]},
            )
        seen.add(version["number"])
        try:
            grids.append(sheets_grid.normalise_grid(version["grid"], size))
        except GridError as err:
            raise ArchiveError(json_path([*vpath, "grid"]), _grid_message(err)) from err
        for index, hand in enumerate(version["grid"]["hands"]):
            if len(hand["seats"]) != size:
                raise ArchiveError(
                    json_path([*vpath, "grid", "hands", index, "seats"]),
                    _("%(seats)s seats, but %(size)s players sit at the table")
                    % {"seats": len(hand["seats"]), "size": size},
                )
    if sheet["version"] != max(seen, default=0):
        raise ArchiveError(
            json_path([*path, "version"]),
            _("the sheet is at version %(version)s but its newest version is %(newest)s")
            % {"version": sheet["version"], "newest": max(seen, default=0)},
        )
    if sheet.get("confirmed_by") and sheet.get("confirmed_by") == sheet.get("entered_by"):
        raise ArchiveError(
            json_path([*path, "confirmed_by"]), _("the one who entered a sheet cannot confirm it")
        )
    content = [
        (k, grid)
        for k, (version, grid) in enumerate(zip(versions, grids, strict=True))
        if version["kind"] != SheetVersion.Kind.BLIND
    ]
    if not content:
        if sheet["status"] != Sheet.Status.DRAFT:
            raise ArchiveError(
                json_path([*path, "versions"]),
                _("a sheet with the status “%(status)s” needs a version holding its content")
                % {"status": _status_label(sheet["status"])},
            )
        return _SheetPlan(path, None, [])
    k, grid = max(content, key=lambda item: versions[item[0]]["number"])
    draft = sheet["status"] == Sheet.Status.DRAFT
    check = sheets_grid.check_grid(
        grid, ruleset=ruleset, table_size=size, planned_rounds=planned_rounds, partial=draft
    )
    problems = check.malformed if draft else check.problems
    if problems:
        problem = problems[0]
        where = [*path, "versions", k, "grid"]
        if problem.hand is not None:
            where += ["hands", problem.hand - 1]
            if problem.seat is not None:
                where += ["seats", problem.seat]
        text = problem_message(problem, table_number=table_number, seat_names=[])
        raise ArchiveError(json_path(where), shorten(text))
    numbers = check.valid_hands if draft else list(range(1, len(check.grid["hands"]) + 1))
    return _SheetPlan(path, check, numbers)


def _status_label(status) -> str:
    try:
        return str(Sheet.Status(status).label)
    except ValueError:
        return str(status)


def _grid_message(err: GridError) -> str:
    """A grid the rules module cannot read (past the schema: a first dealer beyond the
    table); `scoring.sheets.grid` speaks no language, so the archive says it here."""
    if str(err) == "first_dealer is not a seat":
        return _("the first dealer is not a seat at this table")
    return _("the grid cannot be read (%(detail)s)") % {"detail": str(err)}


def validate(data) -> dict[tuple[int, int], _SheetPlan]:
    """Schema, then semantics; raises ArchiveError naming the first bad field."""
    check_schema(data)
    plans = _check_semantics(data)
    sections.check_all(data)
    return plans


# ----- import ------------------------------------------------------------------------------
