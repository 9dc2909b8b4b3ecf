import re

import pytest

from scoring.exports.formats import pdf, pdf_parts
from scoring.exports.registry import get_exporter
from scoring.exports.rendering import render_document, render_export
from tests.exports.conftest import IMG_NAME, dealers_by_hand, pdf_text, read_pdf

pytestmark = pytest.mark.django_db

A4 = (595, 842)  # points

# print.css and the app's own fonts it names (static/fonts); nothing else is fetched.
STYLESHEET_AND_FONTS = [
    "https://romme-ledger.invalid/static/css/print.css",
    *(
        f"https://romme-ledger.invalid/static/fonts/{name}.ttf"
        for name in ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono", "DejaVuSansMono-Bold")
    ),
]


@pytest.fixture
def fetched(monkeypatch):
    """Every URL WeasyPrint asks the exports' fetcher for (print.css too: the sheet this
    thread parsed before is forgotten)."""
    urls = []
    monkeypatch.setattr(pdf._parsed, "sheets", {}, raising=False)
    original = pdf.StaticOnlyFetcher.fetch

    def spy(self, url, headers=None):
        urls.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(pdf.StaticOnlyFetcher, "fetch", spy)
    return urls


def _a4(reader):
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width)), round(float(box.height))) == A4


def test_player_registry_pdf(club_a, players_a, fetched):
    content, filename, content_type = render_export("players", club_a, "pdf")
    assert content.startswith(b"%PDF") and content_type == "application/pdf"
    assert filename.endswith(".pdf")
    reader = read_pdf(content)
    _a4(reader)
    text = pdf_text(content)
    for name in ("Müller", "Jürgen", "Özdemir", "Weiß", "Äbersold", "Schröder", "Hoß"):
        assert name in text
    assert "Total" in text and "8 players" in text
    # Header and footer: the club's name and "page x of y".
    assert "Herz Dame Kassel" in text
    assert "Page 1 of 1" in text
    # Only the stylesheet and its fonts came through the fetcher, from the app's static files.
    assert [u for u in fetched if not u.startswith("data:")] == STYLESHEET_AND_FONTS


def test_seating_list_pdf_repeats_the_header_row_after_page_breaks(event_a, club_a):
    from tests.exports.conftest import _participant
    from tests.factories import SeriesFactory, seated_table

    participants = [
        _participant(event_a, club_a, f"Spieler{i}", f"Familie{i:03d}", f"S{i:03d}")
        for i in range(120)
    ]
    series = SeriesFactory(event=event_a, number=3, planned_rounds=1)
    for t in range(30):
        seated_table(series, participants[4 * t : 4 * t + 4], number=t + 1)
    content, _, _ = render_export("seating", series, "pdf")
    reader = read_pdf(content)
    _a4(reader)
    pages = [page.extract_text() for page in reader.pages]
    assert len(pages) >= 4
    by_table_pages = [p for p in pages if "Familie" in p and "Club" in p]
    assert len(by_table_pages) >= 2
    for page in pages:
        # Every page: the event in the header, "Page x of y" in the footer, the table header.
        assert "Kasseler Herbstturnier" in page
        assert re.search(rf"Page \d+ of {len(pages)}", page)
        assert "Player" in page and "Table" in page and "Seat" in page
    assert "120 players at 30 tables" in pages[-1] or any(
        "120 players at 30 tables" in p for p in pages
    )


def test_umlauts_and_suit_symbols_render(series_a):
    text = pdf_text(render_export("seating", series_a, "pdf")[0])
    assert "Kasseler Herbstturnier ♠♥♦♣" in text
    for name in ("Müller, Jürgen", "Özdemir, Anna", "Weiß, Grete", "Äbersold, Heinz"):
        assert name in text


def test_score_sheets_pdf(series_a, fetched):
    from scoring.models import Sheet

    Sheet.objects.create(table=series_a.tables.get(number=2), status="draft", first_dealer=1)
    content, _, _ = render_export("score-sheets", series_a, "pdf", base_url="http://hall.local")
    reader = read_pdf(content)
    _a4(reader)
    assert len(reader.pages) == 2  # one A4 page per table
    first = reader.pages[0].extract_text()
    assert "Score sheet – table 1" in first and "Series 1" in first
    assert "Kasseler Herbstturnier" in first and "Page 1 of 2" in first
    # Players in seat order, then the dealer of each hand: seat 1, 2, 3, 4, 1, ...
    for seat, name in enumerate(["Müller, Jürgen", "Özdemir, Anna", "Weiß, Grete"], start=1):
        assert f"{seat}. {name}" in first
    hands = dealers_by_hand(reader.pages[0])
    assert sorted(hands) == list(range(1, 21))
    assert hands[1] == "1. Müller, Jürgen" and hands[2] == "2. Özdemir, Anna"
    assert hands[4] == "4. Äbersold, Heinz" and hands[5] == "1. Müller, Jürgen"
    assert hands[20] == "4. Äbersold, Heinz"
    assert "Total" in first and "Scorer" in first
    # Table 2 starts with seat 2 dealing (the sheet's first dealer).
    hands2 = dealers_by_hand(reader.pages[1])
    assert hands2[1] == "2. Schröder, Lotte" and hands2[4] == "1. Bäcker, Karl"
    # The QR code is an image on every page; its short code is printed next to it.
    for page in reader.pages:
        assert len(page.images) >= 1
    from scoring.sheets.codes import sheet_code

    code = sheet_code(series_a.pk, 1)
    assert f"http://hall.local/exports/s/{code}/" in first.replace("\n", "")
    assert f"Sheet code {code}" in first
    # Nothing but the stylesheet, its fonts, the QR and the empty cells' data: URIs went to
    # the fetcher.
    assert {u.split(",")[0].split("?")[0] for u in fetched} == {
        *STYLESHEET_AND_FONTS,
        "https://romme-ledger.invalid/qr/",
        "data:image/svg+xml;base64",
    }
    from scoring.exports.formats.pdf import qr_text

    assert {qr_text(u) for u in fetched if "/qr/" in u} == {
        f"http://hall.local/series/{series_a.pk}/tables/{n}/sheet/" for n in (1, 2)
    }
    # The empty cells: one cell over the 20 hands of each sheet, drawn with the dealer of each
    # hand shaded: table 1 begins with seat 1, table 2 with seat 2.
    from scoring.exports.registry import get_exporter
    from scoring.exports.rendering import document_context
    from tests.exports.test_print_layout import _drawing

    context = document_context(get_exporter("score-sheets"), series_a, "pdf")
    html = render_document(get_exporter("score-sheets"), series_a, "pdf")
    assert html.count('colspan="4" rowspan="20"') == 2
    first, second = (_drawing(context["grid_drawings"][s.grid]) for s in context["sheets"])
    assert '<path d="M0 0h1v1h-1zM1 1h1v1h-1zM2 2h1v1h-1zM3 3h1v1h-1zM0 4h1v1h-1z' in first
    assert '<path d="M1 0h1v1h-1zM2 1h1v1h-1zM3 2h1v1h-1zM0 3h1v1h-1zM1 4h1v1h-1z' in second


def test_score_sheet_qr_encodes_the_entry_page(series_a):
    from scoring.exports.exporters.score_sheets import prefilled_sheets

    sheets = prefilled_sheets(series_a, base_url="http://hall.local")
    assert sheets[0].url == f"http://hall.local/series/{series_a.pk}/tables/1/sheet/"
    assert sheets[0].qr == sheets[0].url  # drawn in the PDF by the fetcher, else data: URI
    html = render_document(get_exporter("score-sheets"), series_a, "html", base_url="http://h.l")
    assert html.count('class="qr" src="data:image/png;base64,') == 2
    assert [h.dealer for h in sheets[0].hands[:6]] == [0, 1, 2, 3, 0, 1]


def test_markup_in_a_name_is_text_and_fetches_nothing(hostile_series, fetched):
    content, _, _ = render_export("score-sheets", hostile_series, "pdf")
    text = pdf_text(content)
    assert IMG_NAME in text.replace("\n", "")
    assert not any("example.invalid" in url for url in fetched)
    content, _, _ = render_export("seating", hostile_series, "pdf")
    assert IMG_NAME in pdf_text(content).replace("\n", "")
    assert not any("example.invalid" in url for url in fetched)
    html = render_export("seating", hostile_series, "html")[0].decode()
    assert IMG_NAME not in html and "&lt;img src=&quot;http://example.invalid/x&quot;&gt;" in html


@pytest.mark.parametrize(
    "url",
    [
        "http://example.invalid/x",
        "https://example.invalid/static/css/print.css",
        "file:///etc/passwd",
        "https://romme-ledger.invalid/etc/passwd",
        "https://romme-ledger.invalid/static/../romme/settings.py",
        "https://romme-ledger.invalid/static/%2e%2e/romme/settings.py",
        "https://romme-ledger.invalid/static/css/missing.css",
        "ftp://example.invalid/x",
    ],
)
def test_the_fetcher_refuses_everything_but_static_files(url):
    fetcher = pdf.make_url_fetcher()
    with pytest.raises(pdf.FetchRefused):
        fetcher.fetch(url)


def test_the_fetcher_serves_static_files_and_data_uris():
    fetcher = pdf.make_url_fetcher()
    response = fetcher.fetch("https://romme-ledger.invalid/static/css/print.css")
    assert b"@page" in response.read()
    response = fetcher.fetch("data:text/plain;base64,aGFsbG8=")
    assert response.read() == b"hallo"


def test_an_unreachable_image_in_the_html_is_refused_not_fetched(fetched):
    # The fetcher is the only way out, even if markup ever slipped through.
    from scoring.exports.formats.pdf import render_pdf

    content = render_pdf('<p>Hallo</p><img src="http://example.invalid/y.png">')
    assert "Hallo" in pdf_text(content)
    assert fetched == ["http://example.invalid/y.png"]


def test_progress_reports_pages(series_a):
    seen = []
    content, _, _ = render_export(
        "score-sheets", series_a, "pdf", lambda done, total, unit: seen.append((done, total, unit))
    )
    assert seen[0] == (0, 2, "page")
    assert (1, 2, "page") in seen
    assert seen[-1] == (2, 2, "page")
    assert len(read_pdf(content).pages) == 2


def test_page_header_names_the_event_once(event_a):
    # Left: the event; right: the document's title without the event again (a long title
    # and the event name wrapped into the centre's "PROVISIONAL").
    content, _, _ = render_export("standings", event_a, "pdf")
    (page,) = read_pdf(content).pages
    text = page.extract_text()
    assert text.count("Standings (all confirmed sheets)") == 2  # the heading and the header
    assert text.count("Kasseler Herbstturnier") == 2  # the heading and the header's left


def test_the_fetcher_draws_only_its_own_qr_urls():
    from scoring.exports.formats.pdf import StaticOnlyFetcher, qr_image_url, qr_text

    url = qr_image_url("http://hall.local/t/ab&c=d/")
    assert qr_text(url) == "http://hall.local/t/ab&c=d/"
    response = StaticOnlyFetcher().fetch(url)
    assert response.headers["Content-Type"] == "image/png"
    for foreign in (
        "https://example.invalid/qr/?text=x",
        "https://romme-ledger.invalid/qr/evil?text=x",
        "https://romme-ledger.invalid/qr/?text=a&text=b",
        "https://romme-ledger.invalid/qr/?text=" + "x" * 1001,
    ):
        assert qr_text(foreign) is None
        with pytest.raises(pdf.FetchRefused):
            StaticOnlyFetcher().fetch(foreign)


def test_a_style_sheet_parsed_before_any_layout_writes_no_step_lines_to_the_console(
    monkeypatch, caplog
):
    """A part worker parses its page-number sheet, and a thread its print.css, before any
    layout; WeasyPrint's "Step 2" records went to the console (and the hall's log) before
    the progress handler was in. Django's logging configuration keeps them out."""
    import logging
    import logging.config

    from django.conf import settings
    from weasyprint import CSS

    progress_logger = logging.getLogger("weasyprint.progress")
    monkeypatch.setattr(progress_logger, "handlers", [])
    monkeypatch.setattr(progress_logger, "propagate", True)
    monkeypatch.setattr(progress_logger, "level", logging.NOTSET)
    monkeypatch.setattr(pdf, "_handler_installed", False)
    monkeypatch.setattr(pdf._parsed, "sheets", {}, raising=False)
    # As django.setup() in a new process, for this logger alone (the root keeps caplog's).
    logging.config.dictConfig(
        {"version": 1, "incremental": True, "loggers": settings.LOGGING["loggers"]}
    )
    caplog.set_level(logging.INFO)

    CSS(string=pdf_parts.NO_PAGE_NUMBER_CSS)
    html, options = pdf.with_print_css(f"<html>{pdf.print_css_link()}<p>x</p></html>")

    assert options["stylesheets"] and "print.css" not in html
    assert not [r for r in caplog.records if r.name.startswith("weasyprint.progress")]


def test_print_css_parses_in_weasyprint_without_a_warning():
    """WeasyPrint reads media types only: a rule `@media screen and (max-width: …)` was
    dropped with a warning at every print (in the hall's console too). The screen's
    phone rules nest a width query inside `@media screen` instead."""
    import logging

    from django.contrib.staticfiles import finders
    from weasyprint import CSS

    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logger = logging.getLogger("weasyprint")
    handler = Keep(logging.WARNING)
    logger.addHandler(handler)
    try:
        CSS(filename=finders.find("css/print.css"))
    finally:
        logger.removeHandler(handler)

    assert [r.getMessage() for r in records] == []
