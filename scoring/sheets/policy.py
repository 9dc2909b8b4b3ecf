"""The score sheet's workflow policy: who may do what with a sheet in which state.

The sheet page offers only what `sheet_actions` allows; the services (`scoring.sheets.services`)
check the same rules again on every write, with `series_started` shared by both.
"""

from __future__ import annotations

from clubs.permissions import ORGANISER, SCORER, has_role
from scoring.models import Sheet, SheetVersion
from tournaments.models import Series


def series_started(series) -> bool:
    """Sheets belong to a series in play or complete; earlier ones are not entered."""
    return series.status in (Series.Status.IN_PLAY, Series.Status.COMPLETE)


def sheet_actions(user, page) -> dict:
    """What ``user`` may do with the sheet of ``page`` now (the page shows only these)."""
    club = page.event.club
    is_scorer = has_role(user, club, SCORER)
    is_organiser = has_role(user, club, ORGANISER)
    status = page.status
    sheet = page.sheet
    started = series_started(page.series)
    entered_by_me = sheet is not None and sheet.entered_by_id == user.pk
    resolve = status == Sheet.Status.DISPUTED and may_resolve(
        user, sheet, club, latest_blind(sheet, page.versions)
    )
    blind = (
        is_scorer
        and status == Sheet.Status.ENTERED
        and page.event.blind_confirmation
        and not entered_by_me
    )
    if status == Sheet.Status.DISPUTED:
        can_edit = resolve
    elif status == Sheet.Status.CONFIRMED:
        can_edit = is_organiser
    else:
        can_edit = is_scorer
    return {
        "is_scorer": is_scorer,
        "is_organiser": is_organiser,
        "started": started,
        "blind": blind,
        "resolve": resolve,
        # A disputed sheet's entries are shown only to those who may resolve it.
        "hide_values": status == Sheet.Status.DISPUTED and not resolve,
        "can_edit": can_edit and page.table_size > 0 and started,
        "correction": status == Sheet.Status.CONFIRMED,
        "entered": status == Sheet.Status.ENTERED,
        "disputed": status == Sheet.Status.DISPUTED,
        "entered_by_me": entered_by_me,
        "can_confirm": is_scorer
        and started
        and status == Sheet.Status.ENTERED
        and not page.event.blind_confirmation
        and not entered_by_me,
    }


def latest_blind(sheet: Sheet, versions=None) -> SheetVersion | None:
    """The newest blind re-entry of the sheet (``versions``: already loaded, newest first)."""
    if versions is None:
        versions = sheet.versions.select_related("created_by").order_by("-number")
    return next((v for v in versions if v.kind == SheetVersion.Kind.BLIND), None)


def may_resolve(user, sheet: Sheet | None, club, blind: SheetVersion | None) -> bool:
    """A director or the first scorer, but not the author of the differing re-entry."""
    if sheet is None or sheet.status != Sheet.Status.DISPUTED or not user.is_authenticated:
        return False
    if blind is not None and blind.created_by_id == user.pk:
        return False
    return has_role(user, club, ORGANISER) or (
        sheet.entered_by_id == user.pk and has_role(user, club, SCORER)
    )
