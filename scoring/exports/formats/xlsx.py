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

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties

from scoring.exports.tables import Column, ExportTable, Progress

NUMBER_FORMATS = {"int": "#,##0", "decimal": "#,##0.00", "date": "DD.MM.YYYY"}
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


# Characters Excel refuses in worksheet names.
SHEET_NAME_FORBIDDEN = str.maketrans(dict.fromkeys("[]:*?/\\", " "))
HEADER_FILL = PatternFill("solid", fgColor="E4E9ED")
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


def write_cell(ws, row: int, col: int, value: Any, column: Column):
    cell = ws.cell(row=row, column=col)
    value = cell_value(value, column)
    cell.value = value
    if isinstance(value, str):
        if cell.data_type != "s" or value.startswith(FORMULA_TRIGGERS):
            # Stored as text whatever it looks like; the quote prefix keeps it text on edit.
            cell.data_type = "s"
            cell.quotePrefix = True
    elif value is not None and column.kind in NUMBER_FORMATS:
        cell.number_format = column.number_format or NUMBER_FORMATS[column.kind]
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
) -> bytes:
    """One worksheet per table: a bold, frozen header row with an autofilter."""
    wb = Workbook()
    wb.remove(wb.active)
    wb.properties.title = str(title)[:255]
    wb.properties.creator = "Rommé Ledger"
    total = sum(len(t.rows) for t in tables) or 1
    done = 0
    used: set[str] = set()
    for table in tables:
        ws = wb.create_sheet(sheet_title(table, used))
        columns = table.columns
        widths = [len(str(c.header)) for c in columns]
        for col, column in enumerate(columns, start=1):
            cell = write_cell(ws, 1, col, str(column.header), Column(column.key, ""))
            cell.font = BOLD
            cell.fill = HEADER_FILL
            cell.alignment = Alignment(vertical="center", wrap_text=False)
        rows = table.value_rows()
        for r, values in enumerate(rows, start=2):
            for col, (column, value) in enumerate(zip(columns, values, strict=True), start=1):
                write_cell(ws, r, col, value, column)
                widths[col - 1] = max(widths[col - 1], _display_length(value, column))
            done += 1
            if progress and done % 200 == 0:
                progress(done, total, "row")
        last_row = len(rows) + 1
        footer = table.footer_values()
        if footer is not None:
            last_row += 1
            for col, (column, value) in enumerate(zip(columns, footer, strict=True), start=1):
                write_cell(ws, last_row, col, value, column).font = BOLD
        for col, column in enumerate(columns, start=1):
            width = column.width or min(MAX_WIDTH, max(MIN_WIDTH, widths[col - 1] + 2))
            ws.column_dimensions[get_column_letter(col)].width = width
        ws.freeze_panes = "A2"
        if columns:
            data_end = len(rows) + 1
            ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{max(data_end, 1)}"
        # Printing from Excel: A4, header row on every page, one page wide.
        ws.page_setup.paperSize = ws.PAPERSIZE_A4
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        ws.print_title_rows = "1:1"
    if not tables:
        wb.create_sheet("Sheet")
    out = BytesIO()
    wb.save(out)
    if progress:
        progress(total, total, "row")
    return out.getvalue()
