"""Long PDFs laid out in worker processes (scoring.exports.formats.pdf_parts): the same pages
with the same text as the one-process print, "Seite x von y" right across the parts, and the
in-process path for one worker or one core."""

import re

import pytest
from django.utils import translation

from scoring.exports import parts, rendering
from scoring.exports.formats import pdf_parts
from scoring.exports.rendering import render_export
from tests.exports.test_pdf_prints import _event
from tests.pdf_checks import FOOTER, page_texts, print_style_problems

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_parts(monkeypatch, settings):
    """Parts of one page each for a test-sized event, on any number of cores."""
    monkeypatch.setattr(parts, "MIN_PARALLEL_CELLS", 200)
    monkeypatch.setattr(parts, "MIN_PART_ROWS", 3)
    monkeypatch.setattr(parts, "MIN_SHEETS", 2)
    monkeypatch.setattr(pdf_parts.os, "cpu_count", lambda: 2)
    monkeypatch.setattr("scoring.exports.grids.printed_at", lambda: "Stand 1.1.2026 12:00")
    return settings


@pytest.fixture
def one_context(monkeypatch):
    """One template context per export for both prints: ties decided by lot may come out
    differently in two renders."""
    contexts = {}
    real = rendering.document_context

    def document_context(exporter, obj, fmt, **kwargs):
        key = (exporter.slug, obj.pk, fmt)
        if key not in contexts:
            contexts[key] = real(exporter, obj, fmt, **kwargs)
        return contexts[key]

    monkeypatch.setattr(rendering, "document_context", document_context)


@pytest.fixture
def spy(monkeypatch):
    calls = []
    real = pdf_parts.render_parts

    def render_parts(htmls, costs, workers, progress=None, css=None):
        calls.append(len(htmls))
        return real(htmls, costs, workers, progress, css)

    monkeypatch.setattr(pdf_parts, "render_parts", render_parts)
    return calls


def _pdf(slug, obj, settings, workers):
    settings.PDF_WORKERS = workers
    with translation.override("de"):
        return render_export(slug, obj, "pdf")[0]


def _without_footer(texts):
    """Each page's words, sorted (pypdf reads the footer, drawn after joining, last and
    may join or split lines differently around it)."""
    return [sorted(FOOTER["de"].sub("", t).split()) for t in texts]


def test_parallel_standings_have_the_pages_of_the_one_process_print(
    club_a, small_parts, spy, one_context
):
    event = _event(club_a, 150, series=2, rounds=1, seed=3)
    one = _pdf("standings", event, small_parts, 1)
    assert spy == []  # one worker: laid out in this process
    joined = _pdf("standings", event, small_parts, 2)
    assert spy and spy[0] >= 3  # cut inside the individual table, not only between tables
    one_pages, joined_pages = page_texts(one), page_texts(joined)
    assert len(joined_pages) == len(one_pages) >= 3
    # Every row on the same page as in the one-process print, and nothing else changed.
    assert _without_footer(joined_pages) == _without_footer(one_pages)
    assert not print_style_problems(joined, "de")  # fonts, "Seite n von N" on every page
    total = len(joined_pages)
    for number, text in enumerate(joined_pages, start=1):
        assert re.findall(r"Seite \d+ von \d+", text) == [f"Seite {number} von {total}"]
    # The zebra stripes and the title: the second part goes on without a new title.
    assert joined_pages[1].count("Einzel – Gesamtwertung") == 0


def test_ranking_parts_of_known_length_draw_their_own_page_numbers(
    club_a, small_parts, one_context, monkeypatch
):
    """Grids whose rows' lines are known (`parts.grid_pages`) foresee each part's pages:
    the parts number them, no footer document is laid out, and the count came out right."""
    event = _event(club_a, 150, series=2, rounds=1, pairs=30, teams=8, seed=3)
    joins, foreseen = [], []
    real_join, real_parts = pdf_parts.join, pdf_parts.render_pdf_parts
    monkeypatch.setattr(
        pdf_parts, "join", lambda pdfs, **kw: joins.append(kw) or real_join(pdfs, **kw)
    )

    def render_pdf_parts(htmls, costs, workers, progress=None, pages=None):
        foreseen.extend(pages or [None])
        return real_parts(htmls, costs, workers, progress, pages)

    monkeypatch.setattr(pdf_parts, "render_pdf_parts", render_pdf_parts)
    one = _pdf("standings", event, small_parts, 1)
    joined = _pdf("standings", event, small_parts, 2)
    assert len(foreseen) >= 3 and all(foreseen)  # individual cut, pairs and teams
    assert joins == [{"numbered": True}]
    texts = page_texts(joined)
    assert len(texts) == sum(foreseen) == len(page_texts(one))
    assert _without_footer(texts) == _without_footer(page_texts(one))
    assert [FOOTER["de"].findall(t) for t in texts] == [
        [(str(n), str(len(texts)))] for n in range(1, len(texts) + 1)
    ]
    assert not print_style_problems(joined, "de")


def test_grid_pages_are_unknown_near_a_line_break_or_with_thicker_borders():
    from scoring.exports.grids import PAGE_MM, Grid, GridColumn, _em
    from scoring.exports.rendering import DisplayRow

    def grid(text, **kw):
        # The text column is as wide as `text` at 8 pt, plus its padding.
        width = (_em("Vorname Nachname", "DejaVuSans.ttf") * 8 * 25.4 / 72 + 2.4) / PAGE_MM
        columns = [GridColumn("Platz", "int", 10.0), GridColumn("Name", "text", width * 100)]
        rows = [DisplayRow([(str(n), "int"), (text, "text")]) for n in range(1, 120)]
        return Grid("Einzel", columns, rows, kw.pop("footer", None), False, **kw)

    first = parts.PORTRAIT_PX
    assert parts.grid_pages(grid("Vorname Nachname"), first_px=first) == 3  # 58 rows a page
    # Two lines whatever Pango's rounding (broken after "Nachname" or before it): 33 a page.
    assert parts.grid_pages(grid("Vorname Nachname Zusatz"), first_px=first) == 4
    # Two lines as added up, three if Pango's text comes out 5 % wider: not known.
    assert parts.grid_pages(grid("Vorname Nachname Vorname Nachname"), first_px=first) is None
    totals = grid("Vorname Nachname", footer=[("", "int")] * 2)
    assert parts.grid_pages(totals, first_px=first) is None
    wrapped = grid("Vorname Nachname")
    wrapped.rows[5].group_start = True
    assert parts.grid_pages(wrapped, first_px=first) is None


def test_parallel_score_sheets_number_pages_across_parts(series_a, small_parts, spy):
    one = _pdf("score-sheets", series_a, small_parts, 1)
    joined = _pdf("score-sheets", series_a, small_parts, 2)
    assert spy == [2]
    assert _without_footer(page_texts(joined)) == _without_footer(page_texts(one))
    assert [FOOTER["de"].findall(t) for t in page_texts(joined)] == [[("1", "2")], [("2", "2")]]


def test_score_sheet_parts_draw_their_own_page_numbers(series_a, small_parts, monkeypatch):
    joins = []
    real = pdf_parts.join
    monkeypatch.setattr(pdf_parts, "join", lambda pdfs, **kw: joins.append(kw) or real(pdfs, **kw))
    joined = _pdf("score-sheets", series_a, small_parts, 2)
    assert joins == [{"numbered": True}]  # one page per sheet: no footer document
    assert [FOOTER["de"].findall(t) for t in page_texts(joined)] == [[("1", "2")], [("2", "2")]]
    assert not print_style_problems(joined, "de")


def test_the_parts_draw_the_qr_codes(series_a, small_parts):
    from tests.exports.conftest import read_pdf

    small_parts.PDF_WORKERS = 2
    with translation.override("de"):
        joined = render_export("score-sheets", series_a, "pdf", base_url="http://hall.local")[0]
    assert [len(page.images) for page in read_pdf(joined).pages] == [1, 1]


def test_a_part_longer_than_foreseen_is_numbered_after_joining(small_parts, caplog):
    def part(pages):
        breaks = "".join(f"<p style='break-before: page'>Blatt {n}</p>" for n in range(1, pages))
        return (
            '<html><head><link rel="stylesheet" href="/static/css/print.css"></head><body>'
            '<div class="running"><span class="running-page">Seite</span>'
            f'<span class="running-of">von</span></div><p>Blatt 0</p>{breaks}</body></html>'
        )

    with translation.override("de"):
        pdf = pdf_parts.render_pdf_parts([part(1), part(2)], [1, 1], 2, pages=[1, 1])
    texts = page_texts(pdf)
    assert [FOOTER["de"].findall(t) for t in texts] == [[(str(n), "3")] for n in (1, 2, 3)]
    assert "not the [1, 1] foreseen" in caplog.text


def test_one_core_or_a_short_print_stays_in_process(series_a, small_parts, spy, monkeypatch):
    small_parts.PDF_WORKERS = 4
    monkeypatch.setattr(pdf_parts.os, "cpu_count", lambda: 1)
    assert pdf_parts.pdf_workers() == 1
    _pdf("score-sheets", series_a, small_parts, 4)
    assert spy == []
    monkeypatch.setattr(pdf_parts.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parts, "MIN_SHEETS", 8)  # two tables are a short print
    _pdf("score-sheets", series_a, small_parts, 2)
    assert spy == []
    monkeypatch.setattr(parts, "MIN_SHEETS", 2)
    _pdf("score-sheets", series_a, small_parts, 2)
    assert spy == [2]


def test_cuts_fall_on_the_page_breaks():
    # 49 rows on the first page, 57 on the next (the standings' grid of the large event).
    row = 8 * parts.LINE + parts.GRID_ROW_EXTRA
    first, page = 49.6 * row + parts.SLACK_PX, 57.5 * row + parts.SLACK_PX
    assert parts._cuts(400, row, first, page, 2) == [49 + 57, 49 + 3 * 57, 49 + 5 * 57]
    assert parts._cuts(60, row, first, page, 1) == []  # the rest is too short for a part


def test_page_numbers_on_pages_of_two_sizes(small_parts):
    """The workbook mixes landscape hand lists and portrait grids: the numbers document has
    the same sizes page by page."""

    def part(css_page, words):
        html = (
            '<html><head><link rel="stylesheet" href="/static/css/print.css"></head><body>'
            f"<p style='page: {css_page}'>{words}</p></body></html>"
        )
        return pdf_parts._render_part(html)  # as a worker does: no page number of its own

    with translation.override("de"):
        joined = pdf_parts.join([part("wide", "Handliste"), part("auto", "Wertung")])
    from tests.exports.conftest import read_pdf

    pages = read_pdf(joined).pages
    assert [round(float(p.mediabox.width)) for p in pages] == [842, 595]
    texts = [p.extract_text() for p in pages]
    assert "Handliste" in texts[0] and "Wertung" in texts[1]
    # Only the numbers drawn after joining: the parts' own counters are gone.
    assert [re.findall(r"\d+", t) for t in texts] == [["1", "2"], ["2", "2"]]
    assert [FOOTER["de"].findall(t) for t in texts] == [[("1", "2")], [("2", "2")]]


def test_parallel_workbook_cuts_the_hand_lists_on_their_page_breaks(
    club_a, small_parts, spy, one_context
):
    event = _event(club_a, 48, series=2, rounds=5, seed=7)
    one = _pdf("event-workbook", event, small_parts, 1)
    joined = _pdf("event-workbook", event, small_parts, 2)
    one_pages, joined_pages = page_texts(one), page_texts(joined)
    lists = sum("Tisch Spiel Geber" in " ".join(t.split()) for t in one_pages)
    assert spy and spy[0] > 2 + 3  # hand lists cut (2 lists, 3 standings tables at least)
    assert lists >= 4
    assert _without_footer(joined_pages) == _without_footer(one_pages)
    assert not print_style_problems(joined, "de")


@pytest.fixture
def spawned(small_parts, monkeypatch):
    """Spawned workers, as on Windows and macOS; ended after the test."""
    monkeypatch.setenv("DEBUG", "1")
    small_parts.PDF_WORKER_START = "spawn"
    yield small_parts
    pdf_parts.forget_kept_pools()


def test_spawned_workers_lay_out_the_same_pages(series_a, small_parts, spy, spawned):
    """Windows has no fork and macOS's is unsafe: a laptop there spawns the PDF workers,
    which read the settings afresh from the environment (the hall mode's is inherited)."""
    small_parts.PDF_WORKER_START = "fork"
    one = _pdf("score-sheets", series_a, small_parts, 1)
    small_parts.PDF_WORKER_START = "spawn"
    joined = _pdf("score-sheets", series_a, small_parts, 2)
    assert spy == [2]
    assert _without_footer(page_texts(joined)) == _without_footer(page_texts(one))


TINY_PARTS = [
    f'<html lang="de"><body><p>Teil {n}</p></body></html>' for n in range(1, 5)
]  # fmt: skip


def test_spawned_workers_are_kept_from_one_print_to_the_next(spawned):
    """A spawned worker sets Django and Pango up before its first part (seconds): the
    second print finds the same workers."""
    first = pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    pool = pdf_parts.kept_pool(2)
    workers = set(pool._processes)
    second = pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    assert pdf_parts.kept_pool(2) is pool and set(pool._processes) == workers
    assert len(workers) == 2 and first[0][:5] == second[0][:5] == b"%PDF-"
    assert "Teil 3" in page_texts(second[2])[0]


def _ended(pids, timeout=10.0):
    """Every process of `pids` has ended (gone, or a zombie its pool has not reaped yet)."""
    import time

    def running(pid):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + timeout
    while any(running(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_kept_workers_end_when_no_print_comes(spawned, monkeypatch):
    """Their memory (a quarter of a gigabyte each after a long print) goes back to the
    machine once nobody prints; the next print makes new ones."""
    monkeypatch.setattr(pdf_parts, "KEPT_IDLE_S", 0.3)
    pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    pool = pdf_parts.kept_pool(2)
    workers = set(pool._processes)
    assert _ended(workers)
    assert pdf_parts._kept == {}
    again = pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    assert "Teil 4" in page_texts(again[3])[0] and pdf_parts.kept_pool(2) is not pool


def test_kept_workers_are_made_afresh_after_so_many_parts(spawned, monkeypatch):
    monkeypatch.setattr(pdf_parts, "KEPT_PARTS", 6)

    def kept():
        (entry,) = pdf_parts._kept.values()
        return entry.pool

    pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    pool = kept()
    pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)  # 8 parts: the next print renews
    assert kept() is pool
    workers = set(pool._processes)
    third = pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    assert kept() is not pool and _ended(workers)
    assert "Teil 2" in page_texts(third[1])[0]


def test_a_print_while_another_runs_waits_for_the_same_workers(spawned):
    """Two prints at once (the director and the hall's pre-renderer) share the kept workers;
    neither retires them under the other."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as threads:
        done = list(threads.map(lambda _: pdf_parts.render_parts(TINY_PARTS, [1] * 4, 2), [1, 2]))
    assert [len(pdfs) for pdfs in done] == [4, 4]
    assert len(pdf_parts._kept) == 1 and next(iter(pdf_parts._kept.values())).busy == 0


def test_a_lost_spawned_worker_is_replaced_and_the_print_still_comes(spawned):
    import os
    import signal

    pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    pool = pdf_parts.kept_pool(2)
    os.kill(next(iter(pool._processes)), signal.SIGKILL)  # (out of memory, Task Manager)
    again = pdf_parts.render_parts(TINY_PARTS, [1, 1, 1, 1], 2)
    assert pdf_parts.kept_pool(2) is not pool
    assert ["Teil 1" in page_texts(pdf)[0] for pdf in again[:1]] == [True]


@pytest.mark.parametrize("provisional", [False, True])
def test_parallel_wall_list_has_the_pages_of_the_one_process_print(
    club_a, small_parts, spy, one_context, monkeypatch, provisional
):
    """The A3 wall list cut after whole pages: every row on the page it has in one process,
    the stripes go on across the cut, "Seite x von y" where the wall page has it. With a
    sheet still open the last column's header wraps to several lines (read off WeasyPrint's
    sample layout, not computed)."""
    from scoring.models import Sheet

    monkeypatch.setattr(parts, "MIN_WALL_ROWS", 20)
    event = _event(club_a, 150, series=2, rounds=1, seed=3)
    if provisional:
        sheet = Sheet.objects.filter(table__series__event=event, table__series__number=2)[0]
        sheet.status = Sheet.Status.ENTERED
        sheet.save()
    one = _pdf("standings-wall", event, small_parts, 1)
    joined = _pdf("standings-wall", event, small_parts, 2)
    assert spy and spy[0] >= 3
    one_pages, joined_pages = page_texts(one), page_texts(joined)
    assert len(joined_pages) == len(one_pages) >= 3
    assert _without_footer(joined_pages) == _without_footer(one_pages)
    assert ("VORLÄUFIG" in joined_pages[0]) is provisional
    assert not print_style_problems(joined, "de")
    total = len(joined_pages)
    for number, text in enumerate(joined_pages, start=1):
        assert re.findall(r"Seite \d+ von \d+", text) == [f"Seite {number} von {total}"]


def test_wall_parts_number_the_stripes_on_and_keep_wrapping_tables_whole(club_a, monkeypatch):
    from scoring.exports.registry import get_exporter

    monkeypatch.setattr(parts, "MIN_WALL_ROWS", 20)
    event = _event(club_a, 150, series=2, rounds=1, seed=3)
    exporter = get_exporter("standings-wall")
    with translation.override("de"):
        context = rendering.document_context(exporter, event, "pdf")
        pieces = parts.wall_parts(context, 2, exporter.template)
        assert len(pieces) >= 3
        tables = [p["tables"][0] for p in pieces]
        assert [t.offset for t in tables] == [0, *(sum(len(t.rows) for t in tables[:n])
                                                    for n in range(1, len(tables)))]  # fmt: skip
        assert [t.continued for t in tables] == [False] + [True] * (len(tables) - 1)
        assert [p["hide_head"] for p in pieces] == [False] + [True] * (len(pieces) - 1)
        # A name that would wrap in its column: the table is laid out whole.
        whole = context["tables"]  # computed once by wall_parts, kept for a whole layout
        whole[0].rows[5].cells[1] = ("Maximiliane-Friederike " * 4, "text")
        assert parts.wall_parts(context, 2, exporter.template) == []


def test_the_page_number_is_drawn_on_a_page_of_the_same_name():
    """A3 portrait (the wall) is as wide as A4 landscape but has other margins: the number
    document's page must be the wall's, or the number moves 2 mm."""
    assert pdf_parts.page_kind(595.3, 841.9) == ""
    assert pdf_parts.page_kind(841.9, 595.3) == "wide"
    assert pdf_parts.page_kind(841.9, 1190.6) == "wall"
    from scoring.exports.formats.pdf import render_pdf
    from tests.exports.conftest import read_pdf

    with translation.override("de"):
        stamp = render_pdf(pdf_parts.stamp_html(["wall", "wide", ""]))
    sizes = [tuple(round(float(v)) for v in p.mediabox[2:]) for p in read_pdf(stamp).pages]
    assert sizes == [(842, 1191), (842, 595), (595, 842)]


def test_a_short_wall_list_ranks_the_event_once(club_a, small_parts, spy, monkeypatch):
    """Too short for parts: laid out whole from the tables `wall_parts` already computed."""
    from scoring.exports.exporters.wall import WallListExporter

    calls = []
    real = WallListExporter.tables

    def tables(self, event):
        calls.append(event.pk)
        return real(self, event)

    monkeypatch.setattr(WallListExporter, "tables", tables)
    event = _event(club_a, 12, series=1, rounds=1, seed=3)
    _pdf("standings-wall", event, small_parts, 2)
    assert spy == [] and calls == [event.pk]


def test_the_warm_up_reads_the_hyphenation_dictionaries_before_the_workers_fork(monkeypatch):
    # WeasyPrint reads a dictionary only when a line breaks inside a word; unless the parent
    # has read it, every forked worker reads the German one again (0.5 s of each print).
    import pyphen

    monkeypatch.setattr(pdf_parts, "_warm", False)
    monkeypatch.setattr(pyphen, "hdcache", {})
    pdf_parts._warm_up()
    assert pyphen.LANGUAGES[pyphen.language_fallback("de")] in pyphen.hdcache
    assert pyphen.LANGUAGES[pyphen.language_fallback("en")] in pyphen.hdcache


def test_only_sheets_known_to_fit_a_page_number_their_own_pages(series_a):
    from clubs.models import Player
    from scoring.exports.registry import get_exporter

    exporter = get_exporter("score-sheets")
    assert rendering.document_context(exporter, series_a, "pdf")["one_page"]
    # Long names are cut to two lines where they could wrap: the sheet still fits.
    seat = series_a.tables.get(number=1).seats.first()
    player = Player.objects.get(pk=seat.participant.player_id)
    player.family_name = "Hohenzollern-Sigmaringen-Lüdenscheidt"
    player.given_name = "Maximiliane-Theodora"
    player.save()
    assert rendering.document_context(exporter, series_a, "pdf")["one_page"]
    # 40 hands at a table of four need rows below 4.2 mm (exporters/sheet_page.py).
    series_a.planned_rounds = 10
    series_a.save()
    assert not rendering.document_context(exporter, series_a, "pdf")["one_page"]


@pytest.mark.parametrize("slug", ["standings", "score-sheets", "standings-wall"])
def test_a_part_lays_out_as_with_its_link_to_print_css(slug, club_a, small_parts, monkeypatch):
    """print.css is parsed once a thread and given to WeasyPrint as a user sheet (37 ms of
    every part and document, pdf.with_print_css): each page's drawing is the one the
    document's own link gave, byte for byte, in a part and in one process."""
    from weasyprint import CSS, HTML

    from scoring.exports.formats import pdf
    from tests.exports.conftest import read_pdf

    caught = []

    def render_parts(htmls, costs, workers, progress=None, css=None):
        caught.extend(zip(htmls, css or [pdf_parts.NO_PAGE_NUMBER_CSS] * len(htmls), strict=True))
        return []

    def drawings(data):
        return [page.get_contents().get_data() for page in read_pdf(data).pages]

    monkeypatch.setattr(pdf_parts, "render_parts", render_parts)
    monkeypatch.setattr(pdf_parts, "join", lambda pdfs, **kwargs: b"")
    event = _event(club_a, 150, series=1, rounds=1, seed=5)
    _pdf(slug, event.series.get() if slug == "score-sheets" else event, small_parts, 2)
    assert len(caught) >= 2
    monkeypatch.setattr(pdf._parsed, "sheets", {}, raising=False)
    for html, css in caught:
        assert 'rel="stylesheet" href="/static/css/print.css"' in html
        linked = HTML(string=html, base_url=pdf.BASE_URL, url_fetcher=pdf.make_url_fetcher())
        want = drawings(linked.render(stylesheets=[CSS(string=css)]).write_pdf())
        assert drawings(pdf_parts._render_part(html, css)) == want
        assert drawings(pdf.render_pdf(html)) == drawings(linked.render().write_pdf())
    (sheet,) = pdf._parsed.sheets.values()  # parsed once for all of them
    pdf_parts._render_part(*caught[0])
    assert list(pdf._parsed.sheets.values()) == [sheet]
