"""The category standings prints (issue 29): each category by itself (the "category"
scope) and all categories in one file, A4 with bordered grids, XLSX and the A3 wall list,
in German, with the category standings' numbers; who may print them; the one-click links
beside the standings page's category tabs; VORLÄUFIG while a sheet is unconfirmed."""

import re

import pytest
from django.urls import reverse
from django.utils import formats, translation

from scoring.exports.registry import EXPORTERS, SCOPES, scope_of
from scoring.exports.rendering import render_export
from scoring.standings import selectors
from scoring.standings.categories import category_standings
from tests.exports.conftest import read_pdf, read_xlsx
from tests.factories import user_with_role
from tests.pdf_checks import page_texts, print_style_problems
from tests.standings.db.conftest import director, generated
from tournaments import categories as cat_services
from tournaments.models import Category

pytestmark = pytest.mark.django_db


def _with_categories(event, club, username="cat_boss"):
    boss = director(club, username=username)
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
    # the event's name, then the print's, once ("…-kategoriewertungen-kategoriewertungen" before)
    assert filename.endswith("-kategoriewertungen.pdf"), filename
    assert filename.count("kategoriewertungen") == 1, filename


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


def test_an_event_without_categories_says_so_in_every_format(club_a):
    """Before: an empty workbook with openpyxl's sheet "Sheet", and an A3 page with a title
    only."""
    plain = generated(club_a, 8, series=1, rounds=1, seed=5)
    with translation.override("de"):
        content, _filename, _type = render_export("category-standings", plain, "xlsx")
    book = read_xlsx(content)
    assert book.sheetnames == ["Hinweis"]
    assert book["Hinweis"]["A1"].value == "Die Veranstaltung hat keine Kategorien."
    for slug in ("category-standings", "category-standings-wall"):
        content, _filename, pages = _pdf(slug, plain)
        assert "Die Veranstaltung hat keine Kategorien." in "\n".join(pages), slug


def test_provisional_while_a_sheet_is_unconfirmed(club_a):
    event = generated(club_a, 12, series=2, rounds=1, confirmed_series=1, entered_tables=1)
    _with_categories(event, club_a)
    text = "\n".join(_pdf("category-standings", event)[2])
    assert "VORLÄUFIG" in text


# ----- each category by itself (the category scope) ---------------------------------------

ONE = ("category-standing", "category-standing-wall")
A4_PORTRAIT, A3_PORTRAIT = (595, 842), (842, 1191)


def _size(content):
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in read_pdf(content).pages}  # fmt: skip
    assert len(sizes) == 1, sizes
    return sizes.pop()


def _rows_in_order(text: str, cut):
    position = 0
    for row in cut.rows:
        name = re.escape(row.name) + (r" \(disqualifiziert\)" if row.disqualified else "")
        pattern = rf"(?m)^{row.rank} {name} .*?{re.escape(_german(row.total))}\b"
        match = re.compile(pattern).search(text, position)
        assert match, (cut.category.name, row.rank, row.name)
        position = match.end()


def _everyone(event) -> set[str]:
    return {f"{p.player.given_name} {p.player.family_name}"
            for p in event.participants.select_related("player")}  # fmt: skip


def test_the_category_scope_reads_a_category_and_its_events_club(event):
    category = Category.objects.get(event=event, kind="women")
    assert scope_of(category) is SCOPES["category"]
    with_club = SCOPES["category"].queryset().get(pk=category.pk)
    assert SCOPES["category"].club_of(with_club) == event.club
    assert {EXPORTERS[s].scope for s in ONE} == {"category"}


def test_each_categorys_pdf_holds_only_its_members_in_german(event):
    everyone = _everyone(event)
    cuts = _cuts(event)
    assert len(cuts) == 4 and sum(bool(c.rows) for c in cuts) == 3
    for cut in cuts:
        category = Category.objects.select_related("event").get(pk=cut.category.id)
        content, filename, pages = _pdf("category-standing", category)
        assert print_style_problems(content, "de") == []
        assert _size(content) == A4_PORTRAIT
        text = "\n".join(pages)
        assert f"Kategoriewertung – {category.name} – {event.name}" in pages[0]
        assert f"{category.name} – Kategoriewertung" in text
        assert "Platz" in text and "Summe" in text and "VORLÄUFIG" not in text
        _rows_in_order(text, cut)  # the youth have no members here: an empty table
        members = {row.name for row in cut.rows}
        for name in everyone - members:
            assert not re.search(rf"(?m)^\d+ {re.escape(name)}\b", text), (category.name, name)
        # No other category's table in it.
        others = [c.category.name for c in cuts if c.category.id != cut.category.id]
        assert not any(f"{o} – Kategoriewertung" in text for o in others)
        assert filename.endswith("kategoriewertung.pdf") and filename.startswith("gen-12-")
    seniors = Category.objects.get(event=event, kind="seniors")
    assert _pdf("category-standing", seniors)[1] == "gen-12-senioren-ab-60-kategoriewertung.pdf"


def test_a_disqualified_member_is_marked(event):
    club_category = Category.objects.get(event=event, name="Vereinswertung")
    text = "\n".join(_pdf("category-standing", club_category)[2])
    assert "disqualifiziert" in text


def test_each_categorys_wall_list_is_a3(event):
    for category in Category.objects.filter(event=event):
        content, _filename, pages = _pdf("category-standing-wall", category)
        assert print_style_problems(content, "de") == []
        assert _size(content) == A3_PORTRAIT
        assert f"Kategoriewertung – {category.name}" in pages[0] and event.name in pages[0]
    (cut,) = [c for c in _cuts(event) if c.category.name == "Damen"]
    women = Category.objects.get(event=event, name="Damen")
    _rows_in_order("\n".join(_pdf("category-standing-wall", women)[2]), cut)


def test_each_categorys_xlsx_is_one_sheet_of_its_members(event):
    for cut in _cuts(event):
        category = Category.objects.get(pk=cut.category.id)
        with translation.override("de"):
            content, filename, _type = render_export("category-standing", category, "xlsx")
        assert filename.endswith("kategoriewertung.xlsx")
        book = read_xlsx(content)
        assert book.sheetnames == [category.name]
        sheet = book[category.name]
        header = [c.value for c in sheet[1]]
        assert header[:4] == ["Platz", "Spieler", "Verein", "S1"] and "Summe" in header
        total = header.index("Summe")
        values = [(r[0].value, r[1].value, r[total].value) for r in sheet.iter_rows(min_row=2)]
        expected = [
            (row.rank, row.name + (" (disqualifiziert)" if row.disqualified else ""), row.total)
            for row in cut.rows
        ]
        assert values == expected


def test_a_category_print_is_provisional_while_a_sheet_is_unconfirmed(club_a):
    event = generated(club_a, 12, series=2, rounds=1, confirmed_series=1, entered_tables=1)
    _with_categories(event, club_a)
    for category in Category.objects.filter(event=event).exclude(kind="youth"):  # no members
        for slug in ONE:
            text = "\n".join(_pdf(slug, category)[2])
            assert "VORLÄUFIG" in text, (slug, category.name)


def test_members_waiting_for_every_sheet_follow_unranked(club_a):
    """No sheet confirmed yet: the category's members are listed without rank, marked, and
    nobody else is."""
    event = generated(club_a, 12, series=1, rounds=1, confirmed_series=0, entered_tables=1)
    _with_categories(event, club_a)
    women = Category.objects.get(event=event, kind="women")
    from tournaments.categories import category_members

    members = category_members(event)[women.pk]
    names = {p.pk: f"{p.player.given_name} {p.player.family_name}"
             for p in event.participants.select_related("player")}  # fmt: skip
    with translation.override("de"):
        book = read_xlsx(render_export("category-standing", women, "xlsx")[0])
    rows = [[c.value for c in r] for r in book["Damen"].iter_rows(min_row=2)]
    assert sorted(r[1] for r in rows) == sorted(names[pid] for pid in members)
    assert all(r[0] is None and r[-1] == "S1" for r in rows)
    assert "VORLÄUFIG" in "\n".join(_pdf("category-standing", women)[2])


def test_a_category_print_reads_a_fixed_number_of_queries(club_a, django_assert_num_queries):
    """The same queries for 12 players as for 24: the standing, the pending sheets and the
    category's members are each read once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    exporter = EXPORTERS["category-standing"]

    def women_of(players, seed):
        event = generated(club_a, players, series=2, rounds=1, seed=seed)
        _with_categories(event, club_a, username=f"cat_boss_{players}")
        return Category.objects.select_related("event__club").get(event=event, kind="women")

    small, large = women_of(12, 31), women_of(24, 32)
    with CaptureQueriesContext(connection) as queries:
        (table,) = exporter.tables(small)
    assert table.rows and len(queries) <= 15
    with django_assert_num_queries(len(queries)):
        (table,) = exporter.tables(large)
    assert len(table.rows) > 6


# ----- who may print a category --------------------------------------------------------------


def _urls(category):
    for slug in ONE:
        for fmt in EXPORTERS[slug].formats:
            yield slug, fmt, reverse("exports:export", args=["category", category.pk, slug, fmt])


def test_who_may_print_a_category(client, club_a, club_b, viewer_a, scorer_a, event):
    category = Category.objects.get(event=event, kind="seniors")
    outsiders = [
        user_with_role(club_b, "organiser", username="org_b_cats"),
        user_with_role(club_b, "viewer", username="viewer_b_cats"),
    ]
    organiser = director(club_a, username="cat_org")
    login = reverse("login")
    seen = set()
    for slug, fmt, url in _urls(category):
        client.logout()
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(login)
        # The club's viewers do not see unpublished series: nor these prints (as the
        # series prints); other clubs' users never.
        for user in (viewer_a, *outsiders):
            client.force_login(user)
            assert client.get(url).status_code in (403, 404), (slug, fmt, user.username)
        for user in (scorer_a, organiser):
            client.force_login(user)
            response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
            assert response.status_code == 200, (slug, fmt, user.username)
        seen.add(fmt)
        if fmt == "html":
            assert "Senioren ab 60" in response.content.decode()
    assert seen == {"pdf", "xlsx", "html"}


def test_the_category_menu_and_the_events_menu(client, club_a, event):
    client.force_login(director(club_a, username="cat_menu"))
    women = Category.objects.get(event=event, kind="women")
    page = client.get(reverse("exports:menu", args=["event", event.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert reverse("exports:menu", args=["category", women.pk]) in page.content.decode()
    menu = client.get(
        reverse("exports:menu", args=["category", women.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    html = menu.content.decode()
    assert menu.status_code == 200 and "Damen" in html and event.name in html
    for slug, fmt, url in _urls(women):
        assert url in html, (slug, fmt)
    assert "Kategoriewertung für den Aushang (A3)" in html


def test_a_category_job_runs_for_its_reader_only(client, club_a, club_b, event):
    organiser = director(club_a, username="cat_job")
    women = Category.objects.get(event=event, kind="women")
    client.force_login(organiser)
    url = reverse("exports:job_start", args=["category", women.pk, "category-standing", "pdf"])
    response = client.post(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 202
    status = client.get(response.json()["status_url"]).json()
    assert status["state"] == "done"
    download = client.get(status["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    client.force_login(user_with_role(club_b, "organiser", username="org_b_job"))
    assert client.get(response.json()["status_url"]).status_code == 404
    assert client.post(url).status_code in (403, 404)


def test_an_unknown_category_is_404(client, club_a, event, club_b):
    client.force_login(director(club_a, username="cat_404"))
    highest = Category.objects.order_by("-pk").first().pk
    for pk in (highest + 1, highest + 1000):
        for slug, fmt, _url in _urls(Category(pk=pk)):
            url = reverse("exports:export", args=["category", pk, slug, fmt])
            assert client.get(url).status_code == 404, url
        assert client.get(reverse("exports:menu", args=["category", pk])).status_code == 404
    # An event's exporter is not one of a category (and the other way round).
    women = Category.objects.get(event=event, kind="women")
    wrong = [
        ("category", women.pk, "category-standings", "pdf"),
        ("event", event.pk, "category-standing", "pdf"),
        ("category", women.pk, "category-standing-wall", "xlsx"),
    ]
    for args in wrong:
        assert client.get(reverse("exports:export", args=args)).status_code == 404, args
    # A category of another club's event: refused, never printed.
    other = generated(club_b, 8, series=1, rounds=1, seed=5)
    boss_b = director(club_b, username="cat_boss_b")
    foreign = cat_services.add_category(boss_b, other, "Fremd")
    url = reverse("exports:export", args=["category", foreign.pk, "category-standing", "pdf"])
    assert client.get(url).status_code in (403, 404)


# ----- the links beside the standings page's category tabs ---------------------------------


def _category_links(html: str) -> list[str]:
    return re.findall(r'class="scope-print" href="(/exports/category/[^"]+)"', html)


def test_each_category_tab_prints_its_own_category(client, club_a, event):
    client.force_login(director(club_a, username="cat_viewer"))
    url = reverse("standings:event", args=[event.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Kategorien" in page
    categories = list(Category.objects.filter(event=event).order_by("order", "name"))
    expected = []
    for category in categories:
        expected += [f"/exports/category/{category.pk}/category-standing.pdf",
                     f"/exports/category/{category.pk}/category-standing-wall.pdf"]  # fmt: skip
        assert f'title="{category.name}: Drucken (PDF)"' in page
    assert _category_links(page) == expected
    # One click: the link beside the seniors' tab prints the table that tab shows.
    seniors = Category.objects.get(event=event, kind="seniors")
    response = client.get(url, {"category": seniors.pk}, HTTP_ACCEPT_LANGUAGE="de")
    cut = response.context["category"]
    assert cut.category.id == seniors.pk
    assert [r["rank"] for r in response.context["table"].data.data] == [r.rank for r in cut.rows]
    pdf = client.get(f"/exports/category/{seniors.pk}/category-standing.pdf")
    assert pdf.status_code == 200
    with translation.override("de"):
        _rows_in_order("\n".join(page_texts(pdf.content)), cut)


def test_no_category_print_beside_a_series_tab_nor_for_viewers(client, club_a, viewer_a, event):
    client.force_login(director(club_a, username="cat_series"))
    url = reverse("standings:event", args=[event.pk])
    html = client.get(url, {"scope": "series", "n": 1}).content.decode()
    assert _category_links(html) == [] and "/exports/series/" in html
    client.force_login(viewer_a)
    assert _category_links(client.get(url).content.decode()) == []


def test_the_all_categories_file_stays_in_the_events_menu(client, club_a, event):
    client.force_login(director(club_a, username="cat_all"))
    html = client.get(reverse("exports:menu", args=["event", event.pk])).content.decode()
    assert reverse("exports:export", args=["event", event.pk, "category-standings", "pdf"]) in html
