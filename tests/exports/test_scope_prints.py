"""The prints after a series (issue 29): the standing of one series (Serienwertung) and of
one day (Tageswertung), A4 with bordered grids, XLSX, print page and the A3 wall list, in
German, with the numbers of `event_standing` for that scope; who may print them; the
one-click links beside the standings page's series and day tabs."""

import re

import pytest
from django.urls import reverse
from django.utils import formats, translation

from scoring import visibility
from scoring.exports.registry import EXPORTERS
from scoring.exports.rendering import render_export
from scoring.standings import labels, selectors
from tests.exports.conftest import read_pdf, read_xlsx
from tests.pdf_checks import page_texts, print_style_problems
from tests.standings.db.conftest import generated
from tournaments.models import Series

pytestmark = pytest.mark.django_db
A4_PORTRAIT, A3_PORTRAIT = (595, 842), (842, 1191)
SLUGS = ("series-standings", "series-standings-wall", "day-standings", "day-standings-wall")


@pytest.fixture
def two_days(club_a):
    """20 players, pairs, teams, three series: 1 and 2 on day 1, 3 on day 2."""
    event = generated(club_a, 20, series=3, rounds=1, pairs=4, teams=2, seed=11)
    Series.objects.filter(event=event, number=3).update(day=2)
    return event


def _pdf(slug, series):
    with translation.override("de"):
        content, filename, content_type = render_export(slug, series, "pdf")
    assert content_type == "application/pdf"
    return content, filename, page_texts(content)


def _size(content):
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in read_pdf(content).pages}  # fmt: skip
    assert len(sizes) == 1, sizes
    return sizes.pop()


def _standing(event, scope, number, competition=labels.INDIVIDUAL):
    return selectors.event_standing(
        event, competition=competition, scope=scope, number=number, only_published=False
    )


def _german(total: int) -> str:
    with translation.override("de"):
        return formats.number_format(total, force_grouping=True)


def _assert_rows(text: str, standing):
    """Every row of the standing, in its order, with its rank and total as in German."""
    assert standing.rows
    position = 0
    for row in standing.rows:
        pattern = rf"(?m)^{row.rank} {re.escape(row.name)} .*?{re.escape(_german(row.total))}\b"
        match = re.compile(pattern).search(text, position)
        assert match, (row.rank, row.name, row.total)
        position = match.end()


def test_series_standing_pdf_in_german_with_the_standings_numbers(two_days):
    series = two_days.series.get(number=2)
    content, filename, pages = _pdf("series-standings", series)
    assert print_style_problems(content, "de") == []
    assert _size(content) == A4_PORTRAIT
    text = "\n".join(pages)
    assert "Serienwertung – Serie 2 – " + two_days.name in pages[0]
    assert "Einzel – Serie 2" in text and "Tandems – Serie 2" in text
    assert "Mannschaften – Serie 2" in text
    assert "Platz" in text and "Summe" in text and "VORLÄUFIG" not in text
    _assert_rows(text, _standing(two_days, labels.SERIES, 2))
    pairs = _standing(two_days, labels.SERIES, 2, labels.PAIR)
    assert all(row.name in text for row in pairs.rows)
    assert filename.endswith("serie-2-serienwertung.pdf")


def test_day_standing_pdf_counts_the_days_series_only(two_days):
    series = two_days.series.get(number=1)
    content, filename, pages = _pdf("day-standings", series)
    assert _size(content) == A4_PORTRAIT
    text = "\n".join(pages)
    assert "Tageswertung – Tag 1 – " + two_days.name in pages[0]
    day = _standing(two_days, labels.DAY, 1)
    assert day.counted_series == [1, 2]
    _assert_rows(text, day)
    # The day's totals are not the overall ones (series 3 is on day 2).
    overall = {r.key: r.total for r in _standing(two_days, labels.OVERALL, None).rows}
    assert any(overall[r.key] != r.total for r in day.rows)
    assert filename.endswith("tag-1-tageswertung.pdf")
    _content, _name, day2 = _pdf("day-standings", two_days.series.get(number=3))
    assert "Tageswertung – Tag 2" in day2[0]
    _assert_rows("\n".join(day2), _standing(two_days, labels.DAY, 2))


@pytest.mark.parametrize(
    ("slug", "number", "title"),
    [("series-standings-wall", 3, "Serienwertung – Serie 3"),
     ("day-standings-wall", 3, "Tageswertung – Tag 2")],
)  # fmt: skip
def test_wall_lists_are_a3_in_large_type(two_days, slug, number, title):
    content, _filename, pages = _pdf(slug, two_days.series.get(number=number))
    assert print_style_problems(content, "de") == []
    assert _size(content) == A3_PORTRAIT
    text = "\n".join(pages)
    assert title in pages[0] and two_days.name in pages[0]
    assert "Einzel – " in text and "Tandems – " in text
    scope = labels.SERIES if slug.startswith("series") else labels.DAY
    _assert_rows(text, _standing(two_days, scope, 3 if scope == labels.SERIES else 2))


def test_provisional_when_a_counted_sheet_is_not_confirmed(club_a):
    event = generated(club_a, 12, series=2, rounds=1, confirmed_series=1, entered_tables=1)
    first, second = event.series.get(number=1), event.series.get(number=2)
    for slug in SLUGS:
        text = "\n".join(_pdf(slug, second)[2])
        assert "VORLÄUFIG" in text, slug
    # Series 1 is confirmed everywhere: its own standing is final.
    for slug in ("series-standings", "series-standings-wall"):
        text = "\n".join(_pdf(slug, first)[2])
        assert "VORLÄUFIG" not in text and "vorläufig" not in text, slug
    a4 = _pdf("series-standings", second)[2]
    assert all("VORLÄUFIG" in page for page in a4)
    assert "Einzel – Serie 2 (vorläufig)" in a4[0]


def test_xlsx_columns(two_days):
    series = two_days.series.get(number=2)
    with translation.override("de"):
        content, _filename, _type = render_export("series-standings", series, "xlsx")
    book = read_xlsx(content)
    assert book.sheetnames == ["Einzel", "Tandems", "Mannschaften"]
    header = [c.value for c in book["Einzel"][1]]
    assert header[:4] == ["Platz", "Spieler", "Verein", "Summe"]
    assert not any(str(h).startswith("S") and str(h)[1:].isdigit() for h in header)
    standing = _standing(two_days, labels.SERIES, 2)
    values = [(r[0].value, r[1].value, r[3].value) for r in book["Einzel"].iter_rows(min_row=2)]
    assert values == [(r.rank, r.name, r.total) for r in standing.rows]
    pairs = [c.value for c in book["Tandems"][1]]
    assert pairs[:3] == ["Platz", "Tandem", "Mitglieder"]
    day = read_xlsx(render_export("day-standings", series, "xlsx")[0])
    day_header = [c.value for c in day.active[1]]
    assert "S1" in day_header and "S2" in day_header and "S3" not in day_header


def test_who_may_print_is_who_sees_unpublished_series(
    club_a, viewer_a, scorer_a, organiser_a, two_days
):
    """The standings page offers the links to its "insiders" (scoring.visibility): exactly
    those who hold the prints' role."""
    from clubs.permissions import has_role

    for slug in SLUGS:
        exporter = EXPORTERS[slug]
        assert exporter.scope == "series"
        for user in (viewer_a, scorer_a, organiser_a):
            may_print = has_role(user, club_a.pk, exporter.permission)
            assert may_print == visibility.sees_unpublished(user, two_days), (slug, user)


def test_an_outsider_cannot_print_an_unpublished_series(
    client, club_a, club_b, viewer_a, scorer_a, two_days
):
    from tests.factories import user_with_role

    series = two_days.series.get(number=3)
    Series.objects.filter(pk=series.pk).update(published=False)
    assert not visibility.sees_unpublished(viewer_a, two_days)
    other = user_with_role(club_b, "organiser", username="org_b_prints")
    for slug in SLUGS:
        for fmt in EXPORTERS[slug].formats:
            url = reverse("exports:export", args=["series", series.pk, slug, fmt])
            client.logout()
            response = client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
            for user in (viewer_a, other):
                client.force_login(user)
                assert client.get(url).status_code in (403, 404), (slug, fmt, user)
            client.force_login(scorer_a)
            assert client.get(url).status_code == 200, (slug, fmt)


def _links(html: str) -> list[str]:
    return re.findall(r'class="scope-print" href="([^"]+)"', html)


def test_standings_page_prints_each_series_and_day_in_one_click(client, scorer_a, two_days):
    client.force_login(scorer_a)
    url = reverse("standings:event", args=[two_days.pk])
    with translation.override("de"):
        page = client.get(url, {"scope": "series", "n": 2}, HTTP_ACCEPT_LANGUAGE="de")
    html = page.content.decode()
    assert "Drucken (PDF)" in html and "A3" in html
    ids = {s.number: s.pk for s in two_days.series.all()}
    # The overall tab: the standings PDF (individual, pairs, teams) and the overall wall list.
    expected = [f"/exports/event/{two_days.pk}/standings.pdf",
                f"/exports/event/{two_days.pk}/standings-wall.pdf"]  # fmt: skip
    for first in (ids[1], ids[3]):  # each day by its first series
        expected += [f"/exports/series/{first}/day-standings.pdf",
                     f"/exports/series/{first}/day-standings-wall.pdf"]  # fmt: skip
    for number in (1, 2, 3):
        expected += [f"/exports/series/{ids[number]}/series-standings.pdf",
                     f"/exports/series/{ids[number]}/series-standings-wall.pdf"]  # fmt: skip
    links = _links(html)
    assert sorted(links) == sorted(expected)
    # One click: the link of the shown tab prints the table shown, with its numbers.
    response = client.get(f"/exports/series/{ids[2]}/series-standings.pdf")
    assert response.status_code == 200
    shown = page.context["standing"]
    assert (shown.scope, shown.number) == (labels.SERIES, 2)
    with translation.override("de"):
        _assert_rows("\n".join(page_texts(response.content)), shown)


def test_viewers_see_no_print_links(client, viewer_a, two_days):
    client.force_login(viewer_a)
    html = client.get(reverse("standings:event", args=[two_days.pk])).content.decode()
    assert _links(html) == [] and "Drucken (PDF)" not in html
