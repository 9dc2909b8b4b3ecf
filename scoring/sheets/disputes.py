"""Disputed sheets: a blind re-entry differed from the entry (double data entry).

A disputed sheet counts nowhere (standings read confirmed sheets only). It is resolved
once, by a director (organiser of the event's club, or a superuser) or by the scorer who
entered it first (checking against the paper sheet), but never by the scorer of the
differing re-entry. The resolver sees both entries side by side, takes either one per
cell or types the right value; the grid they submit is checked in full, stored as a
version of kind ``resolution`` and the sheet is confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.permissions import SCORER, require_role
from scoring.models import Sheet, SheetVersion
from scoring.sheets import grid as sheets_grid
from scoring.sheets import phone_rows, services, storage
from scoring.sheets.policy import latest_blind, may_resolve
from tournaments.results import bump_results_version


@dataclass
class DisputedCell:
    """One cell where the entry and the re-entry differ, as the resolver sees it."""

    hand: int | None
    seat: int | None
    field: str
    entry: str
    blind: str
    entry_points: str  # cards count by their points: "Jo A K 7" shows "58" here too
    blind_points: str


def disputed_cells(entry_grid: dict, blind_grid: dict, ruleset) -> list[DisputedCell]:
    """Cells that differ by value (cards by their points), with both texts as typed."""
    by_value = sheets_grid.diff_grids(entry_grid, blind_grid, ruleset=ruleset)
    by_text = {c.key: c for c in sheets_grid.diff_grids(entry_grid, blind_grid)}
    cells = []
    for change in by_value:
        text = by_text.get(change.key, change)
        cells.append(
            DisputedCell(
                change.hand,
                change.seat,
                change.field,
                text.old,
                text.new,
                change.old,
                change.new,
            )
        )
    return cells


@transaction.atomic
def resolve_dispute(
    actor, table, grid: dict, *, expected_version: int, reason: str = ""
) -> SheetVersion:
    """Store ``grid`` (what the resolver's page shows) as the sheet's content and confirm it.

    Raises PermissionDenied (not a director or the first scorer, or the re-entry's author),
    SheetConflict (someone saved meanwhile), SheetInvalid (the grid breaks a rule) or
    ValidationError (the sheet is not disputed).
    """
    require_role(actor, table.series.event.club, SCORER)
    table, sheet = services._lock(table)
    if sheet is None or sheet.status != Sheet.Status.DISPUTED:
        raise ValidationError(_("Only a disputed sheet can be resolved."))
    services._check_version(sheet, expected_version)
    blind = latest_blind(sheet)
    if blind is None:  # a dispute always has its re-entry; refuse rather than guess
        raise ValidationError(_("Only a disputed sheet can be resolved."))
    if not may_resolve(actor, sheet, table.series.event.club, blind):
        raise PermissionDenied(
            _(
                "Only a director of the event's club or the scorer who entered the sheet "
                "first may resolve the dispute; the author of the second entry may not."
            )
        )
    participants = services._seats(table)
    grid = services.read_grid(grid, table, participants)
    series = table.series
    check = services.check_table_grid(table, participants, grid)
    if check.malformed or check.problems:
        raise services.SheetInvalid(check.malformed or check.problems, check)
    now = timezone.now()
    sheet.status = Sheet.Status.CONFIRMED
    sheet.first_dealer = (
        check.grid["hands"][0]["dealer"] if check.grid["hands"] else check.grid["first_dealer"]
    )
    # The four-eyes rule: two people typed the sheet. When the first scorer resolves,
    # the author of the second entry stands as the confirmer; the resolver is kept apart.
    confirmer = actor if actor.pk != sheet.entered_by_id else blind.created_by
    sheet.confirmed_by, sheet.confirmed_at = confirmer, now
    sheet.resolved_by, sheet.resolved_at = actor, now
    version = storage.next_version(
        sheet, actor, SheetVersion.Kind.RESOLUTION, check.grid, (reason or "").strip()
    )
    numbers = range(1, len(check.grid["hands"]) + 1)
    storage.store_hands(sheet, check, participants, numbers, series.event.ruleset)
    phone_rows.follow_sheet(table, check.grid, settled=True)
    bump_results_version(series.event_id, sheet_table=table.pk)
    return version
