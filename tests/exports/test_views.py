import pytest
from django.urls import reverse

from tests.exports.conftest import pdf_text, read_xlsx

pytestmark = pytest.mark.django_db


def export_url(scope, pk, slug, fmt):
    return reverse("exports:export", args=[scope, pk, slug, fmt])


def test_urls_have_the_documented_shape(series_a):
    assert export_url("series", 7, "seating", "pdf") == "/exports/series/7/seating.pdf"
    assert reverse("exports:menu", args=["club", 3]) == "/exports/club/3/"


def test_viewer_downloads_every_format(client, viewer_a, scorer_a, club_a, series_a):
    client.force_login(viewer_a)
    response = client.get(export_url("club", club_a.pk, "players", "xlsx"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert read_xlsx(response.content).active["B2"].value
    response = client.get(export_url("series", series_a.pk, "seating", "pdf"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "Müller, Jürgen" in pdf_text(response.content)
    # Score sheets carry the seat codes of the table links: scorers print them.
    assert client.get(export_url("series", series_a.pk, "score-sheets", "html")).status_code == 403
    client.force_login(scorer_a)
    response = client.get(export_url("series", series_a.pk, "score-sheets", "html"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "print.css" in page and "data-print" in page and "Müller, Jürgen" in page
    assert "http://testserver/series/" in page or "/exports/s/" in page


def test_menu_lists_exports_with_three_formats(
    client, viewer_a, scorer_a, series_a, event_a, club_a
):
    client.force_login(viewer_a)
    menu = reverse("exports:menu", args=["series", series_a.pk])
    page = client.get(menu).content.decode()
    for fmt in ("xlsx", "pdf", "html"):
        assert export_url("series", series_a.pk, "seating", fmt) in page
        assert export_url("series", series_a.pk, "score-sheets", fmt) not in page  # seat codes
    client.force_login(scorer_a)
    page = client.get(menu).content.decode()
    for fmt in ("xlsx", "pdf", "html"):
        assert export_url("series", series_a.pk, "score-sheets", fmt) in page
    client.force_login(viewer_a)
    assert "js/exports.js" in page
    club_page = client.get(reverse("exports:menu", args=["club", club_a.pk])).content.decode()
    assert export_url("club", club_a.pk, "players", "xlsx") in club_page
    event_page = client.get(reverse("exports:menu", args=["event", event_a.pk])).content.decode()
    assert reverse("exports:menu", args=["series", series_a.pk]) in event_page


def test_long_exports_are_offered_as_jobs(client, scorer_a, series_a):
    from tests.factories import seated_table

    for number in range(3, 6):
        seated_table(series_a, [], number=number)
    client.force_login(scorer_a)
    page = client.get(reverse("exports:menu", args=["series", series_a.pk])).content.decode()
    job_url = reverse("exports:job_start", args=["series", series_a.pk, "score-sheets", "pdf"])
    assert job_url in page and "data-export-job" in page


def test_viewer_of_another_club_gets_403(client, club_b, club_a, series_a):
    from tests.factories import user_with_role

    other = user_with_role(club_b, "organiser", username="org_b")
    client.force_login(other)
    urls = [
        export_url("club", club_a.pk, "players", "xlsx"),
        export_url("series", series_a.pk, "seating", "pdf"),
        export_url("series", series_a.pk, "score-sheets", "html"),
        reverse("exports:menu", args=["series", series_a.pk]),
        reverse("exports:menu", args=["club", club_a.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 403, url
    job_url = reverse("exports:job_start", args=["series", series_a.pk, "score-sheets", "pdf"])
    assert client.post(job_url).status_code == 403


def test_anonymous_is_sent_to_login(client, club_a, series_a):
    for url in (
        export_url("club", club_a.pk, "players", "xlsx"),
        reverse("exports:menu", args=["series", series_a.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_unknown_exporter_format_or_object_is_404(client, viewer_a, club_a, series_a):
    client.force_login(viewer_a)
    assert client.get(export_url("series", series_a.pk, "players", "xlsx")).status_code == 404
    assert client.get(export_url("series", 99999, "seating", "xlsx")).status_code == 404
    assert client.get(f"/exports/series/{series_a.pk}/seating.csv").status_code == 404


def test_sheet_code_leads_to_the_entry_page(client, viewer_a, series_a):
    from scoring.sheets.codes import parse_sheet_code, sheet_code

    code = sheet_code(series_a.pk, 2)
    assert parse_sheet_code(code) == (series_a.pk, 2)
    assert parse_sheet_code(code.lower()) == (series_a.pk, 2)
    assert sheet_code(1234, 12) == "YA-C"
    assert parse_sheet_code("nonsense") is None
    client.force_login(viewer_a)
    response = client.get(reverse("exports:sheet_code", args=[code]))
    assert response.status_code == 302
    assert response["Location"] == f"/series/{series_a.pk}/tables/2/sheet/"


def test_file_names_are_in_the_readers_language(client, viewer_a, scorer_a, event_a, series_a):
    """A German director downloads "…-serie-1-setzliste.xlsx", not the internal slug."""
    client.force_login(viewer_a)
    url = export_url("series", series_a.pk, "seating", "xlsx")
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de")["Content-Disposition"]
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")["Content-Disposition"]
    assert "serie-1-setzliste.xlsx" in german and "seating" not in german
    assert "series-1-seating-list.xlsx" in english
    client.force_login(scorer_a)  # the standings export holds unpublished series
    german = client.get(
        export_url("event", event_a.pk, "standings", "xlsx"), HTTP_ACCEPT_LANGUAGE="de"
    )["Content-Disposition"]
    assert "-wertung.xlsx" in german and "standings" not in german
