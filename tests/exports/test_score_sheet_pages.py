"""Every score sheet on its one A4 page: tables of three to six players, as many hands as rows
of 4.2 mm leave room for, long names, the melded points' columns, a table link's seat codes
and QR caption, in German and English. exporters/sheet_page.py knows each part's height
before WeasyPrint lays it out; here WeasyPrint lays the sheets out and the two are compared."""

import pytest
from django.utils import translation

from scoring.exports import rendering
from scoring.exports.exporters import score_sheets, sheet_page
from scoring.exports.registry import get_exporter
from tests.exports.conftest import _participant

pytestmark = pytest.mark.django_db

PX_MM = 25.4 / 96
HALL = "http://192.168.178.20:8000"
LONG = [
    ("Maximiliane-Theodora", "Hohenzollern-Sigmaringen"),
    ("Wolfeschlegelsteinhausenbergerdorff", "Hubert"),  # no space to wrap at
    ("Karl-Heinz", "Schäfer-Müller von der Lüdenscheidt"),
]


def _series(club, organiser, sizes, rounds, *, long_names, ruleset, phone):
    from scoring.sheets.table import links as table_links
    from tests.factories import EventFactory, SeriesFactory, seated_table
    from tournaments.models import Series

    event = EventFactory(
        club=club, ruleset_slug=ruleset, venue="Bürgerhaus Kassel-Wilhelmshöhe, großer Saal",
        name="Offene Nordhessische Rommé-Meisterschaft der Senioren und Junioren 2026",
    )  # fmt: skip
    series = SeriesFactory(event=event, number=1, planned_rounds=rounds)
    count = 0
    for number, size in enumerate(sizes, start=1):
        seated = []
        for _ in range(size):
            count += 1
            given, family = LONG[count % len(LONG)] if long_names else ("Anna", f"Weiß{count}")
            seated.append(_participant(event, club, given, family, f"K{count:04d}"))
        seated_table(series, seated, number=number)
    if phone:
        Series.objects.filter(pk=series.pk).update(status=Series.Status.IN_PLAY)
        series.refresh_from_db()
        table_links.create_table_links(organiser, series)
    return series


def _walk(box):
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _walk(child)


def _lay_out(series, language):
    """The context and, sheet by sheet, the height (mm) its article takes on each page."""
    from weasyprint import HTML

    from scoring.exports.formats.pdf import BASE_URL, make_url_fetcher, with_print_css

    exporter = get_exporter("score-sheets")
    with translation.override(language):
        context = rendering.document_context(exporter, series, "pdf", base_url=HALL)
        html = rendering.render_document(exporter, series, "pdf", base_url=HALL)
        html, options = with_print_css(html)
        document = HTML(string=html, base_url=BASE_URL, url_fetcher=make_url_fetcher()).render(
            **options
        )
    articles = {}
    for page in document.pages:
        for box in _walk(page._page_box):
            if getattr(box, "element_tag", None) == "article":
                articles.setdefault(box.element, []).append(box.margin_height() * PX_MM)
                break
    return context, list(articles.values())


def _predicted(context, sheet, language):
    with translation.override(language):
        headers = ["Seat", "Player", "Club", "Number"] + (["Seat code"] if sheet.phone else [])
        headers = [translation.gettext(h) for h in headers]
        share = score_sheets.player_mm(float(context["dealer_width"][:-2]), len(sheet.players))
        fixed = sheet_page.fixed_mm(
            sheet, melded=context["needs_melded"], player_mm=share, headers=headers
        )
    return fixed + len(sheet.hands) * sheet.row_mm


@pytest.mark.parametrize(
    "sizes, rounds, long_names, ruleset, phone, language",
    [
        ((3, 4, 5, 6), 5, False, "german-minus", False, "de"),
        ((3, 4, 5, 6), 5, False, "german-minus", True, "en"),
        ((3, 4, 5, 6), 4, True, "german-minus", False, "de"),
        ((3, 4, 5, 6), 3, True, "drov-ranking-points", True, "de"),
        ((4, 5, 6), 4, False, "drov-ranking-points", True, "de"),
    ],
)
def test_each_sheet_fills_its_one_page(
    club_a, organiser_a, sizes, rounds, long_names, ruleset, phone, language
):
    series = _series(club_a, organiser_a, sizes, rounds,
                     long_names=long_names, ruleset=ruleset, phone=phone)  # fmt: skip
    context, articles = _lay_out(series, language)
    sheets = context["sheets"]
    assert len(articles) == len(sheets) == len(sizes)
    fitting = 0
    for sheet, heights in zip(sheets, articles, strict=True):
        predicted = _predicted(context, sheet, language)
        if predicted > sheet_page.AREA_MM - sheet_page.SPARE_MM:
            continue  # rows of 4.2 mm do not leave it room: it runs on (and is told so)
        fitting += 1
        where = f"table {sheet.table} ({len(sheet.players)} players, {len(sheet.hands)} hands)"
        assert len(heights) == 1, f"{where} ran onto a second page"
        # The model never promises less than WeasyPrint takes, and wastes little.
        assert 0 <= predicted - heights[0] <= 2.0, (where, predicted, heights[0])
        # The hands get what the page leaves, between the row's least and most height.
        assert sheet_page.ROW_MM[0] <= sheet.row_mm <= sheet_page.ROW_MM[1]
        room = sheet_page.AREA_MM - heights[0]
        assert (
            sheet.row_mm == sheet_page.ROW_MM[1]
            or room < sheet_page.SPARE_MM + len(sheet.hands) * 0.1 + 2.0
        ), (where, room)
    assert context["one_page"] == (fitting == len(sheets))
    assert fitting >= len(sheets) - 1  # (only a six-player table may not fit, as below)


def test_a_sheet_without_room_for_its_hands_is_not_promised_one_page(club_a, organiser_a):
    """Six players and eight rounds are 48 hands: rows of 4.2 mm need more than a page. The
    sheet runs onto a second page, and the print numbers its pages after joining."""
    series = _series(club_a, organiser_a, (4, 6), 8,
                     long_names=False, ruleset="german-minus", phone=False)  # fmt: skip
    context, articles = _lay_out(series, "de")
    assert not context["one_page"]
    four, six = context["sheets"]
    assert six.row_mm == sheet_page.ROW_MM[0] and len(articles[1]) == 2
    assert len(articles[0]) == 1 and four.row_mm > sheet_page.ROW_MM[0]  # 32 hands fit
