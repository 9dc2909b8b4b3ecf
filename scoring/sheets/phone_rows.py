"""The phones' rows of a sheet's hands after a write on the sheet page.

A phone row (`TableHand`) says who at the table wrote a hand and whether another seat
confirmed it. When the director saves the sheet with a hand changed, the row no longer
describes the hand: it becomes history (``replaced``) and the phones show the hand as the
director's ("von der Turnierleitung geändert"), never a confirmation nobody gave. A hand the
save left as it was keeps its row. Resolving a disputed sheet settles every hand it kept.
"""

from __future__ import annotations

from scoring.models import TableHand
from scoring.sheets.grid import diff_grids
from tournaments.models import Table

Status = TableHand.Status


def current_rows(table: Table) -> dict[int, TableHand]:
    """The live phone row of each hand number (replaced rows are history)."""
    rows = TableHand.objects.filter(table=table).exclude(status=Status.REPLACED)
    return {row.number: row for row in rows.order_by("number", "pk")}


def follow_sheet(table: Table, grid: dict, *, settled: bool = False) -> None:
    """Bring ``table``'s current phone rows in line with ``grid``, the sheet as just stored."""
    rows = current_rows(table).values()
    if not rows:
        return
    hands = grid["hands"]
    changed, kept = [], []
    for row in rows:
        now = hands[row.number - 1] if row.number <= len(hands) else None
        same = now is not None and not diff_grids({"hands": [row.hand]}, {"hands": [now]})
        (kept if same else changed).append(row.pk)
    if changed:
        TableHand.objects.filter(pk__in=changed).update(status=Status.REPLACED)
    if settled and kept:
        # The director decided the sheet: what stayed as a phone wrote it stands confirmed.
        TableHand.objects.filter(pk__in=kept, status__in=[Status.ENTERED, Status.DISPUTED]).update(
            status=Status.CONFIRMED
        )
