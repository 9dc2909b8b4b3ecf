"""Reads for the phone page of a table link and the director's page of a series' links.

Fixed query counts: the phone page reads its table, seats, sheet, hands and phone rows;
the director's page reads every table of the series with its live link and progress at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Prefetch, Q

from scoring.models import Hand, HandSeat, Sheet, SheetVersion, TableHand, TableLink
from scoring.sheets.grid import cell_text
from scoring.sheets.selectors import seat_name
from tournaments.models import Seat, Series, Table


@dataclass
class PhoneHand:
    number: int
    dealer: int
    winner: int | None
    hand_romme: bool
    entries: list[str]  # as written: points or cards
    points: list[int]
    running: list[int]
    # "entered", "confirmed", "disputed", "paper" (typed by the director) or "changed" (a
    # phone's hand the director changed on the sheet page)
    status: str
    writer: int | None
    decided_by: int | None


@dataclass
class PhoneTable:
    link: TableLink
    table: Table
    series: Series
    sheet: Sheet | None
    seat_names: list[str]
    hands: list[PhoneHand] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    @property
    def planned_hands(self) -> int:
        return self.series.planned_rounds * len(self.seat_names)

    @property
    def next_number(self) -> int:
        return len(self.hands) + 1

    @property
    def next_dealer(self) -> int:
        size = max(len(self.seat_names), 1)
        if not self.hands:
            return self.sheet.first_dealer % size if self.sheet else 0
        return (self.hands[0].dealer + len(self.hands)) % size

    @property
    def status(self) -> str | None:
        return self.sheet.status if self.sheet else None


def _director_status(number: int, phones_wrote: set[int]) -> str:
    """A hand with no current phone row: the director changed what a phone wrote
    ("changed", scoring.sheets.phone_rows) or typed it from paper."""
    return "changed" if number in phones_wrote else "paper"


def seat_names(table: Table) -> list[str]:
    """The names of ``table``'s seats in seat order, as its messages name them."""
    seats = list(Seat.objects.filter(table=table).select_related("participant__player"))
    seats.sort(key=lambda s: s.position)
    return [seat_name(s.participant) for s in seats]


def phone_table(link: TableLink) -> PhoneTable:
    """The table of ``link`` as its phones show it: seats, hands with points and running
    totals (the stored, derived points), and each hand's confirmation state."""
    table = link.table
    sheet = Sheet.objects.filter(table=table).first()
    view = PhoneTable(link, table, table.series, sheet, seat_names(table))
    view.totals = [0] * len(view.seat_names)
    if sheet is None:
        return view
    rows, phones_wrote = {}, set()
    for row in TableHand.objects.filter(table=table).order_by("number", "pk"):
        phones_wrote.add(row.number)
        if row.status != TableHand.Status.REPLACED:
            rows[row.number] = row
    hands = Hand.objects.filter(sheet=sheet).prefetch_related(
        Prefetch("seats", queryset=HandSeat.objects.order_by("position"))
    )
    for hand in hands.order_by("number"):
        seat_rows = list(hand.seats.all())
        points = [s.points for s in seat_rows]
        view.totals = [t + p for t, p in zip(view.totals, points, strict=False)]
        row = rows.get(hand.number)
        view.hands.append(
            PhoneHand(
                number=hand.number,
                dealer=hand.dealer,
                winner=hand.winner,
                hand_romme=hand.hand_romme,
                entries=[
                    cell_text({"cards": s.cards, "hand_points": s.hand_points}) for s in seat_rows
                ],
                points=points,
                running=list(view.totals),
                status=row.status if row else _director_status(hand.number, phones_wrote),
                writer=row.writer if row else None,
                decided_by=row.decided_by if row else None,
            )
        )
    return view


@dataclass
class LinkRow:
    table: Table
    link: TableLink | None
    seats: list[dict[str, Any]]
    sheet: Sheet | None
    hands: int = 0
    confirmed: int = 0
    disputed: int = 0
    last_activity: Any = None
    disputes: list[dict[str, Any]] = field(default_factory=list)


def series_links(series: Series) -> list[LinkRow]:
    """Each table of ``series`` with its live link (or none), seat codes and the phones'
    progress: four queries whatever the number of tables."""
    live = TableLink.objects.filter(revoked_at__isnull=True)
    tables = list(
        Table.objects.filter(series=series)
        .select_related("sheet")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("participant__player")),
            Prefetch("links", queryset=live, to_attr="live_links"),
        )
        .annotate(hand_count=Count("sheet__hands", distinct=True))
        .order_by("number")
    )
    current = ~Q(phone_hands__status=TableHand.Status.REPLACED)
    progress = {
        row["pk"]: row
        for row in Table.objects.filter(series=series)
        .values("pk")
        .annotate(
            confirmed=Count(
                "phone_hands",
                filter=Q(phone_hands__status=TableHand.Status.CONFIRMED) & current,
            ),
            disputed=Count("phone_hands", filter=Q(phone_hands__status=TableHand.Status.DISPUTED)),
            last_entry=Max("phone_hands__created_at"),
            last_decision=Max("phone_hands__decided_at"),
        )
    }
    disputes = _disputes(series)
    out = []
    for table in tables:
        link = table.live_links[0] if table.live_links else None
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        try:
            sheet = table.sheet
        except Sheet.DoesNotExist:
            sheet = None
        stats = progress[table.pk]
        moments = [m for m in (stats["last_entry"], stats["last_decision"]) if m]
        out.append(
            LinkRow(
                table=table,
                link=link,
                seats=[
                    {
                        "position": s.position + 1,
                        "name": seat_name(s.participant),
                        "code": link.seat_codes[s.position]
                        if link and s.position < len(link.seat_codes)
                        else "",
                    }
                    for s in seats
                ],
                sheet=sheet,
                hands=table.hand_count,
                confirmed=stats["confirmed"],
                disputed=stats["disputed"],
                last_activity=max(moments) if moments else None,
            )
        )
        names = [seat["name"] for seat in out[-1].seats]
        for row, entry, theirs in disputes.get(table.pk, []):
            out[-1].disputes.append(
                {
                    "number": row.number,
                    "writer": row.writer + 1,
                    "decided_by": (row.decided_by or 0) + 1,
                    "entry": _hand_text(entry, names),
                    "blind": _hand_text(theirs, names),
                }
            )
    return out


def _hand_text(hand: dict | None, names: list[str]) -> str:
    if not hand:
        return "–"
    parts = []
    for index, seat in enumerate(hand.get("seats", [])):
        text = "0" if hand.get("winner") == index else (cell_text(seat) or "–")
        name = names[index] if index < len(names) else str(index + 1)
        parts.append(f"{name}: {text}")
    return " · ".join(parts)


def _disputes(series: Series) -> dict[int, list]:
    """Hands disputed at the tables of ``series``: the writer's and the disputing seat's
    version of each (two queries)."""
    rows = list(
        TableHand.objects.filter(table__series=series, status=TableHand.Status.DISPUTED)
        .select_related("table__sheet")
        .order_by("table_id", "number")
    )
    if not rows:
        return {}
    versions = SheetVersion.objects.filter(sheet__table__in=[r.table_id for r in rows]).order_by(
        "sheet_id", "-number"
    )
    entry_by_table, blind_by_table = {}, {}
    for version in versions.select_related("sheet"):
        key = version.sheet.table_id
        target = blind_by_table if version.kind == SheetVersion.Kind.BLIND else entry_by_table
        target.setdefault(key, version.grid)
    out: dict[int, list] = {}
    for row in rows:
        index = row.number - 1
        entry = entry_by_table.get(row.table_id, {}).get("hands", [])
        blind = blind_by_table.get(row.table_id, {}).get("hands", [])
        out.setdefault(row.table_id, []).append(
            (
                row,
                entry[index] if index < len(entry) else None,
                blind[index] if index < len(blind) else None,
            )
        )
    return out
