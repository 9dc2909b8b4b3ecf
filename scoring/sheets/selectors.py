"""Reads for the score-sheet pages and boards (no writes, no validation here).

Page selectors run a fixed number of queries whatever the number of tables or hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, Sum
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from scoring.models import Sheet, SheetVersion
from scoring.sheets.grid import diff_grids, empty_grid
from tournaments.models import Participant, Seat, Series, Table


def seat_name(participant: Participant) -> str:
    player = participant.player
    return f"{player.given_name} {player.family_name}"


@dataclass
class SheetPage:
    table: Table
    series: Series
    event: Any
    sheet: Sheet | None
    seats: list
    seat_names: list[str]
    versions: list[SheetVersion] = field(default_factory=list)  # newest first

    @property
    def table_size(self) -> int:
        return len(self.seats)

    @property
    def ruleset(self):
        return self.event.ruleset

    @property
    def version(self) -> int:
        return self.sheet.version if self.sheet else 0

    @property
    def status(self) -> str | None:
        return self.sheet.status if self.sheet else None

    @property
    def planned_hands(self) -> int:
        return self.series.planned_rounds * self.table_size

    def current_version(self) -> SheetVersion | None:
        """The newest version that is the sheet's content (blind re-entries are not)."""
        return next((v for v in self.versions if v.kind != SheetVersion.Kind.BLIND), None)

    def current_grid(self) -> dict[str, Any]:
        version = self.current_version()
        first = self.sheet.first_dealer if self.sheet else 0
        return version.grid if version else empty_grid(first)

    def latest_blind(self, by=None) -> SheetVersion | None:
        """The newest blind re-entry (by ``by`` when given) since the sheet was entered."""
        if self.sheet is None or self.sheet.status != Sheet.Status.ENTERED:
            return None
        for v in self.versions:
            if v.kind == SheetVersion.Kind.BLIND:
                if v.created_by_id == self.sheet.entered_by_id:
                    continue
                if by is None or v.created_by_id == by.pk:
                    return v
        return None


def sheet_page(series_pk: int, table_number: int) -> SheetPage:
    """Everything the entry page of one sheet reads: three queries."""
    table = get_object_or_404(
        Table.objects.select_related(
            "series__event__club", "sheet__entered_by", "sheet__confirmed_by"
        ),
        series_id=series_pk,
        number=table_number,
    )
    return _page_for(table)


def sheet_page_for_table(table: Table) -> SheetPage:
    table = Table.objects.select_related(
        "series__event__club", "sheet__entered_by", "sheet__confirmed_by"
    ).get(pk=table.pk)
    return _page_for(table)


def _page_for(table: Table) -> SheetPage:
    try:
        sheet = table.sheet
    except Sheet.DoesNotExist:
        sheet = None
    seats = list(table.seats.select_related("participant__player").order_by("position"))
    versions = []
    if sheet is not None:
        versions = list(sheet.versions.select_related("created_by").order_by("-number"))
    return SheetPage(
        table=table,
        series=table.series,
        event=table.series.event,
        sheet=sheet,
        seats=seats,
        seat_names=[seat_name(s.participant) for s in seats],
        versions=versions,
    )


def version_history(page: SheetPage, *, hide_cells: bool = False) -> list[dict[str, Any]]:
    """Each version, newest first, with the cells it changed against the one before.

    Blind re-entries are compared with the entry they re-type; ``hide_cells`` leaves
    the cells out (a blind confirmer must not see the entry).
    """
    ordered = sorted(page.versions, key=lambda v: v.number)
    entries = []
    content = None
    for version in ordered:
        if version.kind == SheetVersion.Kind.BLIND:
            changes = diff_grids(content, version.grid, ruleset=page.ruleset)
        else:
            changes = diff_grids(content, version.grid)
            content = version.grid
        entries.append({"version": version, "changes": [] if hide_cells else changes})
    entries.reverse()
    return entries


@dataclass
class BoardRow:
    table: Table
    sheet: Sheet | None
    names: list[str]

    @property
    def status(self) -> str:
        return self.sheet.status if self.sheet else "missing"


@dataclass
class Board:
    series: Series
    rows: list[BoardRow]

    @property
    def counts(self) -> dict[str, int]:
        counts = {"missing": 0, "draft": 0, "entered": 0, "disputed": 0, "confirmed": 0}
        for row in self.rows:
            counts[row.status] += 1
        return counts


def series_board(series_pk: int) -> Board:
    """Each table of a series with its sheet's status: three queries."""
    series = get_object_or_404(Series.objects.select_related("event__club"), pk=series_pk)
    tables = list(
        Table.objects.filter(series=series)
        .select_related("sheet__entered_by", "sheet__confirmed_by")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("participant__player"))
        )
        .order_by("number")
    )
    rows = []
    for table in tables:
        try:
            sheet = table.sheet
        except Sheet.DoesNotExist:
            sheet = None
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        rows.append(BoardRow(table, sheet, [seat_name(s.participant) for s in seats]))
    return Board(series, rows)


def running_order(event, before_series: int) -> list[int]:
    """Participant ids of the event, best first by total points of confirmed sheets of
    the regular series before ``before_series``; ties by participant id. One query.

    Every profile scores higher-is-better, so the best total is the highest.
    """
    confirmed = Q(
        hand_seats__hand__sheet__status=Sheet.Status.CONFIRMED,
        hand_seats__hand__sheet__table__series__number__lt=before_series,
        hand_seats__hand__sheet__table__series__kind="regular",  # playoffs change no total
    )
    return list(
        Participant.objects.filter(event=event)
        .annotate(total=Coalesce(Sum("hand_seats__points", filter=confirmed), 0))
        .order_by("-total", "pk")
        .values_list("pk", flat=True)
    )
