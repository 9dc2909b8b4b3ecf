"""The category standings print (issue 29): one table per category, A4 with bordered grids,
XLSX and the A3 wall list, in German, with the category standings' numbers; the links
beside the standings page's category tabs; VORLÄUFIG while a sheet is unconfirmed."""

import re

import pytest
from django.urls import reverse
from django.utils import formats, translation

from scoring.exports.rendering import render_export
from scoring.standings import selectors
from scoring.standings.categories import category_standings
from tests.exports.conftest import read_pdf, read_xlsx
from tests.pdf_checks import page_texts, print_style_problems
from tests.standings.db.conftest import director, generated
from tournaments import categories as cat_services
from tournaments.models import Category

pytestmark = pytest.mark.django_db


def _with_categories(event, club):
    boss = director(club, username="cat_boss")
    with translation.override("de"):
        cat_services.add_standard_categories(boss, event)
    club_cat = cat_services.add_category(boss, event, "Vereinswertung")
    people = list(event.participants.select_related("player").order_by("pk"))
    for i, p in enumerate(people):
        p.player.gender = "f" if i % 2 else "m"
        p.player.birth_year = 1950 if i % 3 == 0 else 1980
        p.player.save()
    for p in people[:4]:
        cat_services.set_category_choice(boss, club_cat, p, True)
    cat_services.disqualify(boss, people[1], "Absprache")
    return boss


@pytest.fixture
def event(club_a):
    event = generated(club_a, 12, series=2, rounds=1, seed=21)
    _with_categories(event, club_a)
    return event


def _pdf(slug, event):
    with translation.override("de"):
        content, filename, content_type = render_export(slug, event, "pdf")
    assert content_type == "application/pdf"
    return content, filename, page_texts(content)


def _german(total: int) -> str:
    with translation.override("de"):
        return formats.number_format(total, force_grouping=True)


def _cuts(event):
    standing = selectors.event_standing(event, only_published=False)
    return category_standings(event, standing)


def test_category_pdf_in_german_with_each_categorys_ranks(event):
    content, filename, pages = _pdf("category-standings", event)
    assert print_style_problems(content, "de") == []
    text = "\n".join(pages)
    assert "Kategoriewertungen – " + event.name in pages[0]
    assert "VORLÄUFIG" not in text and "Platz" in text
    for cut in _cuts(event):
        heading = f"{cut.category.name} – Kategoriewertung"
        start = text.index(heading)
        position = start
        for row in cut.rows:
            name = re.escape(row.name) + (r" \(disqualifiziert\)" if row.disqualified else "")
            pattern = rf"(?m)^{row.rank} {name} .*?{re.escape(_german(row.total))}\b"
            match = re.compile(pattern).search(text, position)
            assert match, (cut.category.name, row.rank, row.name)
            position = match.end()
    assert "disqualifiziert" in text
    assert filename.endswith("kategoriewertungen.pdf")


def test_category_wall_list_is_a3(event):
    content, _filename, pages = _pdf("category-standings-wall", event)
    assert print_style_problems(content, "de") == []
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in read_pdf(content).pages}  # fmt: skip
    assert sizes == {(842, 1191)}
    assert "Senioren ab 60" in "\n".join(pages)


def test_category_xlsx_has_a_sheet_per_category(event):
    with translation.override("de"):
        content, _filename, _type = render_export("category-standings", event, "xlsx")
    book = read_xlsx(content)
    assert book.sheetnames == ["Damen", "Senioren ab 60", "Jugend bis 18", "Vereinswertung"]
    sheet = book["Vereinswertung"]
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    header = next(r for r in values if "Platz" in r)
    assert "Name" in " ".join(str(v) for v in header) or "Spieler" in header
    (cut,) = [c for c in _cuts(event) if c.category.name == "Vereinswertung"]
    ranks = [r[0] for r in values[values.index(header) + 1 :] if isinstance(r[0], int)]
    assert ranks == [row.rank for row in cut.rows]


def test_provisional_while_a_sheet_is_unconfirmed(club_a):
    event = generated(club_a, 12, series=2, rounds=1, confirmed_series=1, entered_tables=1)
    _with_categories(event, club_a)
    text = "\n".join(_pdf("category-standings", event)[2])
    assert "VORLÄUFIG" in text


def test_print_links_beside_the_category_tabs_for_directors(client, club_a, event):
    client.force_login(director(club_a, username="cat_viewer"))
    url = reverse("standings:event", args=[event.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    pdf = reverse("exports:export", args=["event", event.pk, "category-standings", "pdf"])
    assert pdf in page and "Kategorien" in page
    seniors = Category.objects.get(event=event, kind="seniors")
    response = client.get(url, {"category": seniors.pk}, HTTP_ACCEPT_LANGUAGE="de")
    cut = response.context["category"]
    assert cut.category.id == seniors.pk
    assert [r["rank"] for r in response.context["table"].data.data] == [r.rank for r in cut.rows]
    assert client.get(pdf).status_code == 200
