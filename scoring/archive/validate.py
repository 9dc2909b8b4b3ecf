"""Checking an archive before anything is written: the JSON Schema (``schema.json``) first,
then what a schema cannot say (references, seats, table sizes, each sheet's grid read by the
rules module). `validate` returns the plan of every sheet or raises `ArchiveError` naming
the JSON path of the first bad field."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from scoring.models import Sheet, SheetVersion
from scoring.rules import PRESETS, RuleSetError, ruleset_from
from scoring.sheets import grid as sheets_grid
from scoring.sheets.grid import GridError
from scoring.sheets.messages import problem_message
from tournaments import draw
from tournaments.models import Series

FORMAT = "romme-ledger-event"
VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("schema.json")
MESSAGE_LIMIT = 240


class ArchiveError(Exception):
    """The file is refused; ``path`` is the JSON path of the first bad field."""

    def __init__(self, path: str, message: str):
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


def json_path(parts) -> str:
    """``["series", 1, "tables"]`` -> ``"$.series[1].tables"``."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def shorten(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


# ----- generic fields --------------------------------------------------------------------------


@cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


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
    raise ArchiveError(json_path(first.absolute_path), shorten(first.message))


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
                f"unknown rule set {event['ruleset']['slug']!r} (known: {', '.join(PRESETS)})",
            )
        ruleset = ruleset_from(event["ruleset"]["slug"], event["ruleset"]["overrides"])
    except RuleSetError as err:
        codes = ", ".join(p.code for p in err.problems)
        raise ArchiveError("$.event.ruleset.overrides", f"not a valid rule set ({codes})") from err

    club_names = {event["club"]["short_name"]}
    for i, club in enumerate(data.get("clubs", [])):
        if club["short_name"] in club_names:
            raise ArchiveError(json_path(["clubs", i, "short_name"]), "club listed twice")
        club_names.add(club["short_name"])

    numbers = set()
    for i, player in enumerate(data["players"]):
        if player["player_number"] in numbers:
            raise ArchiveError(
                json_path(["players", i, "player_number"]),
                f"player number {player['player_number']!r} appears twice",
            )
        numbers.add(player["player_number"])

    refs: dict[int, dict] = {}
    seen_players = set()
    for i, participant in enumerate(data["participants"]):
        path = ["participants", i]
        if participant["ref"] in refs:
            raise ArchiveError(json_path([*path, "ref"]), f"ref {participant['ref']} appears twice")
        refs[participant["ref"]] = participant
        number = participant["player_number"]
        if number not in numbers:
            raise ArchiveError(
                json_path([*path, "player_number"]), f"no player {number!r} in $.players"
            )
        if number in seen_players:
            raise ArchiveError(
                json_path([*path, "player_number"]), f"player {number!r} takes part twice"
            )
        seen_players.add(number)
        short = participant["club_short_name"]
        if short is not None and short not in club_names:
            raise ArchiveError(
                json_path([*path, "club_short_name"]),
                f"club {short!r} is neither the event's club nor in $.clubs",
            )

    def ref_exists(ref, path):
        if ref not in refs:
            raise ArchiveError(json_path(path), f"no participant with ref {ref}")

    group_names, grouped = set(), set()
    for i, group in enumerate(data["groups"]):
        if (group["kind"], group["name"]) in group_names:
            raise ArchiveError(
                json_path(["groups", i, "name"]), f"two {group['kind']}s named {group['name']!r}"
            )
        group_names.add((group["kind"], group["name"]))
        for j, ref in enumerate(group["members"]):
            ref_exists(ref, ["groups", i, "members", j])
            if (group["kind"], ref) in grouped:
                raise ArchiveError(
                    json_path(["groups", i, "members", j]),
                    f"participant {ref} is in two {group['kind']}s",
                )
            grouped.add((group["kind"], ref))

    plans: dict[tuple[int, int], _SheetPlan] = {}
    series_numbers = set()
    for si, series in enumerate(data["series"]):
        spath = ["series", si]
        if series["number"] in series_numbers:
            raise ArchiveError(
                json_path([*spath, "number"]), f"series {series['number']} appears twice"
            )
        series_numbers.add(series["number"])
        playoff = series.get("kind") == Series.Kind.PLAYOFF
        low, high = (ruleset.players_min, ruleset.players_max) if playoff else draw.DRAW_TABLE_SIZES
        seated, table_numbers = set(), set()
        for ti, table in enumerate(series["tables"]):
            tpath = [*spath, "tables", ti]
            if table["number"] in table_numbers:
                raise ArchiveError(
                    json_path([*tpath, "number"]), f"table {table['number']} appears twice"
                )
            table_numbers.add(table["number"])
            if not low <= len(table["seats"]) <= high:
                raise ArchiveError(
                    json_path([*tpath, "seats"]),
                    f"{len(table['seats'])} seats; a table seats {low} to {high} players",
                )
            for k, ref in enumerate(table["seats"]):
                ref_exists(ref, [*tpath, "seats", k])
                if ref in seated:
                    raise ArchiveError(
                        json_path([*tpath, "seats", k]),
                        f"participant {ref} is seated twice in series {series['number']}",
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
                json_path([*vpath, "number"]), f"version {version['number']} appears twice"
            )
        seen.add(version["number"])
        try:
            grids.append(sheets_grid.normalise_grid(version["grid"], size))
        except GridError as err:
            raise ArchiveError(json_path([*vpath, "grid"]), str(err)) from err
        for index, hand in enumerate(version["grid"]["hands"]):
            if len(hand["seats"]) != size:
                raise ArchiveError(
                    json_path([*vpath, "grid", "hands", index, "seats"]),
                    f"{len(hand['seats'])} seats, but {size} players sit at the table",
                )
    if sheet["version"] != max(seen, default=0):
        raise ArchiveError(
            json_path([*path, "version"]),
            f"the sheet is at version {sheet['version']} but its newest version is "
            f"{max(seen, default=0)}",
        )
    if sheet.get("confirmed_by") and sheet.get("confirmed_by") == sheet.get("entered_by"):
        raise ArchiveError(
            json_path([*path, "confirmed_by"]), "the one who entered a sheet cannot confirm it"
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
                f"an {sheet['status']} sheet needs a version holding its content",
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


def validate(data) -> dict[tuple[int, int], _SheetPlan]:
    """Schema, then semantics; raises ArchiveError naming the first bad field."""
    check_schema(data)
    return _check_semantics(data)


# ----- import ------------------------------------------------------------------------------
