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
