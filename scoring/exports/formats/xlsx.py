"""Workbooks with openpyxl: numbers as numbers, German formats, and no formula injection.

Every string is written as a string cell. openpyxl would store a string starting with
"=" as a formula; such strings, and those Excel or LibreOffice would read as one when a
user edits the cell or saves it as CSV ("+", "-", "@", tab, carriage return), get the
string data type back and the quote prefix, so they show and stay exactly as typed.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from io import BytesIO
from typing import Any

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from scoring.exports.tables import Column, ExportTable, Progress

NUMBER_FORMATS = {"int": "#,##0", "decimal": "#,##0.00", "date": "DD.MM.YYYY"}
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


# Characters Excel refuses in worksheet names.
SHEET_NAME_FORBIDDEN = str.maketrans(dict.fromkeys("[]:*?/\\", " "))
HEADER_FILL = PatternFill("solid", fgColor="E4E9ED")
HEADER_ALIGNMENT = Alignment(vertical="center", wrap_text=False)
BOLD = Font(bold=True)
MIN_WIDTH, MAX_WIDTH = 6, 50


def cell_value(value: Any, column: Column) -> Any:
    """The value a cell gets: a number, a date or a string, never a formula."""
    if value is None or value == "":
        return None
    if (
        column.kind == "int"
        and isinstance(value, int | float | Decimal)
        and not isinstance(value, bool)
    ):
        return int(value)
    if column.kind == "decimal" and isinstance(value, int | float | Decimal):
        return value
    if column.kind == "date" and isinstance(value, dt.date):
        return value
    return str(value)


class CellWriter:
    """Cells for one column of a write-only sheet: a write-only sheet writes each row as it is
    appended, so three cells per column (number, text, text kept as text) are set anew for
    every row instead of one cell object per value."""

    def __init__(self, ws, column: Column, font: Font | None = None):
        self.column = column
        self.number, self.text, self.quoted = (WriteOnlyCell(ws) for _ in range(3))
        if column.kind in NUMBER_FORMATS:
            self.number.number_format = column.number_format or NUMBER_FORMATS[column.kind]
        # Stored as text whatever it looks like; the quote prefix keeps it text on edit.
        self.quoted.quotePrefix = True
        if font is not None:
            for cell in (self.number, self.text, self.quoted):
                cell.font = font

    def __call__(self, value: Any):
        value = cell_value(value, self.column)
        if value is None:
            return None
        if not isinstance(value, str):
            self.number.value = value
            return self.number
        cell = self.text
        cell.value = value
        if cell.data_type != "s" or value.startswith(FORMULA_TRIGGERS):
            cell = self.quoted
            cell.value = value
            cell.data_type = "s"
        return cell


def sheet_title(table: ExportTable, used: set[str]) -> str:
    base = (table.sheet_name or table.title or "Sheet").translate(SHEET_NAME_FORBIDDEN)
    base = base.strip().strip("'")[:31] or "Sheet"
    title, n = base, 2
    while title.casefold() in used:
        suffix = f" ({n})"
        title, n = base[: 31 - len(suffix)] + suffix, n + 1
    used.add(title.casefold())
    return title


def _display_length(value: Any, column: Column) -> int:
    if value is None:
        return 0
    if column.kind == "date":
        return 10
    if column.kind == "int" and isinstance(value, int):
        return len(f"{value:,}")
    if column.kind == "decimal":
        return len(f"{value:,.2f}")
    return max((len(line) for line in str(value).splitlines()), default=0)


def write_workbook(
    tables: list[ExportTable],
    *,
    title: str = "",
    progress: Progress | None = None,
    empty_note: str = "",
) -> bytes:
    """One worksheet per table: a bold, frozen header row with an autofilter. The sheets are
    write-only (openpyxl streams each row out as it is appended): column widths, frozen
    pane and page setup are set before the first row."""
    wb = Workbook(write_only=True)
    wb.properties.title = str(title)[:255]
    wb.properties.creator = "Rommé Ledger"
    total = sum(len(t.rows) for t in tables) or 1
    done = 0
    used: set[str] = set()
    for table in tables:
        ws = wb.create_sheet(sheet_title(table, used))
        columns = table.columns
        rows = table.value_rows()
        footer = table.footer_values()
        widths = [len(str(c.header)) for c in columns]
        for values in rows:
            for n, (column, value) in enumerate(zip(columns, values, strict=True)):
                widths[n] = max(widths[n], _display_length(value, column))
        for col, column in enumerate(columns, start=1):
            width = column.width or min(MAX_WIDTH, max(MIN_WIDTH, widths[col - 1] + 2))
            ws.column_dimensions[get_column_letter(col)].width = width
        ws.freeze_panes = "A2"
        if columns:
            data_end = len(rows) + 1
            ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{max(data_end, 1)}"
        # Printing from Excel: A4, header row on every page, one page wide.
        ws.page_setup.paperSize = Worksheet.PAPERSIZE_A4
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        ws.print_title_rows = "1:1"

        header = [CellWriter(ws, Column(c.key, ""), BOLD)(str(c.header)) for c in columns]
        for cell in filter(None, header):
            cell.fill = HEADER_FILL
            cell.alignment = HEADER_ALIGNMENT
        ws.append(header)
        writers = [CellWriter(ws, column) for column in columns]
        for values in rows:
            ws.append([write(value) for write, value in zip(writers, values, strict=True)])
            done += 1
            if progress and done % 200 == 0:
                progress(done, total, "row")
        if footer is not None:
            bold = [CellWriter(ws, column, BOLD) for column in columns]
            ws.append([write(value) for write, value in zip(bold, footer, strict=True)])
    if not tables:  # (a workbook needs a sheet: one in the reader's language that says why)
        ws = wb.create_sheet(str(_("Note")))
        ws.column_dimensions["A"].width = MAX_WIDTH
        ws.append([str(empty_note)])
    out = BytesIO()
    wb.save(out)
    if progress:
        progress(total, total, "row")
    return out.getvalue()
