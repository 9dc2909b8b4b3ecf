"""The printed lists in German, read back from the PDF text: the standings (A4 portrait,
bordered grid, header row on every page, "Seite x von y", "vorläufig"), the whole-event
workbook and the season ranking; and the grid's column widths."""

import datetime as dt
import re

import pytest
from django.utils import translation

from scoring.exports.grids import grid
from scoring.exports.rendering import render_export
from scoring.exports.tables import Column, ExportTable
from tests.exports.conftest import read_pdf
from tests.pdf_checks import print_style_problems

pytestmark = pytest.mark.django_db

# The app's own English msgids that must not be left in a German print.
ENGLISH = (
    "Standings",
    "Individual",
    "overall standing",
    "Rank",
    "Player",
    "Club",
    "Total",
    "Page ",
    "provisional",
    "PROVISIONAL",
    "Tie-break",
    "Season",
    "workbook",
    "every hand",
    "as of",
)
HEADER = ("Platz", "Spieler", "Verein", "S1", "Summe")


def _people(club, count, prefix):
    from bench.rigs.datasets import _players

    return _players(count, [club], prefix)


def _event(club, players, **plan):
    from scoring.demo.generate import Plan, generate_event

    return generate_event(
        Plan(name="Kasseler Stadtmeisterschaft", club=club, players=_people(club, players, "G"),
             start_date=dt.date(2026, 3, 14), **plan)
    )  # fmt: skip


def _german_pdf(slug, obj):
    with translation.override("de"):
        content = render_export(slug, obj, "pdf")[0]
    return content, [page.extract_text() for page in read_pdf(content).pages]


def _no_english(text):
    found = [word for word in ENGLISH if word in text]
    assert not found, found


def test_standings_pdf_in_german_repeats_the_header_row(club_a):
    event = _event(club_a, 72, series=2, rounds=1, seed=3)
    content, pages = _german_pdf("standings", event)
    assert not print_style_problems(content, "de")
    assert len(pages) >= 2
    for page in read_pdf(content).pages:  # A4 portrait
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (
            595,
            842,
        )
    first, second = pages[0], pages[1]
    assert "Wertung (alle bestätigten Spiellisten)" in first and "Einzel – Gesamtwertung" in first
    assert "Kasseler Stadtmeisterschaft" in first and "14. März 2026" in first
    assert "Stand " in first and "Seite 1 von" in first
    # The header row again on page 2, above the rows that continue there.
    for word in HEADER:
        assert word in first and word in second, word
    assert re.search(r"Platz\s+Spieler\s+Verein", second.replace("\n", " "))
    assert f"Seite 2 von {len(pages)}" in second
    assert "VORLÄUFIG" not in first and "vorläufig" not in first
    _no_english("\n".join(pages))


def test_standings_pdf_marks_provisional_on_every_page(club_a):
    event = _event(club_a, 60, series=2, rounds=1, confirmed_series=1, entered_tables=2, seed=5)
    _content, pages = _german_pdf("standings", event)
    assert len(pages) >= 2
    text = "\n".join(pages)
    assert "VORLÄUFIG: Noch nicht alle Spiellisten sind bestätigt" in pages[0]
    assert all("VORLÄUFIG" in page for page in pages)  # the page head of every page
    assert "Einzel – Gesamtwertung (vorläufig)" in pages[0]
    # The last column names the series still waiting for a confirmed sheet.
    assert "Vorläu" in pages[0] and re.search(r"-[\d.]+ S2\n", pages[0])
    _no_english(text)


def test_workbook_pdf_in_german(club_a):
    event = _event(club_a, 12, series=2, rounds=1, pairs=2, seed=7)
    content, pages = _german_pdf("event-workbook", event)
    assert not print_style_problems(content, "de")
    text = "\n".join(pages)
    assert "Arbeitsmappe der ganzen Veranstaltung" in pages[0] and "Seite 1 von" in pages[0]
    assert "Serie 1" in text and "Einzel – Gesamtwertung" in text
    assert "Wertung der Serie 2" in text or "Serie 2" in text
    for word in HEADER:
        assert word in text, word
    reader = read_pdf(content)
    first, last = reader.pages[0].mediabox, reader.pages[-1].mediabox
    assert first.width > first.height and last.width < last.height  # hands wide, standings A4
    _no_english(text)


def test_season_pdf_in_german(club_a):
    from tournaments.models import Season

    season = Season.objects.create(
        club=club_a, name="2026", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 12, 31)
    )
    _event(club_a, 8, series=2, rounds=1, season=season, seed=9)
    content, pages = _german_pdf("season-ranking", club_a)
    assert not print_style_problems(content, "de")
    text = "\n".join(pages)
    assert "Jahreswertung 2026" in pages[0] and "Seite 1 von" in pages[0]
    assert "1. Januar 2026 – 31. Dezember 2026" in pages[0]
    for word in ("Platz", "Spieler", "Durch", "Saison 2026, gewertet nach"):
        assert word in text, word
    _no_english(text)


def test_grid_widths_fit_the_page_and_stay_unlocalised():
    table = ExportTable(
        "T",
        [
            Column("rank", "Rank", "int"),
            Column("name", "Player"),
            Column("total", "Total", "int"),
            Column("m_lot", "Lot", "int"),
        ],
        [
            {"rank": 1, "name": "Hans-Jürgen Müller-Lüdenscheidt", "total": -1234},
            {"rank": 2, "name": "Anna Weiß", "total": 5},
        ],
    )
    shown = grid(table)
    # The never-used lot column is left out; the rest fills the page exactly.
    assert [c.header for c in shown.columns] == ["Rank", "Player", "Total"]
    assert sum(c.width for c in shown.columns) == pytest.approx(100.0)
    with translation.override("de"):
        assert all(re.fullmatch(r"\d+\.\d\d%", c.css_width) for c in shown.columns)
    # The name gets the room, numbers what they need.
    assert shown.columns[1].width > 3 * shown.columns[2].width


def test_tie_break_values_only_where_totals_tie():
    table = ExportTable(
        "T",
        [Column("rank", "Rank", "int"), Column("total", "Total", "int"), Column("m_w", "W", "int")],
        [{"rank": 1, "total": 10, "m_w": 3}, {"rank": 2, "total": 10, "m_w": 2},
         {"rank": 3, "total": 8, "m_w": 5}],
    )  # fmt: skip
    shown = grid(table, only_on_ties=("m_w",))
    assert [row.cells[2][0] for row in shown.rows] == ["3", "2", ""]
