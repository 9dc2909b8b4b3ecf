import datetime as dt
from decimal import Decimal

import pytest

from scoring.exports.formats.xlsx import write_workbook
from scoring.exports.rendering import render_export
from scoring.exports.tables import Column, ExportTable
from tests.exports.conftest import INJECTIONS, read_xlsx

pytestmark = pytest.mark.django_db


def test_player_registry_workbook(club_a, players_a, member_b):
    content, filename, content_type = render_export("players", club_a, "xlsx")
    assert filename.endswith(".xlsx") and "spreadsheetml" in content_type
    ws = read_xlsx(content).active
    header = [c.value for c in ws[1]]
    assert header == [
        "Number", "Family name", "Given name", "Birth year", "Gender", "Club", "Active",
    ]  # fmt: skip
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=2)]
    numbers = {r[0] for r in rows[:-1]}
    assert numbers == {p.player.player_number for p in players_a}
    assert member_b.player_number not in numbers
    muller = next(r for r in rows if r[1] == "Müller")
    assert muller == ["K0001", "Müller", "Jürgen", 1951, None, "HDK", "yes"]
    birth_year = ws.cell(row=rows.index(muller) + 2, column=4)
    assert birth_year.data_type == "n" and birth_year.number_format == "0"
    assert rows[-1][:2] == ["Total", "8 players"]
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == "A1:G9"
    assert ws.column_dimensions["B"].width >= len("Family name")


def test_numbers_are_numbers_with_german_formats():
    table = ExportTable(
        "Zahlen",
        [
            Column("n", "N", "int"),
            Column("d", "D", "decimal"),
            Column("day", "Day", "date"),
            Column("t", "T"),
        ],
        [{"n": 12345, "d": Decimal("3.5"), "day": dt.date(2026, 3, 14), "t": 7}],
    )
    ws = read_xlsx(write_workbook([table])).active
    n, d, day, t = ws[2]
    assert n.value == 12345 and n.data_type == "n" and n.number_format == "#,##0"
    assert d.value == 3.5 and d.number_format == "#,##0.00"
    assert day.value == dt.datetime(2026, 3, 14) and day.number_format == "DD.MM.YYYY"
    assert t.value == "7" and t.data_type == "s"


@pytest.mark.parametrize("name", [*INJECTIONS, "=1+1", "\t=cmd"])
def test_formula_like_strings_stay_text(name):
    table = ExportTable("T", [Column("name", "Name"), Column("n", "N", "int")], [[name, name]])
    ws = read_xlsx(write_workbook([table])).active
    for cell in ws[2]:
        assert cell.data_type == "s"
        assert cell.value == name
    raw = write_workbook([table])
    assert b"<f>" not in raw


def test_injection_names_in_exports_stay_text(hostile_series, club_a):
    for slug, obj in (
        ("seating", hostile_series),
        ("score-sheets", hostile_series),
        ("players", club_a),
    ):
        content, _, _ = render_export(slug, obj, "xlsx")
        workbook = read_xlsx(content)
        seen = {}
        for ws in workbook.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    for name in INJECTIONS:
                        if isinstance(cell.value, str) and name in cell.value:
                            seen[name] = cell
        assert set(seen) == set(INJECTIONS), slug
        for name, cell in seen.items():
            assert cell.data_type == "s"
            assert cell.value.endswith(name) or cell.value.startswith(name)


def test_seating_list_workbook(series_a):
    content, filename, _ = render_export("seating", series_a, "xlsx")
    assert "series-1-seating-list" in filename
    workbook = read_xlsx(content)
    assert workbook.sheetnames == ["By table", "By name"]
    by_table = [[c.value for c in row] for row in workbook["By table"].iter_rows()]
    assert by_table[0] == ["Table", "Seat", "Player", "Club"]
    assert by_table[1] == [1, 1, "Müller, Jürgen", "HDK"]
    assert by_table[5] == [2, 1, "Bäcker, Karl", "HDK"]
    assert by_table[-1][0] == "Total" and by_table[-1][2] == "8 players at 2 tables"
    by_name = [[c.value for c in row] for row in workbook["By name"].iter_rows(min_row=2)]
    assert by_name[0] == ["Äbersold, Heinz", 1, 4]  # by name, not by code point
    assert ["Weiß, Grete", 1, 3] in by_name
    assert ["Schröder, Lotte", 2, 2] in by_name


def test_score_sheets_workbook_has_one_sheet_per_table_with_dealers(series_a):
    from scoring.models import Sheet

    table2 = series_a.tables.get(number=2)
    Sheet.objects.create(table=table2, status="draft", first_dealer=2)
    content, _, _ = render_export("score-sheets", series_a, "xlsx")
    workbook = read_xlsx(content)
    assert workbook.sheetnames == ["Table 1", "Table 2"]
    rows = [[c.value for c in row] for row in workbook["Table 1"].iter_rows()]
    assert rows[0][:3] == ["Hand", "Dealer", "1. Müller, Jürgen"]
    assert len(rows) == 1 + 20 + 1  # header, 5 rounds at a 4-table, totals
    assert [r[1] for r in rows[1:6]] == [
        "Müller, Jürgen",
        "Özdemir, Anna",
        "Weiß, Grete",
        "Äbersold, Heinz",
        "Müller, Jürgen",
    ]
    assert rows[-1][0] == "Total"
    second = [[c.value for c in row] for row in workbook["Table 2"].iter_rows()]
    # The sheet's first dealer is seat 3.
    assert second[1][:2] == [1, "Krüger, Otto"]
    assert second[2][:2] == [2, "Hoß, Rita"]
    assert second[3][:2] == [3, "Bäcker, Karl"]


def test_long_sheet_names_are_cut_and_unique():
    tables = [ExportTable("A" * 40, [Column("a", "A")]), ExportTable("A" * 40, [Column("a", "A")])]
    names = read_xlsx(write_workbook(tables)).sheetnames
    assert len(set(names)) == 2 and all(len(n) <= 31 for n in names)


def test_seating_page_and_workbook_list_names_in_the_same_german_order(series_a):
    from tournaments import selectors

    page = [str(row.participant.player) for row in selectors.seating(series_a).alphabetical]
    content, _, _ = render_export("seating", series_a, "xlsx")
    by_name = read_xlsx(content)["By name"]
    workbook = [row[0].value for row in by_name.iter_rows(min_row=2)]
    assert page == workbook
    # Ä with A (Äbersold first), ß as ss, Ö with O.
    assert page[0] == "Äbersold, Heinz"
    assert page.index("Özdemir, Anna") < page.index("Schröder, Lotte") < page.index("Weiß, Grete")
