"""The seating list laid out in two processes (by table, by name; `parts.table_parts`): the
pages of the one-process print, "Seite x von y" across both, the title once, the tables' phone
codes after the last table."""

import re

from clubs.models import ClubRole
from scoring.exports import parts
from scoring.sheets.table.links import create_table_links
from tests.exports.test_pdf_parts import _pdf, _without_footer, small_parts, spy  # noqa: F401
from tests.exports.test_pdf_prints import _event
from tests.factories import user_with_role
from tests.pdf_checks import page_texts, print_style_problems
from tournaments.models import Series


def test_the_seating_list_in_two_parts_has_the_pages_of_the_one_process_print(
    club_a,
    small_parts,  # noqa: F811
    spy,  # noqa: F811
):
    event = _event(club_a, 150, series=2, rounds=1, seed=3)
    series = event.series.get(number=2)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.IN_PLAY)
    series.refresh_from_db()
    create_table_links(user_with_role(club_a, ClubRole.Role.ORGANISER), series)
    one = _pdf("seating", series, small_parts, 1)
    assert spy == []
    joined = _pdf("seating", series, small_parts, 2)
    assert spy == [2]  # by table | by name and the codes
    one_pages, joined_pages = page_texts(one), page_texts(joined)
    assert len(joined_pages) == len(one_pages) >= 4
    assert _without_footer(joined_pages) == _without_footer(one_pages)
    text = "\n".join(joined_pages)
    # the title once (the page header's "… Setzliste – Serie 2" on every page)
    assert len(re.findall(r"(?m)^Setzliste – Serie 2$", text)) == 1
    assert text.count("Nach Namen") == 1
    assert text.count("Am Handy schreiben") == 1
    assert text.index("Nach Tischen") < text.index("Nach Namen") < text.index("Am Handy")
    assert not print_style_problems(joined, "de")
    total = len(joined_pages)
    for number, page in enumerate(joined_pages, start=1):
        assert re.findall(r"Seite \d+ von \d+", page) == [f"Seite {number} von {total}"]


def test_a_short_seating_list_stays_in_one_process(
    club_a,
    small_parts,  # noqa: F811
    spy,  # noqa: F811
    monkeypatch,
):
    from scoring.exports.exporters.seating import SeatingListExporter

    reads = []
    real = SeatingListExporter.tables
    monkeypatch.setattr(
        SeatingListExporter, "tables", lambda self, s: reads.append(s) or real(self, s)
    )
    event = _event(club_a, 12, series=1, rounds=1, seed=3)
    assert "Nach Namen" in "".join(page_texts(_pdf("seating", event.series.get(), small_parts, 2)))
    assert spy == []  # 12 players: 84 cells, under half of MIN_PARALLEL_CELLS (200 here)
    assert len(reads) == 1  # the seats read once for the choice and the print
    assert parts.MIN_PARALLEL_CELLS == 200


def test_a_same_page_table_stays_in_the_part_of_the_table_before_it():
    from scoring.exports.rendering import DisplayTable
    from scoring.exports.tables import Column, ExportTable

    columns = [Column("n", "N", "int")]
    big = [{"n": n} for n in range(parts.MIN_PARALLEL_CELLS)]
    tables = [
        DisplayTable.of(ExportTable("A", columns, big)),
        DisplayTable.of(ExportTable("sum A", columns, [{"n": 1}], same_page=True)),
        DisplayTable.of(ExportTable("B", columns, big)),
    ]
    split = parts.table_parts({"tables": tables}, 2)
    assert [[t.title for t in part["tables"]] for part in split] == [["A", "sum A"], ["B"]]
    assert [part["hide_head"] for part in split] == [False, True]
