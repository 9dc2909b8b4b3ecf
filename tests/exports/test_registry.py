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
