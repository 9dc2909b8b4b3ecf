"""Export: pre-filled score sheets of a series, one page per table, with names, dealer order,
the sheet code and a QR code: to the table link (phones, with the seat codes) while the
table has one, else to the sheet's entry page."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import SCORER
from scoring.exports.exporters.seating import club_short
from scoring.exports.exporters.sheet_page import (
    SUB_PT,
    Look,
    row_mm,
    signature_rows,
    sub_font,
)
from scoring.exports.grids import PAGE_MM, _em
from scoring.exports.parts import PX_PER_MM, sheet_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable
from scoring.sheets.codes import (
    absolute,
    link_problem,
    sheet_code,
    sheet_entry_path,
)
from scoring.sheets.table.links import live_links, phone_path
from tournaments.models import Seat, Series, Table


@dataclass
class SheetPlayer:
    seat: int
    name: str
    club: str
    number: str
    code: str = ""  # the seat's code of the table link


@dataclass
class SheetHand:
    number: int
    dealer: int  # seat position, 0-based

    dealer_name: str = ""


@dataclass
class PrefilledSheet:
    table: int
    players: list[SheetPlayer]
    first_dealer: int
    hands: list[SheetHand] = field(default_factory=list)
    code: str = ""
    url: str = ""
    short_url: str = ""
    qr: str = ""  # what its QR code encodes ("" when none is printed); qr_codes.qr_image
    phone: bool = False  # the QR leads to the table link (players' phones)
    qr_problem: str = ""  # codes.link_problem: why no QR is printed
    grid: int = 0  # the drawing of its empty score cells (ScoreSheetsExporter.context)
    look: int = 0  # its row height and header font (ScoreSheetsExporter.context: looks)
    row_mm: float = 0.0  # a hand's row (sheet_page: what the page leaves for them)
    signatures: list[list[str]] = field(default_factory=list)  # the labels, row by row


def prefilled_sheets(series: Series, *, base_url: str = "", with_qr: bool = True):
    """Every table of a series with players in seat order and the dealer of each hand
    (3 queries). While a table has a working table link, its QR leads to the link and each
    seat's code is printed next to the seat; otherwise to the sheet's entry page."""
    links = live_links(series)
    # A QR that no phone can follow (no network address, localhost) is not printed: the
    # sheet says why instead.
    problem = link_problem(base_url)
    seats = Seat.objects.select_related("participant__player", "participant__club").order_by(
        "position"
    )
    tables = (
        Table.objects.filter(series=series)
        .select_related("sheet")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    sheets = []
    for table in tables:
        players = [
            SheetPlayer(
                seat=seat.position + 1,
                name=str(seat.participant.player),
                club=club_short(seat.participant),
                number=seat.participant.player.player_number,
            )
            for seat in table.seats.all()
        ]
        size = len(players)
        link = links.get(table.number)
        if link is not None:
            for player, code in zip(players, link.seat_codes, strict=False):
                player.code = code
        sheet = getattr(table, "sheet", None)
        first_dealer = sheet.first_dealer if sheet is not None and size else 0
        if size:
            first_dealer %= size
        hands = []
        for i in range(series.planned_rounds * size):
            dealer = (first_dealer + i) % size
            hands.append(SheetHand(i + 1, dealer, players[dealer].name))
        code = sheet_code(series.pk, table.number)
        path = phone_path(link) if link else sheet_entry_path(series.pk, table.number)
        url = absolute(base_url, path)
        sheets.append(
            PrefilledSheet(
                table=table.number,
                players=players,
                first_dealer=first_dealer,
                hands=hands,
                code=code,
                url=url,
                short_url=absolute(base_url, reverse("exports:sheet_code", args=[code])),
                qr=url if with_qr and not problem else "",
                phone=link is not None,
                qr_problem=problem,
            )
        )
    return sheets


DEALER_MM = (34.0, 58.0)  # the dealer column: at least, at most (the players share the rest)
DEALER_PT = (8.0, 6.0)  # its font size, shrunk down to the second for longer names
CELL_PADDING_MM = 2 * 1.4 + 0.4


def dealer_column(sheets: list[PrefilledSheet]) -> tuple[float, float]:
    """Width (mm) and font size (pt) of the dealer column that show every "3. Name" whole:
    wider up to 58 mm, then a smaller font (the rows have a fixed height: no wrapping)."""
    texts = {f"{h.dealer + 1}. {h.dealer_name}" for s in sheets for h in s.hands}
    longest = max((_em(t, "DejaVuSans.ttf") for t in texts), default=0.0)
    need = longest * DEALER_PT[0] * 25.4 / 72 + CELL_PADDING_MM
    width = min(max(DEALER_MM[0], need), DEALER_MM[1])
    text_room = width - CELL_PADDING_MM
    font = DEALER_PT[0] if need <= width else DEALER_PT[0] * text_room / (need - CELL_PADDING_MM)
    return width, max(DEALER_PT[1], font)


# The empty score cells of a sheet (hands x players, the dealer's cell shaded) are one
# table cell with the grid drawn as its background: WeasyPrint spends as much on an empty
# cell as on a line of text, and these were two thirds of a sheet's cells (issue 38:
# 16 % of a sheet's layout). The lines and fills are those of print.css (table.grid td,
# td.is-dealer, td.melded); the drawing is stretched over the cell, so only the lines'
# thickness depends on the column widths computed here.
GRID_LINE = "#888"
DEALER_FILL, MELDED_FILL, MELDED_DEALER_FILL = "#eeeeee", "#f7f9fa", "#e6e6e6"
LINE_PX = 0.6 * 4 / 3  # the 0.6 pt border of table.grid td
HAND_MM, HEADER_PADDING_MM = 10, 1.6  # th.hand's width; table.grid th's side padding


def grid_drawing(columns: int, hands: int, dealers: list[int], *, melded: bool,
                 cell_px: float, row_px: float) -> str:  # fmt: skip
    """An SVG (data: URI) of `hands` rows of `columns` empty cells (two per player with the
    melded points), each hand's dealer shaded, with the lines between the cells; the
    cell's own border draws the outer ones."""
    per_player = 2 if melded else 1
    dx, dy = LINE_PX / cell_px, LINE_PX / row_px
    fills: dict[str, list[str]] = {}
    for hand, dealer in enumerate(dealers):
        for k in range(per_player):
            column = dealer * per_player + k
            colour = MELDED_DEALER_FILL if k else DEALER_FILL
            fills.setdefault(colour, []).append(f"M{column} {hand}h1v1h-1z")
    if melded:
        for column in range(1, columns, 2):
            fills.setdefault(MELDED_FILL, []).append(f"M{column} 0h1v{hands}h-1z")
    lines = [f"M{x - dx / 2:.5f} 0h{dx:.5f}v{hands}h{-dx:.5f}z" for x in range(1, columns)]
    lines += [f"M0 {y - dy / 2:.5f}h{columns}v{dy:.5f}h{-columns}z" for y in range(1, hands)]
    # Melded columns first: a dealer's melded cell is drawn over its column's fill.
    order = [c for c in (MELDED_FILL, DEALER_FILL, MELDED_DEALER_FILL) if c in fills]
    paths = "".join(f'<path d="{"".join(fills[c])}" fill="{c}"/>' for c in order)
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {columns} {hands}" preserveAspectRatio="none">{paths}'
        f'<path d="{"".join(lines)}" fill="{GRID_LINE}"/></svg>'
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def player_mm(dealer_mm: float, players: int) -> float:
    """A player's share of the grid's width (both columns with the melded points): what the
    fixed table layout leaves of the page after the hand and dealer columns and padding."""
    return (PAGE_MM - HAND_MM - dealer_mm - 4 * HEADER_PADDING_MM) / max(1, players)


def grid_drawings(sheets: list[PrefilledSheet], *, melded: bool,
                  dealer_mm: float) -> list[str]:  # fmt: skip
    """The distinct drawings of the sheets' empty cells; each sheet's `grid` is the index of
    its own (sheets with the same players' count and first dealer share one, which
    WeasyPrint reads once)."""
    drawings: dict[str, int] = {}
    for sheet in sheets:
        if not sheet.players or not sheet.hands:
            continue
        per_player = 2 if melded else 1
        columns = len(sheet.players) * per_player
        cell_px = max(1.0, player_mm(dealer_mm, len(sheet.players)) * PX_PER_MM / per_player)
        drawing = grid_drawing(
            columns, len(sheet.hands), [h.dealer for h in sheet.hands], melded=melded,
            cell_px=cell_px, row_px=sheet.row_mm * PX_PER_MM,
        )  # fmt: skip
        sheet.grid = drawings.setdefault(drawing, len(drawings))
    return list(drawings)


def lay_out(sheets: list[PrefilledSheet], *, melded: bool, dealer_mm: float):
    """Give each sheet its signatures' rows, its hands' row height and its look (an index
    into the distinct looks returned); and whether every sheet fits its one page."""
    looks: dict[Look, int] = {}
    fits = True
    labels = (_("points"), _("melded"))
    headers = [_("Seat"), _("Player"), _("Club"), _("Number")]
    for sheet in sheets:
        sheet.signatures = signature_rows(
            [f"{p.seat}. {p.name}" for p in sheet.players] + [_("Scorer")]
        )
        share = player_mm(dealer_mm, len(sheet.players))
        columns = [*headers, _("Seat code")] if sheet.phone else headers
        sheet.row_mm, fit = row_mm(sheet, melded=melded, player_mm=share, headers=columns)
        fits = fits and fit
        sub = sub_font(share, labels) if melded and sheet.players else SUB_PT
        look = Look(f"{sheet.row_mm:.1f}mm", "" if sub == SUB_PT else f"{sub:.2f}pt")
        sheet.look = looks.setdefault(look, len(looks))
    return list(looks), fits


@register
class ScoreSheetsExporter(Exporter):
    slug = "score-sheets"
    name = gettext_lazy("Pre-filled score sheets")
    scope = "series"
    description = gettext_lazy(
        "One sheet per table: players in seat order, the dealer of each hand, an empty grid, "
        "signature lines and a QR code to the sheet's entry page."
    )
    template = "exports/score_sheets.html"
    # The seat codes printed on a sheet let its holder write the table's sheet: scorers
    # (who may write every sheet anyway) and directors print them, not every club member.
    permission = SCORER

    def header_text(self, series):
        return series.event.name

    def title(self, series):
        return _("Score sheets") + f" – {series}"

    def tables(self, series) -> list[ExportTable]:
        needs_melded = series.event.ruleset.needs_melded
        result = []
        for sheet in prefilled_sheets(series, with_qr=False):
            columns = [
                Column("hand", _("Hand"), "int", width=7),
                Column("dealer", _("Dealer"), width=24),
            ]
            for player in sheet.players:
                columns.append(Column(f"p{player.seat}", f"{player.seat}. {player.name}", "int"))
                if needs_melded:
                    columns.append(
                        Column(f"m{player.seat}", f"{player.seat}. " + _("melded"), "int")
                    )
            rows = [{"hand": hand.number, "dealer": hand.dealer_name} for hand in sheet.hands]
            label = _("Table %(number)d") % {"number": sheet.table}
            result.append(
                ExportTable(
                    f"{label} ({sheet.code})",
                    columns,
                    rows,
                    footer={"hand": _("Total")},
                    sheet_name=label,
                )
            )
        return result

    def context(self, series, *, base_url: str = ""):
        sheets = prefilled_sheets(series, base_url=base_url)
        dealer_mm, dealer_pt = dealer_column(sheets)
        melded = series.event.ruleset.needs_melded
        looks, fits = lay_out(sheets, melded=melded, dealer_mm=dealer_mm)
        grids = grid_drawings(sheets, melded=melded, dealer_mm=dealer_mm)
        return {
            "grid_drawings": grids,
            "looks": looks,
            "dealer_width": f"{dealer_mm:.1f}mm",
            "dealer_font": f"{dealer_pt:.2f}pt",
            "series": series,
            "event": series.event,
            "sheets": sheets,
            "needs_melded": melded,
            # Every sheet fits its page unless its hands would need rows below ROW_MM[0]:
            # then it runs onto a second page, and a long print numbers its pages after
            # joining the parts.
            "one_page": fits,
        }

    def pdf_parts(self, context, workers):
        return sheet_parts(context, workers)

    def expected_pages(self, series) -> int:
        return max(1, Table.objects.filter(series=series).count())

    def is_long(self, series, fmt) -> bool:
        return fmt == "pdf" and Table.objects.filter(series=series).count() > 4


# ----- long lists as text lines (PDF and print page) -----------------------------------------
#
# WeasyPrint spends about half a millisecond on every table cell (style, line layout,
# drawing): the standings of a 400-player event are 25,000 cells, 15 s as a grid. Long lists
# are therefore laid out as one monospaced text line per row (aligned in Python, numbers
# right-aligned, formatted as in the grid), one cell per row: 2,500 rows in about 2.5 s.
# The workbook still comes from the same ExportTables, cell by cell.
