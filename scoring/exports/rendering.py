"""`render_export`: the one function the views, the jobs and (later) the command share."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils import formats

from scoring.exports.registry import Exporter, get_exporter, scope_of
from scoring.exports.tables import FILE_FORMATS, FORMATS, Column, ExportTable, Progress

CONTENT_TYPES = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
}
# Downloaded as a file, never shown in the browser's tab.
ATTACHMENTS = ("xlsx", "json")
DEFAULT_TEMPLATE = "exports/tables.html"


def display(value: Any, column: Column) -> str:
    """A cell as the PDF and print page show it, in the active language's formats."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return str(value)
    if column.kind == "int" and isinstance(value, int | float | Decimal):
        grouping = column.number_format != "0"
        return formats.number_format(int(value), force_grouping=grouping)
    if column.kind == "decimal" and isinstance(value, int | float | Decimal):
        return formats.number_format(value, 2, force_grouping=True)
    if column.kind == "date" and isinstance(value, dt.date):
        return formats.date_format(value, "SHORT_DATE_FORMAT")
    return str(value)


@dataclass
class DisplayRow:
    cells: list[tuple[str, str]]  # (text, column kind)
    group_start: bool = False


@dataclass
class DisplayTable:
    """An ExportTable with every cell formatted, as the templates read it."""

    title: str
    columns: list[Column]
    rows: list[DisplayRow]
    footer: list[tuple[str, str]] | None
    # A run of a long table laid out in a part of its own (exports.parts.wall_parts): no
    # title, and the rows counted on from `offset` for the zebra stripes.
    continued: bool = False
    offset: int = 0
    same_page: bool = False  # ExportTable.same_page

    @classmethod
    def of(cls, table: ExportTable) -> DisplayTable:
        group_index = next(
            (i for i, c in enumerate(table.columns) if c.key == table.group_by), None
        )
        rows, previous = [], object()
        for values in table.value_rows():
            cells = [(display(v, c), c.kind) for v, c in zip(values, table.columns, strict=True)]
            start = group_index is not None and values[group_index] != previous
            if group_index is not None:
                previous = values[group_index]
            rows.append(DisplayRow(cells, start and bool(rows)))
        footer = table.footer_values()
        footer_cells = (
            None
            if footer is None
            else [(display(v, c), c.kind) for v, c in zip(footer, table.columns, strict=True)]
        )
        return cls(str(table.title), table.columns, rows, footer_cells, same_page=table.same_page)


def render_document(
    exporter: Exporter, obj, fmt: str, *, base_url: str = "", csp_nonce: str = ""
) -> str:
    """The HTML of the PDF (fmt "pdf") or of the print page (fmt "html"); ``csp_nonce``
    lets the page's <style> elements pass the Content-Security-Policy."""
    context = document_context(exporter, obj, fmt, base_url=base_url, csp_nonce=csp_nonce)
    return render_to_string(exporter.template or DEFAULT_TEMPLATE, context)


def document_context(
    exporter: Exporter, obj, fmt: str, *, base_url: str = "", csp_nonce: str = ""
) -> dict:
    scope = scope_of(obj)
    title, header_text = str(exporter.title(obj)), str(exporter.header_text(obj))
    context = {
        "exporter": exporter,
        "obj": obj,
        "title": title,
        "header_text": header_text,
        # The page header's right: the title without the event the left already shows
        # (the whole title wrapped into the centre's "VORLÄUFIG").
        "running_title": title.removesuffix(f" – {header_text}") or title,
        "for_pdf": fmt == "pdf",
        "menu_url": scope.url(obj),
        "pdf_url": scope.url(obj, exporter.slug, "pdf"),
        # Called by the template only if it shows the tables (custom layouts may not).
        "tables": lambda: [DisplayTable.of(t) for t in exporter.tables(obj)],
        "csp_nonce": csp_nonce,
    }
    context.update(exporter.context(obj, base_url=base_url))
    return context


def render_pdf_document(
    exporter: Exporter, obj, *, progress: Progress | None, expected: int, base_url: str
) -> bytes:
    """The PDF: in worker processes when the exporter splits it into parts and PDF_WORKERS
    allows (formats.pdf_parts), else laid out in this process. The parts are rendered here
    from the one context, so the workers never read the database."""
    from scoring.exports.formats.pdf import render_pdf
    from scoring.exports.formats.pdf_parts import pdf_workers, render_pdf_parts

    context = document_context(exporter, obj, "pdf", base_url=base_url)
    template = exporter.template or DEFAULT_TEMPLATE
    workers = pdf_workers()
    parts = exporter.pdf_parts(context, workers) if workers > 1 else []
    if len(parts) < 2:
        html = render_to_string(template, context)
        return render_pdf(html, progress=progress, expected_pages=expected)
    htmls = [render_to_string(template, part) for part in parts]
    costs = [part.get("part_cost", 1) for part in parts]

    def on_part(done_cost: int, total_cost: int, _unit: str) -> None:
        if progress:
            progress(expected * done_cost // max(1, total_cost), expected, "page")

    pages = [part.get("part_pages") for part in parts]
    known = pages if all(pages) else None
    return render_pdf_parts(htmls, costs, workers, progress=on_part, pages=known)


def render_export(
    exporter_slug: str,
    obj,
    fmt: str,
    progress: Progress | None = None,
    *,
    base_url: str = "",
    csp_nonce: str = "",
) -> tuple[bytes, str, str]:
    """Render one export of `obj` as `fmt` ("xlsx", "pdf" or "html").

    Returns (content, filename, content_type). `progress(done, total, unit)` is called
    while rendering (unit "row" for workbooks, "page" for PDFs). `base_url`
    ("http://host:port") makes the links in QR codes absolute.
    No permission check here: callers check `exporter.permission` for the object's club.
    """
    if fmt not in FORMATS + FILE_FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    exporter = get_exporter(exporter_slug)
    if fmt not in exporter.formats:
        raise ValueError(f"{exporter_slug} is not offered as {fmt}")
    filename = exporter.filename(obj, fmt)
    if fmt in FILE_FORMATS:
        content = exporter.render_file(obj, fmt, progress)
    elif fmt == "xlsx":
        from scoring.exports.formats.xlsx import write_workbook

        content = write_workbook(
            exporter.tables(obj),
            title=exporter.title(obj),
            progress=progress,
            empty_note=exporter.empty_note(obj),
        )
    elif fmt == "pdf":
        expected = exporter.expected_pages(obj) if progress else 1
        if progress:
            progress(0, expected, "page")
        content = render_pdf_document(
            exporter, obj, progress=progress, expected=expected, base_url=base_url
        )
    else:
        content = render_document(
            exporter, obj, fmt, base_url=base_url, csp_nonce=csp_nonce
        ).encode("utf-8")
        if progress:
            progress(1, 1, "step")
    return content, filename, CONTENT_TYPES[fmt]
