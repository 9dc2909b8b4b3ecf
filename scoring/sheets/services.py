"""Every write to score sheets: one transaction each, the role checked here.

A save names the version it started from (``expected_version``); the sheet row is locked
and a save from an older version is refused with :class:`SheetConflict`, so nobody's
work is overwritten silently. A save stores the whole sheet (a new `SheetVersion` with
the grid, the `Hand` and `HandSeat` rows replaced, points from `rules.score_hand`)
or nothing; the rows are written by `scoring.sheets.storage`. Grid format: see
`scoring.sheets.grid`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.permissions import ORGANISER, SCORER, require_role
from rules import (
    Problem,
)
from scoring.models import Sheet, SheetVersion
from scoring.sheets import grid as sheets_grid
from scoring.sheets import phone_rows, policy
from scoring.sheets.grid import CellChange, GridCheck, GridError
from scoring.sheets.seat_users import user_label
from scoring.sheets.storage import RecomputeResult, next_version, recompute_event, store_hands
from tournaments.models import Event, Seat, Table
from tournaments.results import announce_change, bump_results_version
from tournaments.services import checked_ruleset


class SheetConflict(Exception):
    """Someone saved the sheet after the version this save started from.

    ``versions`` are the newer versions (who, when, what kind), newest first;
    ``changes`` the cells that differ between the version the save started from and the
    sheet as it is now.
    """

    def __init__(self, sheet: Sheet, expected_version: int, versions, changes):
        self.sheet = sheet
        self.expected_version = expected_version
        self.current_version = sheet.version
        self.versions = list(versions)
        self.changes: list[CellChange] = list(changes)
        latest = self.versions[0] if self.versions else None
        self.by = latest.created_by if latest else None
        self.at = latest.created_at if latest else None
        super().__init__(
            _("The sheet was saved by someone else meanwhile (now version %(version)d).")
            % {"version": sheet.version}
        )


class SheetInvalid(Exception):
    """The grid breaks rules (or cannot be read); nothing was stored."""

    def __init__(self, problems: list[Problem], check: GridCheck | None = None):
        self.problems = list(problems)
        self.check = check
        super().__init__(", ".join(p.code for p in self.problems))


@dataclass
class SaveResult:
    sheet: Sheet
    version: SheetVersion
    check: GridCheck
    stored_hands: int


@dataclass
class BlindResult:
    sheet: Sheet
    version: SheetVersion
    confirmed: bool
    differences: list[CellChange] = field(default_factory=list)


def _lock(table: Table) -> tuple[Table, Sheet | None]:
    """Lock the table row (so two first saves cannot both create the sheet), then the sheet."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("series__event__club")
        .get(pk=table.pk)
    )
    sheet = Sheet.objects.select_for_update().filter(table=table).first()
    return table, sheet


def content_version(sheet: Sheet, before: int | None = None) -> SheetVersion | None:
    """The newest version holding the sheet's content (blind re-entries do not)."""
    versions = sheet.versions.exclude(kind=SheetVersion.Kind.BLIND)
    if before is not None:
        versions = versions.filter(number__lte=before)
    return versions.order_by("-number").first()


def _check_version(sheet: Sheet | None, expected_version: int) -> None:
    current = sheet.version if sheet else 0
    if expected_version == current:
        return
    if sheet is None:  # cannot happen: a version above 0 means there is a sheet
        raise ValidationError(_("This sheet does not exist yet."))
    newer = list(
        sheet.versions.filter(number__gt=expected_version)
        .select_related("created_by")
        .order_by("-number")
    )
    started = content_version(sheet, before=expected_version)
    now = content_version(sheet)
    changes = sheets_grid.diff_grids(started.grid if started else None, now.grid if now else None)
    raise SheetConflict(sheet, expected_version, newer, changes)


def _club(table: Table):
    return table.series.event.club


def read_grid(grid, table: Table, seats) -> dict:
    """The grid normalised for the table's seats, or a ValidationError saying why not."""
    try:
        return sheets_grid.normalise_grid(grid, len(seats))
    except GridError as err:
        raise ValidationError(_("The sheet could not be read: %(error)s") % {"error": err}) from err


def check_table_grid(table: Table, participants, grid: dict, *, partial: bool = False) -> GridCheck:
    """Check a read grid with the event's rules for this table's size and planned rounds."""
    series = table.series
    return sheets_grid.check_grid(
        grid,
        ruleset=series.event.ruleset,
        table_size=len(participants),
        planned_rounds=series.planned_rounds,
        partial=partial,
    )


def _seats(table: Table) -> list[int]:
    """Participant ids in seat order."""
    return list(
        Seat.objects.filter(table=table)
        .order_by("position")
        .values_list("participant_id", flat=True)
    )


@transaction.atomic
def save_sheet(
    actor,
    table: Table,
    grid: dict,
    *,
    expected_version: int,
    submit: bool = False,
    reason: str = "",
) -> SaveResult:
    """Save the grid of ``table``'s sheet as a new version.

    * A new sheet or a draft: ``submit=False`` keeps a draft (checked as far as it goes;
      refused only if cards cannot be read); ``submit=True`` enters it, which needs the
      full check (``check_series``: complete rounds, the planned number of rounds).
    * An entered sheet: a new entry (full check); the saver becomes the one who entered it.
    * A confirmed sheet: a correction, which needs the organiser role and a reason.

    Scorer role (organiser for corrections). Raises PermissionDenied, SheetConflict,
    SheetInvalid (problems, nothing stored) or ValidationError.
    """
    require_role(actor, _club(table), SCORER)
    table, sheet = _lock(table)
    # Before any check: live results number the change, and a laptop's event refuses it.
    announce_change(table.series.event_id, sheet_table=table.pk)
    _require_started(table)
    _refuse_disputed(sheet)
    status = sheet.status if sheet else None
    reason = (reason or "").strip()
    if status == Sheet.Status.CONFIRMED:
        require_role(actor, _club(table), ORGANISER)
        if not reason:
            raise ValidationError(
                {"reason": _("A correction of a confirmed sheet needs a reason.")}
            )
        kind, full = SheetVersion.Kind.CORRECTION, True
    elif status == Sheet.Status.ENTERED:
        if not submit:
            raise ValidationError(
                _("This sheet has been entered; it can only be saved complete, not as a draft.")
            )
        kind, full = SheetVersion.Kind.ENTRY, True
    else:
        kind = SheetVersion.Kind.ENTRY if submit else SheetVersion.Kind.DRAFT
        full = submit
    try:
        _check_version(sheet, expected_version)
    except SheetConflict:
        repeated = _repeated_save(actor, table, sheet, expected_version, kind, grid)
        if repeated is None:
            raise
        return repeated

    participants = _seats(table)
    if not participants:
        raise ValidationError(_("Nobody is seated at this table yet."))
    grid = read_grid(grid, table, participants)
    series = table.series
    check = check_table_grid(table, participants, grid, partial=not full)
    if check.malformed or (full and check.problems):
        raise SheetInvalid(check.malformed if not full else check.problems, check)

    new = sheet is None
    if new:
        sheet = Sheet(table=table, status=Sheet.Status.DRAFT)
    if check.grid["hands"]:
        sheet.first_dealer = check.grid["hands"][0]["dealer"]
    else:
        sheet.first_dealer = check.grid["first_dealer"]
    if kind == SheetVersion.Kind.ENTRY:
        sheet.status = Sheet.Status.ENTERED
        sheet.entered_by, sheet.entered_at = actor, timezone.now()
    version = next_version(sheet, actor, kind, check.grid, reason)
    numbers = range(1, len(check.grid["hands"]) + 1) if full else check.valid_hands
    stored = store_hands(sheet, check, participants, numbers, series.event.ruleset, new=new)
    if not new:
        phone_rows.follow_sheet(table, check.grid)
    if kind == SheetVersion.Kind.CORRECTION:
        bump_results_version(series.event_id, sheet_table=table.pk)
    return SaveResult(sheet, version, check, stored)


def _sent_again(actor, table, sheet, expected_version, kind, grid, participants):
    """The sheet's newest version when it is this very write made already: the browser sent
    it again because the answer was lost (a fault after the commit, a dropped connection;
    found by python -m bench faults). Only the version right after the one the page started from,
    by the same user, of the same kind, with no cell different, is that write; None
    otherwise (the caller's conflict or refusal stands)."""
    if sheet is None or sheet.version != expected_version + 1:
        return None
    newest = sheet.versions.order_by("-number").first()
    if newest is None or newest.created_by_id != actor.pk or newest.kind != kind:
        return None
    try:
        sent = read_grid(grid, table, participants)
    except ValidationError:
        return None
    return None if sheets_grid.diff_grids(newest.grid, sent) else newest


def _repeated_save(actor, table, sheet, expected_version, kind, grid) -> SaveResult | None:
    """A save sent again (`_sent_again`) is answered as saved."""
    participants = _seats(table)
    newest = _sent_again(actor, table, sheet, expected_version, kind, grid, participants)
    if newest is None:
        return None
    partial = kind == SheetVersion.Kind.DRAFT
    check = check_table_grid(table, participants, newest.grid, partial=partial)
    return SaveResult(sheet, newest, check, sheet.hands.count())


def _require_started(table: Table) -> None:
    """Sheets belong to a series in play (or complete): refuse earlier saves with a hint."""
    series = table.series
    if not policy.series_started(series):
        raise ValidationError(
            _(
                "%(series)s has not started yet, so its sheets cannot be entered. An organiser "
                "starts it on the seating list with “Start the series”; then enter the sheet."
            )
            % {"series": series}
        )


def _refuse_disputed(sheet: Sheet | None) -> None:
    if sheet is not None and sheet.status == Sheet.Status.DISPUTED:
        raise ValidationError(
            _(
                "This sheet is disputed: the two entries differ. Only a director or the "
                "scorer who entered it first resolves it, against the paper sheet."
            )
        )


def _lock_entered(actor, table: Table, expected_version: int) -> tuple[Table, Sheet]:
    """Both ways of confirming start here: a scorer other than the one who entered the
    sheet, an entered (not disputed) sheet, at the version the confirmer's page showed."""
    require_role(actor, _club(table), SCORER)
    table, sheet = _lock(table)
    _refuse_disputed(sheet)
    if sheet is not None and sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_at:
        # Two confirmers at once: the second is told who was first.
        raise ValidationError(
            _("%(user)s confirmed this sheet already (%(time)s).")
            % {
                "user": user_label(sheet.confirmed_by) or "?",
                "time": formats.date_format(timezone.localtime(sheet.confirmed_at), "H:i"),
            }
        )
    if sheet is None or sheet.status != Sheet.Status.ENTERED:
        raise ValidationError(_("Only an entered sheet can be confirmed."))
    _check_version(sheet, expected_version)
    if sheet.entered_by_id == actor.pk:
        raise PermissionDenied(_("You entered this sheet; another scorer must confirm it."))
    return table, sheet


@transaction.atomic
def confirm_sheet(actor, table: Table, grid: dict, *, expected_version: int) -> SheetVersion:
    """A second scorer (not the one who entered it) confirms an entered sheet.

    ``grid`` is what the confirmer's page shows and ``expected_version`` the version it
    was loaded with: a newer version is a SheetConflict, and a grid that differs from the
    stored version in any cell is refused (confirming it would silently drop the edit).
    """
    try:
        table, sheet = _lock_entered(actor, table, expected_version)
    except ValidationError:
        repeated = _repeated_confirmation(actor, table, grid, expected_version)
        if repeated is None:
            raise
        return repeated
    if table.series.event.blind_confirmation:
        raise ValidationError(
            _("This event confirms sheets blind: type the sheet again to confirm it.")
        )
    content = content_version(sheet)
    participants = _seats(table)
    shown = read_grid(grid, table, participants)
    differences = sheets_grid.diff_grids(content.grid, shown)
    if differences:
        raise ValidationError(
            ngettext(
                "Your grid differs from the stored version in %(count)d cell. Nothing was "
                "confirmed, because confirming would drop your change: save your version "
                "instead (another scorer then confirms it).",
                "Your grid differs from the stored version in %(count)d cells. Nothing was "
                "confirmed, because confirming would drop your changes: save your version "
                "instead (another scorer then confirms it).",
                len(differences),
            )
            % {"count": len(differences)}
        )
    sheet.status = Sheet.Status.CONFIRMED
    sheet.confirmed_by, sheet.confirmed_at = actor, timezone.now()
    version = next_version(sheet, actor, SheetVersion.Kind.CONFIRMATION, content.grid)
    bump_results_version(table.series.event_id, sheet_table=table.pk)
    return version


def _repeated_confirmation(actor, table: Table, grid: dict, expected_version: int):
    """A confirmation sent again (`_sent_again`) of a sheet ``actor`` confirmed."""
    sheet = Sheet.objects.filter(table=table).first()
    if sheet is None or sheet.status != Sheet.Status.CONFIRMED:
        return None
    kind = SheetVersion.Kind.CONFIRMATION
    return _sent_again(actor, table, sheet, expected_version, kind, grid, _seats(table))


@transaction.atomic
def blind_confirm(actor, table: Table, grid: dict, *, expected_version: int) -> BlindResult:
    """A second scorer types the sheet again without seeing the entry (double entry).

    The re-entry is stored as its own version (kind ``blind``). If every cell agrees with
    the entry (cards count by their points) the sheet is confirmed; otherwise it becomes
    *disputed*: it counts nowhere until a director or the first scorer resolves it
    (``scoring.sheets.disputes.resolve_dispute``). There is no second try for the re-entry.
    """
    table, sheet = _lock_entered(actor, table, expected_version)
    participants = _seats(table)
    grid = read_grid(grid, table, participants)
    ruleset = table.series.event.ruleset
    check = check_table_grid(table, participants, grid)
    if check.malformed:
        raise SheetInvalid(check.malformed, check)
    content = content_version(sheet)
    differences = sheets_grid.diff_grids(content.grid, check.grid, ruleset=ruleset)
    confirmed = not differences
    if confirmed:
        sheet.status = Sheet.Status.CONFIRMED
        sheet.confirmed_by, sheet.confirmed_at = actor, timezone.now()
    else:
        sheet.status = Sheet.Status.DISPUTED
    version = next_version(sheet, actor, SheetVersion.Kind.BLIND, check.grid)
    if confirmed:
        bump_results_version(table.series.event_id, sheet_table=table.pk)
    else:  # disputed: no public figure moves, but the sheet did
        announce_change(table.series.event_id, sheet_table=table.pk)
    return BlindResult(sheet, version, confirmed, differences)


# ----- rule sets ---------------------------------------------------------------------------


@transaction.atomic
def recompute_results(actor, event: Event, reason: str) -> RecomputeResult:
    """Recompute every derived value of the event under its current rule set, in one
    transaction (the ``recompute_event`` command). Organiser role and a reason."""
    require_role(actor, event.club, ORGANISER)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Recomputing the results needs a reason.")})
    locked = Event.objects.select_for_update().get(pk=event.pk)
    result = recompute_event(locked, actor, reason)
    bump_results_version(event.pk)
    return result


@transaction.atomic
def change_ruleset(actor, event: Event, slug: str, overrides: dict | None, reason: str):
    """Play the event under another rule set (a preset and overrides) and recompute
    every result. Organiser role and a reason; the reason is kept in the event's history."""
    require_role(actor, event.club, ORGANISER)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Changing the rule set needs a reason.")})
    # The same validation and messages as when the event was created.
    ruleset = checked_ruleset(slug, overrides)
    locked = Event.objects.select_for_update().get(pk=event.pk)
    locked.ruleset_slug = slug
    locked.ruleset_overrides = ruleset.overrides()
    locked._change_reason = reason
    locked._history_user = actor
    locked.full_clean()
    locked.save()
    # The caller's object sees the new rule set too.
    event.ruleset_slug, event.ruleset_overrides = locked.ruleset_slug, locked.ruleset_overrides
    event.__dict__.pop("ruleset", None)
    result = recompute_event(locked, actor, reason)
    bump_results_version(event.pk)
    return result
