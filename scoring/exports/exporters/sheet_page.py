"""What fits on a score sheet's A4 page: the height of each of its parts and the height of
the hands' rows that fill the rest, sheet by sheet.

Every text of a sheet that could wrap is cut to a known number of lines (print.css:
line-clamp), and whether it needs its second line is read from the font's advances: so the
parts' heights are known before WeasyPrint lays them out, and a sheet of six players, many
hands or long names still fits its one page (tests/exports/test_score_sheet_pages.py lays out
each case and checks these heights against WeasyPrint's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scoring.exports.grids import PAGE_MM, _em
from scoring.exports.parts import PORTRAIT_PX, PX_PER_MM, _lines

PT_MM = 25.4 / 72
REGULAR, BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"

# The page (print.css): A4 less the top and bottom margins; a little is kept back for what
# the model rounds (a line's width read from the advances, borders).
AREA_MM = PORTRAIT_PX / PX_PER_MM
SPARE_MM = 3.0
ROW_MM = (4.2, 7.5)  # a hand's row: at least (a written number; the hand's 9.5 pt line), at most

# The parts, measured in WeasyPrint (mm): the head (title, facts, QR code) and its margin,
# and the caption under a table link's QR code (three lines at most); the players' table:
# its header row of one line, a row of one line, a further line (9.5 pt), its margin.
HEAD_MM, CAPTION_MM = 34.5, 8.9
PLAYERS_HEAD_MM, PLAYER_ROW_MM, PLAYER_LINE_MM, PLAYERS_GAP_MM = 5.8, 5.5, 3.9, 3.0
# The grid: its header row of one line (8 pt), a further line, the melded points' second
# header row (7 pt), the totals row.
GRID_HEAD_MM, GRID_HEAD_LINE_MM, GRID_SUB_MM, TOTALS_MM = 6.0, 3.3, 5.4, 9.9
# The signatures: the gap above them, a row with one line (8 pt), a further line.
SIGNATURES_GAP_MM, SIGNATURE_ROW_MM, SIGNATURE_LINE_MM = 6.0, 11.5, 3.3
# The note under them: one line (the sheet code at 11 pt), the table link's line (7.5 pt).
NOTE_MM, NOTE_LINE_MM = 7.5, 3.1

# Widths (print.css): the players' table's columns and cell padding, the grid's header
# padding, the signatures' right padding.
PLAYER_SEAT_MM, PLAYER_NAME_SHARE, PLAYER_CLUB_SHARE = 14.0, 0.38, 0.22
CELL_SIDES_MM, BORDER_MM = 3.2, 0.6 * PT_MM
SUB_PT, SUB_MIN_PT, SUB_SIDES_MM = 7.0, 5.0, 0.8
SIGNATURE_SIDES_MM = 4.0


@dataclass(frozen=True)
class Look:
    """The CSS of one kind of sheet in the template's head, as text (never localised)."""

    row: str  # a hand's row, "6.2mm"
    sub: str  # the melded points' header font, "6.10pt" ("" for print.css's own)


def lines(text: str, pt: float, room_mm: float, font: str = REGULAR) -> int:
    """1 when `text` fits `room_mm` on one line, else 2: the cell is cut to two lines."""
    return min(2, _lines(text, pt, room_mm * 0.97, font))


def signature_rows(labels: list[str]) -> list[list[str]]:
    """The signatures in two rows (three players and the scorer: 2 + 2, six and the scorer:
    4 + 3), so that every sheet gives them the same height."""
    per_row = max(1, math.ceil(len(labels) / 2))
    return [labels[i : i + per_row] for i in range(0, len(labels), per_row)]


def players_mm(sheet, headers: list[str]) -> float:
    """The players' table with its margin: `headers` are its columns' labels."""
    # The seat, name and club columns have their (content) widths; the others share the rest.
    name_mm, club_mm = PAGE_MM * PLAYER_NAME_SHARE, PAGE_MM * PLAYER_CLUB_SHARE
    others = max(1, len(headers) - 3)
    rest = PAGE_MM - PLAYER_SEAT_MM - name_mm - club_mm
    rest -= CELL_SIDES_MM * len(headers) + BORDER_MM * (len(headers) + 1)
    rooms = [PLAYER_SEAT_MM, name_mm, club_mm] + [rest / others] * (len(headers) - 3)
    head = max(lines(h, 9.5, room, BOLD) for h, room in zip(headers, rooms, strict=True))
    rows = sum(
        PLAYER_ROW_MM
        + PLAYER_LINE_MM * (max(lines(p.name, 9.5, name_mm), lines(p.club, 9.5, club_mm)) - 1)
        for p in sheet.players
    )
    return PLAYERS_HEAD_MM + PLAYER_LINE_MM * (head - 1) + rows + PLAYERS_GAP_MM


def fixed_mm(sheet, *, melded: bool, player_mm: float, headers: list[str]) -> float:
    """The height of everything on the sheet's page but the hands' rows."""
    head = HEAD_MM + (CAPTION_MM if sheet.phone and sheet.qr else 0)
    players = players_mm(sheet, headers)
    head_lines = max(
        (lines(f"{p.seat}. {p.name}", 8, player_mm - CELL_SIDES_MM, BOLD) for p in sheet.players),
        default=1,
    )
    grid = GRID_HEAD_MM + GRID_HEAD_LINE_MM * (head_lines - 1) + TOTALS_MM
    if melded:
        grid += GRID_SUB_MM
    signatures = SIGNATURES_GAP_MM
    room = PAGE_MM / len(sheet.signatures[0]) - SIGNATURE_SIDES_MM  # (the scorer's at least)
    for row in sheet.signatures:
        second = max(lines(label, 8, room) for label in row) - 1
        signatures += SIGNATURE_ROW_MM + SIGNATURE_LINE_MM * second
    note = NOTE_MM + (NOTE_LINE_MM if sheet.phone else 0)
    return head + players + grid + signatures + note


def sub_font(player_mm: float, labels: tuple[str, str]) -> float:
    """The melded points' header font (pt) that holds both labels in half a player's column."""
    room = player_mm / 2 - SUB_SIDES_MM
    need = max(_em(label, REGULAR) for label in labels) * PT_MM
    return max(SUB_MIN_PT, min(SUB_PT, room / need * 0.92))


def row_mm(sheet, *, melded: bool, player_mm: float, headers: list[str]) -> tuple[float, bool]:
    """A hand's row on this sheet's page, and whether the sheet fits the page with it."""
    hands = len(sheet.hands)
    if not hands:
        return ROW_MM[1], True
    fixed = fixed_mm(sheet, melded=melded, player_mm=player_mm, headers=headers)
    room = AREA_MM - SPARE_MM - fixed
    row = math.floor(min(ROW_MM[1], room / hands) * 10) / 10  # as the CSS writes it
    return max(ROW_MM[0], row), row >= ROW_MM[0]
