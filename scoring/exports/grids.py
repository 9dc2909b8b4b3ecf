"""Tables as bordered grids for the PDF and the print page (templates/exports/ranking.html).

WeasyPrint's cost is per cell box (style, layout, text, borders: about 1 ms each on this
machine), so the grids are laid out with `table-layout: fixed`: the column widths are
computed here from the texts (what the automatic layout would measure with a second and
third pass over every cell), as percentages of the page width. Columns that are empty in
every row (a tie-break by lot nobody needed, an unused note) are left out of the print.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring.exports.rendering import DisplayRow, DisplayTable
from scoring.exports.tables import ExportTable

MAX_TEXT = 30  # a longer text wraps inside its cell; it does not widen the column further
PROVISIONAL_KEY = "provisional"
# Lists in one cell (a pair's or team's members, a season's dropped results) wrap between
# their items only: the spaces inside an item become no-break spaces in the print.
# Such a column is printed at 7 pt (class "items"): a pair's two names fit beside the
# series columns.
ITEM_SEPARATORS = {"members": ", ", "dropped": "; "}
ITEMS_SCALE = 7 / 8
NBSP = "\u00a0"
MAX_WORD_MM = 60.0  # an item longer than this may still break (overflow-wrap)


@dataclass
class GridColumn:
    header: str
    kind: str
    width: float  # percent of the table's width

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "decimal")

    @property
    def css_width(self) -> str:
        # Never localised: a German "12,5%" would be an invalid width.
        return f"{self.width:.2f}%"


@dataclass
class Grid:
    """One table as templates/exports/ranking.html reads it."""

    title: str
    columns: list[GridColumn]
    rows: list[DisplayRow]
    footer: list[tuple[str, str]] | None
    provisional: bool  # some rows wait for unconfirmed sheets
    # A run of pages after the first of a table cut into PDF parts (scoring.exports.parts):
    # no title; `offset` rows come before it (the zebra stripes go on).
    continued: bool = False
    offset: int = 0


# Widths at the grids' 8 pt body and 7 pt bold headers, measured with the advance widths of
# the app's own font (static/fonts, the one the PDF embeds); plus padding and border.
BODY_MM, HEADER_PT_MM, PADDING_MM = 8 * 25.4 / 72, 7 * 25.4 / 72, 2.4
PAGE_MM = 184.0  # A4 portrait less the margins: the width every grid is laid out for
MIN_TEXT_MM = 14.0
HEADER_WORD = 5  # longer header words are hyphenated (German rules, `hyphens: auto`)
NARROW_HEADER_WORD = 3  # ... over numbers even shorter ones, when the page is too narrow


@lru_cache(maxsize=2)
def _advances(name: str) -> tuple[dict[int, float], float]:
    """Code point -> advance in em of a font in static/fonts, and the widest advance (for
    characters the font lacks)."""
    from django.contrib.staticfiles import finders
    from fontTools.ttLib import TTFont

    # Through the static finders: the source tree's static/ or the installed package's.
    font = TTFont(finders.find(f"fonts/{name}"), lazy=True)
    units = font["head"].unitsPerEm
    metrics = font["hmtx"].metrics
    advances = {cp: metrics[glyph][0] / units for cp, glyph in font.getBestCmap().items()}
    return advances, max(advances.values())


def _em(text: str, font: str) -> float:
    advances, widest = _advances(font)
    return sum(advances.get(ord(c), widest) for c in text)


def _text_mm(text: str, numeric: bool) -> float:
    if not numeric:
        text = text[:MAX_TEXT]
    return _em(text, "DejaVuSans.ttf") * BODY_MM


def _header_mm(column, letters: int) -> float:
    """The width of the header's longest word, cut to `letters` (plus a hyphen if cut)."""
    # Short words ("Platz", "Summe") have no good place for a hyphen: never cut.
    keep = max(letters, HEADER_WORD)
    words = [w if len(w) <= keep else w[:letters] + "-" for w in str(column.header).split()]
    widest = max((_em(w, "DejaVuSans-Bold.ttf") for w in words), default=0.0)
    return widest * HEADER_PT_MM + PADDING_MM


def _keep_items_whole(text: str, separator: str) -> str:
    return separator.join(item.replace(" ", NBSP) for item in text.split(separator))


def _longest_word_mm(values: list[str]) -> float:
    """The widest run without a breakable space (an item kept whole, at 7 pt), at most
    MAX_WORD_MM."""
    words = (w for t in values for w in t.split(" "))
    widest = max((_em(w, "DejaVuSans.ttf") for w in words), default=0.0)
    # 5 % more: Pango's rounding of 7 pt advances, which would move a trailing comma down.
    return min(widest * BODY_MM * ITEMS_SCALE * 1.05, MAX_WORD_MM) + PADDING_MM


def _fair_shares(room: float, need: list[float]) -> list[float]:
    """Split ``room`` so that the smaller needs are met whole first (max-min fairness): a
    short name keeps its one line while a long club name wraps."""
    given = [0.0] * len(need)
    open_ = sorted((n, i) for i, n in enumerate(need) if n > 0)
    while open_ and room > 1e-9:
        share = room / len(open_)
        n, i = open_[0]
        if n <= share:
            given[i] = n
            room -= n
            open_.pop(0)
            continue
        for _n, i in open_:
            given[i] = share
        break
    return given


def _widths(columns, texts: list[list[str]]) -> list[float]:
    """Each column's width in mm. Every column first gets its minimum: numbers as wide as
    their longest value (they never wrap), headers hyphenated after 3 letters. The rest of
    the page goes, in this order, to the texts (the shortest need first: a name keeps its
    one line while a long club name wraps), to the headers of numbers up to 5 letters, then
    to whole words, and what is left to the texts again."""
    numeric = [c.numeric for c in columns]
    values_of = {c.key: values for c, values in zip(columns, texts, strict=True)}
    content = [
        max((_text_mm(t, c.numeric) for t in values), default=0.0)
        * (ITEMS_SCALE if c.key in ITEM_SEPARATORS else 1.0)
        + PADDING_MM
        for c, values in zip(columns, texts, strict=True)
    ]
    # Per column: (minimum, wish of each stage); None: the stage does not widen it.
    plans = []
    for column, width in zip(columns, content, strict=True):
        if column.numeric:
            minimum = max(width, _header_mm(column, NARROW_HEADER_WORD))
            short, whole = (max(width, _header_mm(column, n)) for n in (HEADER_WORD, 99))
            plans.append((minimum, [None, short, whole]))
        else:
            wish = max(width, _header_mm(column, 99))
            minimum = min(wish, MIN_TEXT_MM)
            if column.key in ITEM_SEPARATORS:
                whole = _longest_word_mm(values_of[column.key])
                minimum, wish = max(minimum, whole), max(wish, whole)
            plans.append((minimum, [wish, None, None]))
    widths = [minimum for minimum, _ in plans]
    for stage in range(3):
        room = PAGE_MM - sum(widths)
        need = [
            max(0.0, wishes[stage] - w) if wishes[stage] is not None else 0.0
            for (_, wishes), w in zip(plans, widths, strict=True)
        ]
        if room > 0 and sum(need):
            widths = [w + d for w, d in zip(widths, _fair_shares(room, need), strict=True)]
    room = PAGE_MM - sum(widths)
    texts_total = sum(w for w, n in zip(widths, numeric, strict=True) if not n)
    if room > 0 and texts_total:
        return [
            w if n else w + room * w / texts_total for w, n in zip(widths, numeric, strict=True)
        ]
    if room > 0:
        return [w * PAGE_MM / sum(widths) for w in widths]
    return widths


def _blank_unless_tied(shown: DisplayTable, table: ExportTable, keys, tie_key: str) -> None:
    """Empty the cells of `keys` (tie-break values) in rows whose `tie_key` value (the total)
    equals neither neighbour's: there they decide nothing, and an empty cell costs WeasyPrint
    no text layout."""
    index = {c.key: i for i, c in enumerate(table.columns)}
    if tie_key not in index:
        return
    blank = [index[k] for k in keys if k in index]
    totals = [row.cells[index[tie_key]][0] for row in shown.rows]
    for n, row in enumerate(shown.rows):
        tied = (n > 0 and totals[n - 1] == totals[n]) or (
            n + 1 < len(totals) and totals[n + 1] == totals[n]
        )
        if not tied:
            for i in blank:
                row.cells[i] = ("", row.cells[i][1])


def grid(table: ExportTable, *, only_on_ties=(), tie_key: str = "total") -> Grid:
    """`only_on_ties`: column keys shown only in rows that tie on `tie_key`."""
    shown = DisplayTable.of(table)
    if only_on_ties:
        _blank_unless_tied(shown, table, only_on_ties, tie_key)
    for i, column in enumerate(table.columns):
        separator = ITEM_SEPARATORS.get(column.key)
        if separator:
            for row in shown.rows:  # kind "items": the template's class for 7 pt
                row.cells[i] = (_keep_items_whole(row.cells[i][0], separator), "items")
    keep = [
        i
        for i, column in enumerate(table.columns)
        if not shown.rows or any(row.cells[i][0] for row in shown.rows)
    ]
    texts = [
        [row.cells[i][0] for row in shown.rows] + ([shown.footer[i][0]] if shown.footer else [])
        for i in keep
    ]
    widths = _widths([table.columns[i] for i in keep], texts)
    total = sum(widths)
    scale = 100.0 / max(total, PAGE_MM)  # percent of the page; never wider than the page
    columns = [
        GridColumn(str(table.columns[i].header), table.columns[i].kind, w * scale)
        for i, w in zip(keep, widths, strict=True)
    ]
    rows = [DisplayRow([row.cells[i] for i in keep], row.group_start) for row in shown.rows]
    footer = [shown.footer[i] for i in keep] if shown.footer else None
    provisional = any(
        c.key == PROVISIONAL_KEY and any(r.cells[n][0] for r in shown.rows)
        for n, c in enumerate(table.columns)
    )
    return Grid(shown.title, columns, rows, footer, provisional)


def grids(tables: list[ExportTable], *, only_on_ties=None) -> list[Grid]:
    """`only_on_ties(table)`: the keys `grid` shows only where the totals tie."""
    return [grid(t, only_on_ties=only_on_ties(t) if only_on_ties else ()) for t in tables]


def _date(value) -> str:
    return formats.date_format(value, "DATE_FORMAT")


def printed_at() -> str:
    """ "Stand 23.11.2026 12:40": when the print was made (standings change after it)."""
    when = formats.date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT")
    return _("as of %(when)s") % {"when": when}


def event_facts(event) -> list[str]:
    """The event's days and venue and the time of printing, for the head of a print."""
    days = _date(event.start_date)
    if event.end_date and event.end_date != event.start_date:
        days = f"{days} – {_date(event.end_date)}"
    facts = [days]
    if event.venue:
        facts.append(event.venue)
    facts.append(printed_at())
    return facts


def season_facts(season) -> list[str]:
    if season is None:
        return [printed_at()]
    return [f"{_date(season.start_date)} – {_date(season.end_date)}", printed_at()]
