import pytest

from scoring.exports.registry import EXPORTERS, Exporter, exporters_for, get_exporter, register
from scoring.exports.tables import Column, ExportTable


def test_built_in_exporters_are_registered():
    assert get_exporter("players").scope == "club"
    assert {e.slug for e in exporters_for("series")} >= {"seating", "score-sheets"}
    assert get_exporter("score-sheets").template == "exports/score_sheets.html"


def test_register_refuses_incomplete_or_clashing_exporters():
    with pytest.raises(TypeError):

        @register
        class NoSlug(Exporter):
            name = "x"
            scope = "club"

    with pytest.raises(ValueError):

        @register
        class BadScope(Exporter):
            slug = "bad-scope"
            name = "x"
            scope = "planet"

    with pytest.raises(ValueError):

        @register
        class Clash(Exporter):
            slug = "players"
            name = "x"
            scope = "club"

    assert "bad-scope" not in EXPORTERS


def test_a_new_exporter_is_one_class(db, club_a):
    from scoring.exports.rendering import render_export

    @register
    class Tiny(Exporter):
        slug = "tiny-test"
        name = "Tiny"
        scope = "club"

        def tables(self, club):
            return [ExportTable("T", [Column("n", "N", "int")], [{"n": 1234}], footer=[1234])]

    try:
        content, filename, _ = render_export("tiny-test", club_a, "html")
        assert "1,234" in content.decode()
        assert filename.endswith("-tiny.html")
        assert Tiny in {type(e) for e in exporters_for("club")}
    finally:
        EXPORTERS.pop("tiny-test")


def test_column_kind_is_checked():
    with pytest.raises(ValueError):
        Column("x", "X", "money")


def test_rows_may_be_mappings_or_sequences():
    table = ExportTable("T", [Column("a", "A"), Column("b", "B")], [{"b": 2}, [1]])
    assert table.value_rows() == [[None, 2], [1, None]]


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_tables_numbers_read_as_djangos_number_format_gives_them(language):
    """DisplayTable reads the language's separators once (rendering.Numbers), not per cell."""
    from decimal import Decimal

    from django.utils import formats, translation

    from scoring.exports.rendering import DisplayTable

    columns = [Column("n", "N", "int"), Column("y", "Y", "int", number_format="0"),
               Column("d", "D", "decimal")]  # fmt: skip
    values = [-1234567, 0, 999, 1000, 12.6, Decimal("-1234.5")]
    rows = [{"n": v, "y": v, "d": v} for v in values]
    with translation.override(language):
        shown = DisplayTable.of(ExportTable("T", columns, rows, footer=[1234, 2026, 3.5]))
        for row, v in zip(shown.rows, values, strict=True):
            assert [text for text, _kind in row.cells] == [
                formats.number_format(int(v), force_grouping=True),
                formats.number_format(int(v), force_grouping=False),
                formats.number_format(v, 2, force_grouping=True),
            ]
        assert [text for text, _kind in shown.footer] == (
            ["1.234", "2026", "3,50"] if language == "de" else ["1,234", "2026", "3.50"]
        )
