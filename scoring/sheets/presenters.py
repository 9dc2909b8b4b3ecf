"""What the entry page shows besides the grid: conflicts, disputes, who may confirm.

Read-only helpers for `scoring.sheets.views`; nothing here writes. Cells are named as the page's
inputs are (``cell-<hand>-<seat>``, ``melded-<hand>-<seat>``, ``romme-<hand>``,
``first_dealer``; hands and seats 1-based), so the page's script can put a stored value
into the grid without knowing anything about the rules.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from clubs.models import ClubRole
from scoring.models import Sheet, SheetVersion
from scoring.sheets import disputes
from scoring.sheets import grid as sheets_grid
from scoring.sheets.forms import grid_from_typed, typed_from_grid
from scoring.sheets.grid import GridCheck
from scoring.sheets.messages import problem_dicts, seat_label
from scoring.sheets.policy import latest_blind, may_resolve

MAX_CONFIRMER_NAMES = 8


def input_name(hand: int | None, seat: int | None, field: str) -> str:
    if field == "first_dealer":
        return "first_dealer"
    if field == "hand_romme":
        return f"romme-{hand}"
    prefix = "melded" if field == "melded" else "cell"
    return f"{prefix}-{hand}-{seat + 1}"


def where(change, seat_names) -> str:
    """The place of a cell: "Hand 3, seat 2 (Anna Müller)", "Hand 3, hand Rommé"."""
    if change.field == "first_dealer":
        return _("First dealer")
    if change.field == "hand_romme":
        return _("Hand %(hand)s, hand Rommé") % {"hand": change.hand}
    text = _("Hand %(hand)s, %(seat)s") % {
        "hand": change.hand,
        "seat": seat_label(change.seat, seat_names),
    }
    if change.field == "melded":
        text += " · " + _("melded value")
    return text


def shown_value(value: str, field: str, seat_names) -> str:
    """A cell's value as a person reads it ("–" for empty)."""
    if field == "hand_romme":
        return _("yes") if value else _("no")
    if value == "":
        return "–"
    if field == "first_dealer":
        try:
            return seat_label(int(value), seat_names)
        except (ValueError, IndexError):
            return value
    return value


def stored_fields(grid: dict[str, Any], *, table_size: int, rows: int) -> dict[str, str]:
    """The page's input values for a stored grid: what "unchanged" means for the script."""
    typed = typed_from_grid(grid, table_size=table_size, rows=rows)
    out = {"first_dealer": str(typed.first_dealer)}
    for number, row in enumerate(typed.rows, start=1):
        out[f"romme-{number}"] = "1" if row.hand_romme else ""
        for index in range(table_size):
            out[f"cell-{number}-{index + 1}"] = row.cells[index]
            out[f"melded-{number}-{index + 1}"] = row.melded[index]
    return out


def cell_authors(versions) -> dict[str, SheetVersion]:
    """For each cell key, the content version that last set its value."""
    authors: dict[str, SheetVersion] = {}
    content = None
    for version in sorted(versions, key=lambda v: v.number):
        if version.kind == SheetVersion.Kind.BLIND:
            continue
        for change in sheets_grid.diff_grids(content, version.grid):
            authors[change.key] = version
        content = version.grid
    return authors


def conflict_cells(page, mine: dict[str, Any]) -> list[dict[str, Any]]:
    """Each cell where the grid on the scorer's page differs from the stored version:
    where, their value, the stored value, who stored it and when."""
    versions = page.versions
    latest = page.current_version()
    authors = cell_authors(versions)
    names = page.seat_names
    cells = []
    for change in sheets_grid.diff_grids(page.current_grid(), mine):
        version = authors.get(change.key, latest)
        cells.append(
            {
                "where": where(change, names),
                "name": input_name(change.hand, change.seat, change.field),
                "field": change.field,
                "mine": shown_value(change.new, change.field, names),
                "stored": shown_value(change.old, change.field, names),
                "stored_raw": change.old,
                "by": version.created_by if version else None,
                "at": version.created_at if version else None,
                "version": version.number if version else None,
            }
        )
    return cells


def dispute_context(page, user) -> dict[str, Any] | None:
    """Both entries of a disputed sheet side by side, for a resolver; None otherwise."""
    sheet = page.sheet
    if sheet is None or sheet.status != Sheet.Status.DISPUTED:
        return None
    blind = latest_blind(sheet, page.versions)
    entry = page.current_version()
    may = may_resolve(user, sheet, page.event.club, blind)
    context = {"entry": entry, "blind": blind, "may_resolve": may, "cells": []}
    if not may or blind is None or entry is None:
        return context
    names = page.seat_names
    for cell in disputes.disputed_cells(entry.grid, blind.grid, page.ruleset):
        context["cells"].append(
            {
                "where": where(cell, names),
                "name": input_name(cell.hand, cell.seat, cell.field),
                "field": cell.field,
                "hand": cell.hand,
                "seat": cell.seat,
                "entry": shown_value(cell.entry, cell.field, names),
                "blind": shown_value(cell.blind, cell.field, names),
                "entry_raw": cell.entry,
                "blind_raw": cell.blind,
            }
        )
    return context


def confirmers(page) -> tuple[list[str], int]:
    """Names of the people who may confirm (every scorer and organiser of the event's club
    but the one who entered it), at most MAX_CONFIRMER_NAMES, and how many more there are."""
    sheet = page.sheet
    roles = (
        ClubRole.objects.filter(
            club=page.event.club, role__in=[ClubRole.Role.SCORER, ClubRole.Role.ORGANISER]
        )
        .exclude(user_id=sheet.entered_by_id if sheet else None)
        .select_related("user")
        .order_by("user__last_name", "user__username")
    )
    names = [r.user.get_full_name() or r.user.get_username() for r in roles]
    return names[:MAX_CONFIRMER_NAMES], max(0, len(names) - MAX_CONFIRMER_NAMES)


# ----- the grid as the entry page shows it ---------------------------------------------------


def typed_check(page, typed) -> tuple[dict, list, GridCheck | None]:
    """What the typed cells say: the grid, the problems reading the cells, and the rules'
    check of the grid (None at a table nobody sits at). The page and the live check share it."""
    size = page.table_size
    if not size:
        return {}, [], None
    grid, input_problems = grid_from_typed(typed, table_size=size)
    check = sheets_grid.check_grid(
        sheets_grid.normalise_grid(grid, size),
        ruleset=page.ruleset,
        table_size=size,
        planned_rounds=page.series.planned_rounds,
    )
    return grid, input_problems, check


def check_json(page, grid: dict, input_problems: list, check: GridCheck) -> dict[str, Any]:
    """The live check's answer while typing: problems, totals, card readings."""
    problems = [*input_problems, *check.problems]
    return {
        "problems": problem_dicts(
            problems, table_number=page.table.number, seat_names=page.seat_names
        ),
        "totals": check.totals,
        "running": check.running,
        "readings": [
            {"hand": hand, "seat": seat, "text": text}
            for (hand, seat), text in sorted(check.readings.items())
        ],
        "dealers": [h["dealer"] for h in grid["hands"]],
        "winners": [h["winner"] for h in grid["hands"]],
        "ready": check.ready and not input_problems,
    }


def described_by(problems: list[dict]) -> dict[str, str]:
    """For each input a problem names, the ids of its messages (for aria-describedby)."""
    ids: dict[str, list[str]] = {}
    for problem in problems:
        if problem["field"]:
            ids.setdefault(problem["field"], []).append(problem["id"])
    return {field: " ".join(found) for field, found in ids.items()}


def sheet_rows(page, typed, grid, check, problems, dispute) -> list[dict[str, Any]]:
    """One row per hand with one cell per seat: the typed text, the card reading, the running
    total, and marks for problems and for cells where a disputed sheet's entries differ.
    ``problems`` are `problem_dicts`: a row is marked for any problem of its hand, whether
    the hand's own or one of its seats' (two winners name the second one's seat)."""
    differs = {}
    for cell in dispute["cells"] if dispute else []:
        key = (cell["hand"], cell["seat"] if cell["field"] != "hand_romme" else "romme")
        differs[key] = cell
    problem_cells = {(p["hand"], p["seat"]) for p in problems}
    problem_hands = {p["hand"] for p in problems}
    described = described_by(problems)
    names, size = page.seat_names, page.table_size
    rows = []
    for number, row in enumerate(typed.rows, start=1):
        data = grid["hands"][number - 1]
        running = None
        if check and number - 1 < len(check.running):
            running = check.running[number - 1]
        cells = [
            {
                "seat": index + 1,
                "name": names[index],
                "text": row.cells[index],
                "melded": row.melded[index],
                "reading": check.readings.get((number, index), "") if check else "",
                "running": "" if running is None else running[index],
                "differs": differs.get((number, index)),
                "problem": (number, index) in problem_cells,
                "described_by": described.get(f"cell-{number}-{index + 1}", ""),
                "melded_described_by": described.get(f"melded-{number}-{index + 1}", ""),
                "winner": data["winner"] == index,
            }
            for index in range(size)
        ]
        rows.append(
            {
                "number": number,
                "dealer": names[data["dealer"]] if size else "",
                "dealer_index": data["dealer"],
                "hand_romme": row.hand_romme,
                "romme_differs": differs.get((number, "romme")),
                "problem": number in problem_hands,
                "romme_described_by": described.get(f"romme-{number}", ""),
                "cells": cells,
            }
        )
    return rows
