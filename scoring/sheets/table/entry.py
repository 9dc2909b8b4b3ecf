"""Hands entered at the table on a phone, one at a time, and their confirmation by the table.

Each hand takes the sheet's own path: the sheet's current grid with the hand appended (or
replaced) is checked by `scoring.sheets.grid.check_grid` (the rules module, the desktop's
German messages), stored as a new `SheetVersion` by `scoring.sheets.storage` (the only
writer of hands; a phone's hand rewrites its own rows only, `storage.store_hand`) and
written by the seat's user (`table_links.seat_user`).

* A hand carries a client id: a resend with the same id returns the stored hand and
  stores nothing (the phone resends after a dropped connection).
* The hand that completes the planned rounds enters the sheet (``entered``), as a submit
  on the sheet page would.
* Another seat confirms each hand (or all at once); when every hand of an entered sheet is
  confirmed by a seat other than its writer, the sheet is confirmed as `confirm_sheet`
  would: a version of kind ``confirmation``, ``confirmed_by`` a seat other than the one
  that entered it.
* A seat that disagrees types its version of the hand: it is stored as a blind re-entry
  and the sheet becomes ``disputed``, which a director resolves (`disputes.resolve_dispute`).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, require_role
from scoring.models import Sheet, SheetVersion, TableHand, TableLink
from scoring.sheets import grid as sheets_grid
from scoring.sheets import phone_rows, services, storage
from scoring.sheets.policy import latest_blind
from scoring.sheets.table.links import require_open, seat_user
from tournaments.results import announce_change, bump_results_version

CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class HandTaken(ValidationError):
    """Another phone stored the hand number this phone showed (static/js/table.js keeps the
    typed hand for the next number)."""


@dataclass
class HandSaved:
    entry: TableHand
    created: bool  # False: the client id was known, nothing was stored


def _locked(link: TableLink):
    """Lock the table and its sheet, then re-read the link: closed links write nothing."""
    table, sheet = services._lock(link.table)
    link = TableLink.objects.select_related("table__series__event").get(pk=link.pk)
    require_open(link)
    return link, table, sheet


def _content_grid(sheet: Sheet | None) -> dict:
    version = services.content_version(sheet) if sheet else None
    return copy.deepcopy(version.grid) if version else sheets_grid.empty_grid()


def _refuse_closed_sheet(sheet: Sheet | None) -> None:
    if sheet is None:
        return
    if sheet.status == Sheet.Status.CONFIRMED:
        raise ValidationError(
            _("This sheet is confirmed. Corrections are made by the tournament director.")
        )
    if sheet.status == Sheet.Status.DISPUTED:
        raise ValidationError(
            _("A hand of this sheet is disputed: the tournament director decides it now.")
        )


def _check_seat(table, seat: int) -> list[int]:
    participants = services._seats(table)
    if not 0 <= seat < len(participants):
        raise ValidationError(_("This seat is not at this table."))
    return participants


@transaction.atomic
def enter_hand(
    link: TableLink,
    seat: int,
    client_id: str,
    hand: dict,
    *,
    number: int | None = None,
    append_as: int | None = None,
) -> HandSaved:
    """Append ``hand`` (a grid hand: winner, hand_romme, seats) to the sheet, or replace
    hand ``number`` that ``seat`` wrote itself while no other seat has decided it.

    ``append_as`` is the number the phone showed for a new hand: when another phone of the
    table stored that hand meanwhile, the hand is refused rather than stored as the next.

    Raises LinkClosed, SheetInvalid (the rules' problems; nothing stored) or ValidationError.
    """
    if not CLIENT_ID.match(client_id or ""):
        raise ValidationError(_("The phone sent a hand without a valid id. Reload the page."))
    link, table, sheet = _locked(link)
    known = TableHand.objects.filter(table=table, client_id=client_id).first()
    if known is not None:
        return HandSaved(known, created=False)
    services._require_started(table)
    _refuse_closed_sheet(sheet)
    participants = _check_seat(table, seat)
    size = len(participants)
    planned = table.series.planned_rounds * size
    grid = _content_grid(sheet)
    hands = grid["hands"]
    while hands and sheets_grid.hand_is_blank(hands[-1]):
        hands.pop()
    rows = phone_rows.current_rows(table)
    if number is None:
        number = len(hands) + 1
        if append_as is not None and append_as != number:
            raise HandTaken(
                _(
                    "Another phone of this table entered hand %(hand)d meanwhile; it is on the "
                    "sheet above now. What you typed is in the form as the next hand: save it "
                    "only if it is a different hand."
                )
                % {"hand": append_as}
            )
        if number > planned:
            raise ValidationError(_("All hands of this series are entered."))
        hand = dict(hand, dealer=hand.get("dealer"))
        if hand["dealer"] is None:
            hand["dealer"] = (grid["first_dealer"] + number - 1) % size
        hands.append(hand)
    elif 1 <= number <= len(hands):
        row = rows.get(number)
        if row is None or row.writer != seat:
            raise ValidationError(
                _("Only the seat that wrote hand %(hand)d corrects it here; dispute it instead.")
                % {"hand": number}
            )
        if row.status != TableHand.Status.ENTERED:
            raise ValidationError(
                _("Hand %(hand)d is confirmed already; it can no longer be changed here.")
                % {"hand": number}
            )
        hand = dict(hand, dealer=hands[number - 1]["dealer"])
        hands[number - 1] = hand
    else:
        raise ValidationError(_("There is no hand %(hand)d yet.") % {"hand": number})
    if number == 1 and hand["dealer"] is not None:
        grid["first_dealer"] = hand["dealer"]
    grid = services.read_grid(grid, table, participants)
    full = len(grid["hands"]) == planned
    series = table.series
    check = services.check_table_grid(table, participants, grid, partial=not full)
    if check.malformed or check.problems:
        raise services.SheetInvalid(check.malformed or check.problems, check)

    writer = seat_user(table, seat)
    if sheet is None:
        sheet = Sheet(table=table, status=Sheet.Status.DRAFT)
    sheet.first_dealer = check.grid["hands"][0]["dealer"]
    kind = SheetVersion.Kind.DRAFT
    if full or sheet.status == Sheet.Status.ENTERED:
        kind = SheetVersion.Kind.ENTRY
        sheet.status = Sheet.Status.ENTERED
        sheet.entered_by, sheet.entered_at = writer, timezone.now()
    version = storage.next_version(sheet, writer, kind, check.grid)
    storage.store_hand(sheet, check, participants, number, series.event.ruleset)
    if number in rows:
        rows[number].status = TableHand.Status.REPLACED
        rows[number].save(update_fields=["status"])
    entry = TableHand.objects.create(
        link=link,
        table=table,
        client_id=client_id,
        number=number,
        writer=seat,
        hand=check.grid["hands"][number - 1],
        version=version.number,
    )
    announce_change(series.event_id, sheet_table=table.pk)  # (live results number it)
    return HandSaved(entry, created=True)


@transaction.atomic
def confirm_hands(link: TableLink, seat: int, numbers: list[int] | None = None) -> int:
    """``seat`` confirms the hands ``numbers`` (None: every hand it did not write itself).

    Returns how many hands it confirmed; confirms the sheet when it is entered and every
    hand is confirmed by a seat other than its writer.
    """
    link, table, sheet = _locked(link)
    _refuse_closed_sheet(sheet)
    _check_seat(table, seat)
    rows = phone_rows.current_rows(table)
    wanted = rows.keys() if numbers is None else numbers
    pending = [
        rows[n]
        for n in wanted
        if n in rows and rows[n].status == TableHand.Status.ENTERED and rows[n].writer != seat
    ]
    if numbers is not None and any(n in rows and rows[n].writer == seat for n in numbers):
        raise ValidationError(_("A hand is confirmed by another seat than the one that wrote it."))
    now = timezone.now()
    for row in pending:
        row.status, row.decided_by, row.decided_at = TableHand.Status.CONFIRMED, seat, now
        row.save(update_fields=["status", "decided_by", "decided_at"])
    if pending:
        _confirm_sheet_if_done(table, sheet, phone_rows.current_rows(table), seat)
    return len(pending)


def _confirm_sheet_if_done(table, sheet: Sheet, rows: dict[int, TableHand], seat: int) -> bool:
    if sheet.status != Sheet.Status.ENTERED:
        return False
    content = services.content_version(sheet)
    count = len(content.grid["hands"])
    confirmed = TableHand.Status.CONFIRMED
    if any(n not in rows or rows[n].status != confirmed for n in range(1, count + 1)):
        return False
    # The seat that confirmed last stands for the table, unless it entered the sheet: then
    # another seat that confirmed a hand (every hand's confirmer differs from its writer).
    for candidate in [seat, *(rows[n].decided_by for n in range(count, 0, -1))]:
        confirmer = seat_user(table, candidate)
        if confirmer.pk != sheet.entered_by_id:
            break
    else:
        return False
    sheet.status = Sheet.Status.CONFIRMED
    sheet.confirmed_by, sheet.confirmed_at = confirmer, timezone.now()
    storage.next_version(sheet, confirmer, SheetVersion.Kind.CONFIRMATION, content.grid)
    # A confirmed sheet changes the standings.
    bump_results_version(table.series.event_id, sheet_table=table.pk)
    return True


@transaction.atomic
def dispute_hand(link: TableLink, seat: int, number: int, hand: dict) -> SheetVersion:
    """``seat`` disagrees with hand ``number`` and gives its own version of it.

    Stored as a blind re-entry (the sheet with this hand as the seat sees it); the sheet
    becomes disputed and counts nowhere until a director resolves it. Nothing is overwritten.
    """
    link, table, sheet = _locked(link)
    _refuse_closed_sheet(sheet)
    participants = _check_seat(table, seat)
    rows = phone_rows.current_rows(table)
    row = rows.get(number)
    if row is None or sheet is None:
        raise ValidationError(_("There is no hand %(hand)d yet.") % {"hand": number})
    if row.writer == seat:
        raise ValidationError(_("You wrote this hand; correct it instead of disputing it."))
    grid = _content_grid(sheet)
    theirs = copy.deepcopy(grid)
    theirs["hands"][number - 1] = dict(hand, dealer=grid["hands"][number - 1]["dealer"])
    theirs = services.read_grid(theirs, table, participants)
    ruleset = table.series.event.ruleset
    # A version the rules refuse cannot be what was played: the seat is told now, not the
    # director when he settles it.
    full = len(theirs["hands"]) == table.series.planned_rounds * len(participants)
    check = services.check_table_grid(table, participants, theirs, partial=not full)
    if check.malformed or check.problems:
        raise services.SheetInvalid(check.malformed or check.problems, check)
    if not sheets_grid.diff_grids(grid, check.grid, ruleset=ruleset):
        raise ValidationError(
            _("Your version of hand %(hand)d is the same as the stored one: confirm it instead.")
            % {"hand": number}
        )
    row.status, row.decided_by, row.decided_at = TableHand.Status.DISPUTED, seat, timezone.now()
    row.save(update_fields=["status", "decided_by", "decided_at"])
    sheet.status = Sheet.Status.DISPUTED
    announce_change(table.series.event_id, sheet_table=table.pk)
    return storage.next_version(sheet, seat_user(table, seat), SheetVersion.Kind.BLIND, check.grid)


@transaction.atomic
def settle_hand(actor, table, number: int, take: str) -> SheetVersion:
    """A director settles a hand disputed at the table, and the table plays on.

    ``take`` is ``entry`` (the writer's version stays) or ``blind`` (the disputing seat's
    version becomes the hand). Stored as a version of kind ``resolution``; the sheet goes
    back to draft (entered once all planned hands are there) and the hand counts as
    confirmed. Organiser role. A whole disputed sheet is resolved on the sheet page instead.
    """
    require_role(actor, table.series.event.club, ORGANISER)
    table, sheet = services._lock(table)
    row = TableHand.objects.filter(
        table=table, number=number, status=TableHand.Status.DISPUTED
    ).first()
    if sheet is None or sheet.status != Sheet.Status.DISPUTED or row is None:
        raise ValidationError(_("Only a disputed hand can be settled."))
    if take not in ("entry", "blind"):
        raise ValidationError(_("Only a disputed hand can be settled."))
    grid = _content_grid(sheet)
    if take == "blind":
        grid["hands"][number - 1] = copy.deepcopy(latest_blind(sheet).grid["hands"][number - 1])
    participants = services._seats(table)
    grid = services.read_grid(grid, table, participants)
    series = table.series
    full = len(grid["hands"]) == series.planned_rounds * len(participants)
    check = services.check_table_grid(table, participants, grid, partial=not full)
    if check.malformed or check.problems:
        raise services.SheetInvalid(check.malformed or check.problems, check)
    now = timezone.now()
    sheet.status = Sheet.Status.ENTERED if full else Sheet.Status.DRAFT
    if full and sheet.entered_by_id is None:
        last = phone_rows.current_rows(table).get(len(grid["hands"]))
        sheet.entered_by = seat_user(table, last.writer if last else row.writer)
        sheet.entered_at = now
    sheet.resolved_by, sheet.resolved_at = actor, now
    version = storage.next_version(sheet, actor, SheetVersion.Kind.RESOLUTION, check.grid)
    numbers = range(1, len(check.grid["hands"]) + 1)
    storage.store_hands(sheet, check, participants, numbers, series.event.ruleset)
    row.status = TableHand.Status.CONFIRMED
    row.save(update_fields=["status"])
    if not _confirm_sheet_if_done(table, sheet, phone_rows.current_rows(table), row.decided_by):
        announce_change(series.event_id, sheet_table=table.pk)
    return version
