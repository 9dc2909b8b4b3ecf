"""Splitting a long print into parts that each begin on a new page (formats.pdf_parts lays
them out in parallel processes).

A part boundary must fall where the one-process print has a page break, or the page before
it would end half empty. Tables already begin on a new page; a long table is cut after whole
pages, counted with the row heights of the stylesheet (static/css/print.css): a row of the
grids is its lines of 8 pt DejaVu Sans plus padding and border, a row of a text list its
lines of monospaced text. Only tables whose rows are all one line are cut inside (the grids'
column widths are computed from the texts, so it is known which texts wrap). The heights
are those WeasyPrint computes (tests/exports/test_pdf_parts.py compares the pages of both
ways); a page is counted 2 px shorter, so rounding can leave a row's space empty before a
cut but never push a row onto a page of its own.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from itertools import pairwise

from django.utils.translation import gettext as _

from scoring.exports.grids import PADDING_MM, PAGE_MM, Grid, _em

PX_PER_MM = 96 / 25.4
LINE = 1.164 * 4 / 3  # px per pt: DejaVu's normal line height (ascent + descent, in em)
ONE_LINE_PX = 8 * LINE  # a line of the grids' 8 pt body text
PORTRAIT_PX = (297 - 18 - 16) * PX_PER_MM  # A4 less the page margins (print.css @page)
WIDE_PX = (210 - 15 - 13) * PX_PER_MM  # A4 landscape, @page wide
GRID_ROW_EXTRA = 2 * 0.45 * PX_PER_MM + 0.8  # padding and one collapsed border
LIST_ROW_EXTRA = 2 * 0.25 * PX_PER_MM  # padding
LIST_GROUP_BORDER = 0.8 * 4 / 3 / 2 + 0.05  # a group's 0.8 pt top border (half in the row)
LIST_HEAD_BORDERS = (0.8 + 0.6) * 4 / 3  # the header's bottom border, the table's top
WIDE_MM = 297 - 24  # the width of a landscape page's text
MIN_PARALLEL_CELLS = 3000  # about 3 s of layout
MIN_SHEETS = 8  # score sheets (one page each, about 0.3 s)
MIN_PART_ROWS = 40  # a shorter rest is not worth a process of its own
SLACK_PX = 2.0  # a page is counted this much shorter: rounding never moves a row
# Pango lays out a text up to this much wider than its advances add up to (rounding at
# 7 pt); `grid_pages` counts a row's lines only where that changes nothing.
TEXT_TOLERANCE = 1.05


def grid_rows_single_line(grid: Grid) -> bool:
    """Whether no body text of the grid wraps in its column (`_row_lines`: the widths are
    percentages of the 184 mm page width)."""
    return all(_row_lines(grid, row) == ONE_LINE_PX for row in grid.rows)


def _lines(
    text: str, pt: float, width_mm: float, font: str = "DejaVuSans.ttf", split: str | None = None
) -> int:
    """Lines of `text` wrapped at spaces (`split`: only there) in `width_mm` (a longer word
    is cut, as `hyphens: auto` and `overflow-wrap` do)."""
    width_em = max(0.1, width_mm / (pt * 25.4 / 72))
    lines, used = 1, 0.0
    for word in text.split(split):
        size = _em(word, font)
        if used and used + _em(" ", font) + size <= width_em:
            used += _em(" ", font) + size
            continue
        if used:
            lines += 1
        lines += int(size // width_em)
        used = size % width_em
    return lines


def _header_px(grid: Grid) -> float:
    """The grid's header row: 7 pt bold, each header wrapped in its column."""
    lines = max(
        (
            _lines(c.header, 7, c.width / 100 * PAGE_MM - PADDING_MM, "DejaVuSans-Bold.ttf")
            for c in grid.columns
        ),
        default=1,
    )
    return lines * 7 * LINE + GRID_ROW_EXTRA


def head_px(context: dict, first_title: str, width_mm: float) -> float:
    """The document's head (title, facts, notes; print.css) and the first table's title."""

    def block(text, pt, margin_mm, font="DejaVuSans.ttf", extra_mm=0.0, inset_mm=0.0):
        lines = _lines(str(text), pt, width_mm - inset_mm, font)
        return lines * pt * LINE + (margin_mm + extra_mm) * PX_PER_MM

    height = block(context.get("title", ""), 14, 3, "DejaVuSans-Bold.ttf")
    if context.get("facts"):
        height += block(" · ".join(str(f) for f in context["facts"]), 9.5, 2.5)
    if context.get("provisional"):
        note = _("PROVISIONAL: not every sheet is confirmed yet (marked in the last column).")
        height += block(note, 10, 3, "DejaVuSans-Bold.ttf", 3 + 0.85, 5 + 0.85)
    if context.get("note"):
        height += block(context["note"], 8, 0)
    # The last margin collapses with the title's 5 mm above (CSS margin collapsing); the
    # table's top border adds half a pixel.
    return height + _title_px(first_title, width_mm) + 1


def _cuts(rows: int, row_px: float, first_px: float, page_px: float, pages: int) -> list[int]:
    """Row indexes after every `pages` pages: `first_px` of room on the first page, then
    `page_px` on each page."""
    first = max(1, math.floor((first_px - SLACK_PX) / row_px))
    per_page = max(1, math.floor((page_px - SLACK_PX) / row_px))
    cuts, at, page = [], 0, 0
    while True:
        room = first if page == 0 else per_page
        at += room
        page += 1
        if at >= rows - MIN_PART_ROWS:
            return cuts
        if page % pages == 0:
            cuts.append(at)


def split_grid(grid: Grid, *, first_px: float, pages: int) -> list[Grid]:
    """The grid, or its runs of `pages` whole pages; the runs after the first have no title
    (`continued`) and number their rows on (`offset`, for the zebra stripes)."""
    if not grid.rows or not grid_rows_single_line(grid):
        return [grid]
    row_px = ONE_LINE_PX + GRID_ROW_EXTRA
    header = _header_px(grid)
    cuts = _cuts(len(grid.rows), row_px, first_px - header, PORTRAIT_PX - header, pages)
    bounds = [0, *cuts, len(grid.rows)]
    return [
        replace(grid, rows=grid.rows[a:b], continued=a > 0, offset=a) for a, b in pairwise(bounds)
    ]


def _row_lines(grid: Grid, row) -> float | None:
    """A row's height in px of text (its tallest cell: lines of 8 pt, or of 7 pt in a list
    of items), or None where a cell's text 5 % wider would wrap into one line more
    (`TEXT_TOLERANCE`)."""
    tallest = 8.0  # pt: one line of the body text
    for (text, kind), column in zip(row.cells, grid.columns, strict=True):
        if column.numeric or not text:
            continue
        pt = 7 if kind == "items" else 8
        room = column.width / 100 * PAGE_MM - PADDING_MM
        # A text the column was made wide enough for (`grids._widths`) keeps its one line.
        widest = _em(text, "DejaVuSans.ttf") * pt * 25.4 / 72
        if widest * (TEXT_TOLERANCE if pt == 7 else 1) <= room:
            continue
        # Items wrap only between them (no-break spaces inside, `grids.ITEM_SEPARATORS`).
        split = " " if kind == "items" else None
        counts = {_lines(text, pt, room * f, split=split) for f in (1 / TEXT_TOLERANCE, 1.0)}
        if len(counts) > 1:
            return None
        tallest = max(tallest, counts.pop() * pt)
    return tallest * LINE


def grid_pages(grid: Grid, *, first_px: float) -> int | None:
    """The pages a grid (or a run of one, `split_grid`) fills with `first_px` of room on
    its first page (rows are never cut, print.css), or None where that is not known
    beforehand: a text near a line break, thicker group or footer borders, or a count
    that SLACK_PX of room either way would change. The print is then numbered after
    joining (`pdf_parts.render_pdf_parts`)."""
    if not grid.rows or grid.footer or any(r.group_start for r in grid.rows):
        return None
    heights = []
    for row in grid.rows:
        text_px = _row_lines(grid, row)
        if text_px is None:
            return None
        heights.append(text_px + GRID_ROW_EXTRA)
    header = _header_px(grid)
    counts = set()
    for slack in (SLACK_PX, -SLACK_PX):
        pages, room = 1, first_px - header - slack
        for height in heights:
            if height > room:
                pages, room = pages + 1, PORTRAIT_PX - header - slack
            room -= height
        counts.add(pages)
    return counts.pop() if len(counts) == 1 else None


def split_list(text_list, *, first_px: float, pages: int) -> list:
    """A text list (one or more lines per row, known) in runs of `pages` whole pages."""
    font = float(text_list.font_size.removesuffix("pt"))
    line = font * LINE
    heights = [
        line * (text.count("\n") + 1) + LIST_ROW_EXTRA + (LIST_GROUP_BORDER if group else 0.0)
        for text, group in text_list.rows
    ]
    header = line * (text_list.header.count("\n") + 1) + LIST_ROW_EXTRA + LIST_HEAD_BORDERS
    bounds, used, room, page = [0], 0.0, first_px - header, 1
    for n, height in enumerate(heights):
        if used + height > room - SLACK_PX:
            page, used, room = page + 1, 0.0, WIDE_PX - header
            if (page - 1) % pages == 0 and len(heights) - n > MIN_PART_ROWS:
                bounds.append(n)
        used += height
    bounds.append(len(heights))
    return [
        replace(text_list, rows=text_list.rows[a:b], continued=a > 0)
        for a, b in pairwise(bounds)
        if b > a
    ]


def _cells(piece) -> int:
    if isinstance(piece, Grid):
        return len(piece.rows) * len(piece.columns) + len(piece.columns)
    return sum(len(text) for text, _ in piece.rows) // 8  # a text line costs far less


def table_parts(context: dict, workers: int) -> list[dict]:
    """The context of templates/exports/tables.html as parts, a table each (with the
    same-page tables after it): every other table begins on a new page (`next-table`), so
    the parts join into the pages of the whole print. The first part keeps the document's
    title. Worth it from half of `MIN_PARALLEL_CELLS` (ranking_parts' smallest part): the
    seating list of 400 players, 2,800 cells, takes 2 s in one process."""
    tables = context["tables"]
    if callable(tables):  # the template's lazy call, made here once for both ways
        tables = context["tables"] = tables()
    cells = sum(len(table.rows) * len(table.columns) for table in tables)
    if len(tables) < 2 or cells < MIN_PARALLEL_CELLS // 2:
        return []
    groups: list[list] = []
    for table in tables:  # a same-page table stays with the one before it
        if table.same_page and groups:
            groups[-1].append(table)
        else:
            groups.append([table])
    return [{**context, "tables": group, "hide_head": n > 0} for n, group in enumerate(groups)]


def ranking_parts(context: dict, workers: int) -> list[dict]:
    """The context of templates/exports/ranking.html as parts: text lists and grids, each
    beginning on a new page; long ones in runs of whole pages sized so that every worker
    gets about two parts. The first part keeps the document's head."""
    lists, grids = context.get("text_lists") or [], context.get("grids") or []
    cells = sum(_cells(p) for p in [*lists, *grids])
    if cells < MIN_PARALLEL_CELLS:
        return []  # a short print: a second process would cost more than it saves
    # A part's fixed cost (stylesheet, fonts, a process) is about 0.1-0.3 s.
    per_part = max(MIN_PARALLEL_CELLS // 2, cells // (2 * workers))
    pieces = []
    page_counts: list[int | None] = []  # known only for grids (`grid_pages`)
    for n, text_list in enumerate(lists):
        title = 0 if text_list.title is None else 1
        if n == 0:
            first = WIDE_PX - head_px(context, text_list.title, WIDE_MM)
        else:
            first = WIDE_PX - title * _title_px(text_list.title, WIDE_MM)
        pages = max(1, round(per_part / max(1, _cells(text_list)) * _pages_of_list(text_list)))
        runs = split_list(text_list, first_px=first, pages=pages)
        pieces += runs
        page_counts += [None] * len(runs)
    for n, grid in enumerate(grids):
        if n == 0 and not lists:
            first = PORTRAIT_PX - head_px(context, grid.title, PAGE_MM)
        else:
            first = PORTRAIT_PX - _title_px(grid.title, PAGE_MM)
        rows_per_page = PORTRAIT_PX / (ONE_LINE_PX + GRID_ROW_EXTRA)
        pages = max(1, round(per_part / max(1, len(grid.columns)) / rows_per_page))
        runs = split_grid(grid, first_px=first, pages=pages)
        pieces += runs
        # The runs after the first begin at the top of a page, without a title.
        page_counts += [
            grid_pages(run, first_px=first if k == 0 else PORTRAIT_PX) for k, run in enumerate(runs)
        ]
    return [
        {
            **context,
            "text_lists": [] if isinstance(piece, Grid) else [piece],
            "grids": [piece] if isinstance(piece, Grid) else [],
            "hide_head": n > 0,
            "part_cost": _cells(piece),
            "part_pages": page_counts[n],
        }
        for n, piece in enumerate(pieces)
    ]


def _title_px(title: str, width_mm: float) -> float:
    """A table's title (h2) at the top of a page, with its margins."""
    return _lines(str(title), 11.5, width_mm, "DejaVuSans-Bold.ttf") * 11.5 * LINE + 7 * PX_PER_MM


def _pages_of_list(text_list) -> float:
    font = float(text_list.font_size.removesuffix("pt"))
    lines = sum(t.count("\n") + 1 for t, _ in text_list.rows)
    return max(1.0, lines * (font * LINE + LIST_ROW_EXTRA) / WIDE_PX)


def sheet_parts(context: dict, workers: int) -> list[dict]:
    """Score sheets (one page each) in `2 * workers` runs of whole sheets. While the grid
    fits its page (`one_page`), a part's page count is known: its number of sheets."""
    sheets = context.get("sheets") or []
    if len(sheets) < MIN_SHEETS:
        return []
    size = math.ceil(len(sheets) / (2 * workers))
    one_page = context.get("one_page", False)
    return [
        {
            **context,
            "sheets": sheets[a : a + size],
            "part_cost": len(sheets[a : a + size]),
            "part_pages": len(sheets[a : a + size]) if one_page else None,
        }
        for a in range(0, len(sheets), size)
    ]


# ----- the A3 wall lists (templates/exports/wall.html) --------------------------------------

MIN_WALL_ROWS = 120  # about three A3 pages: shorter lists are laid out whole
WALL_PT = 15  # body.wall-list's font size (print.css)


@dataclass
class WallShape:
    """One table of a wall list as WeasyPrint lays it out (px): where its body begins on its
    first page and on every later page (after the repeated header row), where a page's
    content ends, a one-line row's height and each column's content width."""

    first_top: float
    later_top: float
    bottom: float
    row: float
    widths: list[float]


def wall_shapes(context: dict, tables: list, template: str) -> list[WallShape]:
    """Lay out the head and two rows of every table (about 0.1 s of the whole list's
    seconds) and read the positions off WeasyPrint's boxes: A3, 15 pt, header
    texts that wrap or not; no constant of the stylesheet is repeated here."""
    from django.template.loader import render_to_string
    from weasyprint import HTML
    from weasyprint.formatting_structure import boxes

    from scoring.exports.formats.pdf import BASE_URL, make_url_fetcher

    sample = [replace(t, rows=t.rows[:2]) for t in tables]
    html = render_to_string(template, {**context, "tables": sample, "many_tables": len(tables) > 1})
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=make_url_fetcher()).render()
    shapes = []
    for page in document.pages:
        box = page._page_box
        table = next((b for b in box.descendants() if isinstance(b, boxes.TableBox)), None)
        if table is None:
            continue
        groups = [g for g in table.children if isinstance(g, boxes.TableRowGroupBox)]
        header = next(g for g in groups if g.is_header)
        body = next(g for g in groups if not g.is_header)
        first, second = body.children[0], body.children[1]
        content_top = box.content_box_y()
        shapes.append(
            WallShape(
                first_top=first.position_y,
                later_top=content_top + (first.position_y - header.position_y),
                bottom=content_top + box.height,
                row=second.position_y - first.position_y,
                widths=[cell.width for cell in header.children[0].children],
            )
        )
    return shapes


# Where a line may break in a cell of the wall (no hyphenation, no overflow-wrap there): a
# space, or after a hyphen between letters. "-1.234" has none and never wraps.
WALL_BREAK = re.compile(r"\s|(?<=[^\W\d])-(?=[^\W\d])")


def _wall_single_line(table, shape: WallShape) -> bool:
    """Whether no cell's text of the table wraps (each row is one line of 15 pt, as the
    sample's rows): a text wider than its column, measured with the font's advances and 3 %
    to spare, that has a place to break."""
    px_per_em = WALL_PT * 4 / 3
    for row in table.rows:
        for (text, _kind), width in zip(row.cells, shape.widths, strict=True):
            too_wide = text and _em(text, "DejaVuSans.ttf") * px_per_em > width * 0.97
            if too_wide and WALL_BREAK.search(text.strip()):
                return False
    return True


def wall_parts(context: dict, workers: int, template: str) -> list[dict]:
    """The context of templates/exports/wall.html as parts of whole A3 pages: every table
    begins on a new page, a long one is cut after whole pages (about two parts a worker).
    A table with a row that wraps stays whole. The tables are computed here once and kept in
    `context`, so a list laid out whole after all does not rank the event again."""
    tables = context["tables"]() if callable(context["tables"]) else context["tables"]
    context["tables"] = tables
    rows = sum(len(t.rows) for t in tables)
    if rows < MIN_WALL_ROWS or any(len(t.rows) < 2 for t in tables):
        return []
    shapes = wall_shapes(context, tables, template)
    if len(shapes) != len(tables):
        return []  # a table's sample did not begin on a page of its own: no safe cut
    pieces = []
    for table, shape in zip(tables, shapes, strict=True):
        if not _wall_single_line(table, shape):
            pieces.append(table)
            continue
        page_px = shape.bottom - shape.later_top
        pages = max(1, round(rows / (2 * workers) / (page_px / shape.row)))
        cuts = _cuts(len(table.rows), shape.row, shape.bottom - shape.first_top, page_px, pages)
        bounds = [0, *cuts, len(table.rows)]
        pieces += [
            replace(table, rows=table.rows[a:b], continued=a > 0, offset=a)
            for a, b in pairwise(bounds)
        ]
    if len(pieces) < 2:
        return []
    return [
        {
            **context,
            "tables": [piece],
            "many_tables": len(tables) > 1,
            "hide_head": n > 0,
            "part_cost": len(piece.rows) * len(piece.columns),
        }
        for n, piece in enumerate(pieces)
    ]
