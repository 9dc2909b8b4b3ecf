"""Layout details of the prints: lists in one cell wrap between items only, dropped season
results in brackets, dealer names on the score sheets never cut."""

from types import SimpleNamespace

from django.utils import translation

from scoring.exports.exporters.score_sheets import (
    CELL_PADDING_MM,
    DEALER_MM,
    DEALER_PT,
    PrefilledSheet,
    SheetHand,
    dealer_column,
)
from scoring.exports.exporters.season import _dropped_text
from scoring.exports.grids import NBSP, PAGE_MM, _em, grid
from scoring.exports.tables import Column, ExportTable


def test_members_wrap_between_names_only():
    members = "Karl-Heinz Schäfer-Müller, Anna Özdemir"
    table = ExportTable(
        "Paare",
        [Column("rank", "Platz", "int"), Column("name", "Paar"), Column("members", "Mitglieder")],
        [{"rank": 1, "name": "Die Kreuzbuben", "members": members}],
    )
    shown = grid(table)
    text, kind = shown.rows[0].cells[2]
    assert kind == "items"  # printed at 7 pt
    assert text == f"Karl-Heinz{NBSP}Schäfer-Müller, Anna{NBSP}Özdemir"
    # The column holds the longest name whole (7 pt, padding).
    longest = _em(f"Karl-Heinz{NBSP}Schäfer-Müller,", "DejaVuSans.ttf") * 7 * 25.4 / 72
    assert shown.columns[2].width / 100 * PAGE_MM > longest + 2


def test_dropped_results_in_brackets_formatted_like_totals():
    result = SimpleNamespace(total=-1401, event_name="Spielabend 6", number=1)
    with translation.override("de"):
        assert _dropped_text(result) == "[-1.401] Spielabend 6, Serie 1"


def _sheet(name):
    return PrefilledSheet(table=1, players=[], first_dealer=0, hands=[SheetHand(1, 3, name)])


def test_dealer_column_holds_the_name():
    assert dealer_column([_sheet("Hoß, Rita")]) == (DEALER_MM[0], DEALER_PT[0])
    name = "Nachname0173, Vorname173"
    width, font = dealer_column([_sheet(name)])
    needed = _em(f"4. {name}", "DejaVuSans.ttf") * font * 25.4 / 72 + CELL_PADDING_MM
    assert DEALER_MM[0] < width <= DEALER_MM[1] and font == DEALER_PT[0]
    assert needed <= width + 0.01
    width, font = dealer_column([_sheet("Maximiliane-Theodora Hohenzollern-Sigmaringen, Anna")])
    assert width == DEALER_MM[1] and DEALER_PT[1] <= font < DEALER_PT[0]


def test_names_keep_one_line_beside_a_long_club_name():
    """A 400-player standings grid, 12 columns on A4: the room left is shared so that the
    shorter text need is met whole first; the player's name stays on one line and the
    long club name wraps, instead of both wrapping."""
    from scoring.exports.grids import _text_mm

    columns = [
        Column("rank", "Platz", "int"),
        Column("name", "Spieler"),
        Column("club", "Verein"),
        *(Column(f"s{n}", f"S{n}", "int") for n in range(1, 6)),
        Column("total", "Summe", "int"),
        Column("m_won", "Gewonnene Spiele", "int"),
        Column("m_low", "Wenigste Augen", "int"),
        Column("m_last", "Bessere letzte Serie", "int"),
    ]
    club = "Rommé-Freunde Herz Dame Kassel-Wilhelmshöhe e.V."
    rows = [
        {"rank": i, "name": "Karl-Heinz Schröder", "club": club,
         **{f"s{n}": -1234 for n in range(1, 6)}, "total": -12345,
         "m_won": 50, "m_low": 10538, "m_last": -1890}
        for i in range(1, 401)
    ]  # fmt: skip
    shown = grid(ExportTable("Einzel", columns, rows))
    widths = {c.header: c.width / 100 * PAGE_MM for c in shown.columns}
    assert widths["Spieler"] >= _text_mm("Karl-Heinz Schröder", False)
    assert widths["Verein"] < _text_mm(club, False)  # wraps: there is no room for both
    assert abs(sum(widths.values()) - PAGE_MM) < 0.5


def _drawing(uri: str) -> str:
    import base64

    prefix = "data:image/svg+xml;base64,"
    assert uri.startswith(prefix)
    return base64.b64decode(uri[len(prefix) :]).decode()


def test_the_empty_score_cells_are_drawn_with_each_hands_dealer_shaded():
    import re

    from scoring.exports.exporters.score_sheets import (
        DEALER_FILL,
        GRID_LINE,
        MELDED_DEALER_FILL,
        MELDED_FILL,
        grid_drawing,
    )

    svg = _drawing(grid_drawing(4, 3, [2, 3, 0], melded=False, cell_px=120, row_px=25))
    assert 'viewBox="0 0 4 3" preserveAspectRatio="none"' in svg
    paths = re.findall(r'<path d="([^"]*)" fill="(#[0-9a-f]+)"/>', svg)
    fills = {colour: d for d, colour in paths}
    # Hand 1 (row 0): seat 3 deals; hand 2: seat 4; hand 3: seat 1.
    assert fills[DEALER_FILL] == "M2 0h1v1h-1zM3 1h1v1h-1zM0 2h1v1h-1z"
    # Three lines between the four columns, two between the three rows, each 0.8 px thick.
    lines = fills[GRID_LINE].split("z")[:-1]
    assert len(lines) == 3 + 2
    assert lines[0].startswith("M0.99667 0h0.00667v3")  # 0.8 / 120 px of a column
    assert lines[3].startswith("M0 0.98400h4v0.03200")  # 0.8 / 25 px of a row

    melded = _drawing(grid_drawing(4, 1, [1], melded=True, cell_px=60, row_px=25))
    paths = re.findall(r'<path d="([^"]*)" fill="(#[0-9a-f]+)"/>', melded)
    assert [colour for _, colour in paths] == [MELDED_FILL, DEALER_FILL, MELDED_DEALER_FILL,
                                               GRID_LINE]  # fmt: skip
    fills = {colour: d for d, colour in paths}
    assert fills[MELDED_FILL] == "M1 0h1v1h-1zM3 0h1v1h-1z"  # every player's second column
    assert fills[DEALER_FILL] == "M2 0h1v1h-1z" and fills[MELDED_DEALER_FILL] == "M3 0h1v1h-1z"
