"""Tables laid out as monospaced text lists for the PDF: column widths, cut cells and a font
size that fits an A4 landscape line (WeasyPrint lays out text lists far faster than grids)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from scoring.exports.rendering import DisplayTable
from scoring.exports.tables import ExportTable

MAX_FONT_PT, MIN_FONT_PT = 8.0, 5.0
MONO_ADVANCE = 0.602  # DejaVu Sans Mono: advance of one character, in em
LINE_WIDTH_PT = 765.0  # A4 landscape (842 pt) less the page margins and cell padding
MAX_TEXT = 34  # longer text cells are cut with "…" in the PDF (never in the workbook)
GAP = "  "


@dataclass
class TextList:
    """An ExportTable as aligned text lines: the workbook's hand lists, as
    templates/exports/ranking.html reads them."""

    title: str
    header: str  # one or two lines
    rows: list[tuple[str, bool]]  # (text, starts a group)
    footer: str | None
    font_size: str  # CSS length that fits the longest line on the page
    continued: bool = False  # a later run of pages of a list cut into PDF parts: no title


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _header_lines(header: str, width: int) -> tuple[list[str], int]:
    """The header wrapped at spaces into at most two lines of at least `width` characters."""
    words = header.split()
    width = max(width, *(len(w) for w in words)) if words else width
    while True:
        lines: list[str] = []
        for word in words:
            if lines and len(lines[-1]) + 1 + len(word) <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        if len(lines) <= 2:
            return lines or [""], width
        width += 1


def text_lists(tables: list[ExportTable], *, detail_keys=()) -> list[TextList]:
    """Lay out tables as text lines. Columns in `detail_keys` (long texts such as the
    members of a team) go on a second line under the row, indented to the second column."""
    return [_text_list(table, set(detail_keys)) for table in tables]


def _text_list(table: ExportTable, detail_keys: set[str]) -> TextList:
    shown = DisplayTable.of(table)
    keep = [i for i, c in enumerate(table.columns) if c.key not in detail_keys]
    details = [i for i, c in enumerate(table.columns) if c.key in detail_keys]
    columns = [table.columns[i] for i in keep]
    numeric = [c.numeric for c in columns]

    def cells(row_cells):
        texts = [row_cells[i][0] for i in keep]
        return [t if numeric[n] else _cut(t, MAX_TEXT) for n, t in enumerate(texts)]

    body = [(cells(row.cells), row) for row in shown.rows]
    footer = cells(shown.footer) if shown.footer else None
    widths, headers = [], []
    for n, column in enumerate(columns):
        data = max((len(texts[n]) for texts, _row in body), default=0)
        if footer:
            data = max(data, len(footer[n]))
        lines, width = _header_lines(str(column.header), data)
        widths.append(width)
        headers.append(lines)

    def line(texts):
        parts = [
            text.rjust(width) if numeric[n] else text.ljust(width)
            for n, (text, width) in enumerate(zip(texts, widths, strict=True))
        ]
        return GAP.join(parts).rstrip()

    # Header lines bottom-aligned, so one-line headers sit on the second line.
    depth = max((len(h) for h in headers), default=1)
    padded = [[""] * (depth - len(h)) + h for h in headers]
    header = "\n".join(line([h[d] for h in padded]) for d in range(depth))
    total_width = sum(widths) + len(GAP) * max(0, len(widths) - 1)
    indent = " " * (widths[0] + len(GAP)) if len(widths) > 1 else ""
    room = max(20, total_width - len(indent))
    rows = []
    for texts, row in body:
        text = line(texts)
        for i in details:
            detail = row.cells[i][0]
            if detail:
                label = f"{table.columns[i].header}: {detail}"
                text += "".join(f"\n{indent}{chunk}" for chunk in textwrap.wrap(label, room))
        rows.append((text, row.group_start))
    font = LINE_WIDTH_PT / (MONO_ADVANCE * max(total_width, 1))
    font = max(MIN_FONT_PT, min(MAX_FONT_PT, font))
    return TextList(
        title=shown.title,
        header=header,
        rows=rows,
        footer=line(footer) if footer else None,
        font_size=f"{font:.2f}pt",
    )
