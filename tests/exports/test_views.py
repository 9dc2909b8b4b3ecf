import os
import time

import pytest
from django.urls import reverse

from scoring.exports import jobs
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


def test_job_reports_progress_and_finishes(client, scorer_a, series_a):
    client.force_login(scorer_a)
    url = reverse("exports:job_start", args=["series", series_a.pk, "score-sheets", "pdf"])
    response = client.post(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 202
    job = response.json()
    status = client.get(job["status_url"]).json()
    assert status["state"] == "done"
    assert status["done"] == status["total"] == 2 and status["percent"] == 100
    assert status["message"] == "Ready."
    download = client.get(status["download_url"])
    assert download.status_code == 200
    content = b"".join(download.streaming_content)
    assert "Score sheet – table 2" in pdf_text(content)
    # The page without JavaScript shows the same.
    page = client.get(job["page_url"]).content.decode()
    assert status["download_url"] in page


def test_job_without_javascript_redirects_to_its_page(client, viewer_a, series_a):
    client.force_login(viewer_a)
    url = reverse("exports:job_start", args=["series", series_a.pk, "seating", "xlsx"])
    response = client.post(url)
    assert response.status_code == 302 and "/exports/jobs/" in response["Location"]


def test_status_while_running_reads_page_x_of_y(client, viewer_a, series_a, settings):
    """A job caught mid-way: the status file as the rendering thread writes it."""
    client.force_login(viewer_a)
    seen = []

    def slow_render(slug, obj, fmt, progress, base_url=""):
        progress(37, 100, "page")
        seen.append(client.get(reverse("exports:job_status", args=[job_ids[0]])).json())
        return b"%PDF-1.7", "x.pdf", "application/pdf"

    job_ids = []
    original_token = jobs.secrets.token_urlsafe

    def token(n):
        job_ids.append(original_token(n))
        return job_ids[-1]

    import scoring.exports.jobs as jobs_module

    mp = pytest.MonkeyPatch()
    mp.setattr(jobs_module, "render_export", slow_render)
    mp.setattr(jobs_module, "_WRITE_INTERVAL", 0)
    mp.setattr(jobs_module.secrets, "token_urlsafe", token)
    try:
        jobs.start_job(viewer_a, "score-sheets", series_a, "pdf")
    finally:
        mp.undo()
    assert seen[0]["state"] == "running"
    assert seen[0]["message"] == "Page 37 of 100"
    assert seen[0]["percent"] == 37 and seen[0]["download_url"] is None


def test_jobs_belong_to_their_user(client, viewer_a, series_a, club_a):
    from tests.factories import user_with_role

    job_id = jobs.start_job(viewer_a, "seating", series_a, "xlsx")
    other = user_with_role(club_a, "organiser", username="org_a2")
    client.force_login(other)
    assert client.get(reverse("exports:job_status", args=[job_id])).status_code == 404
    assert client.get(reverse("exports:job_download", args=[job_id])).status_code == 404
    assert client.get("/exports/jobs/..%2F..%2Fetc/status/").status_code == 404
    assert client.get(reverse("exports:job_status", args=["x" * 24])).status_code == 404
    assert jobs.read_status("../../etc") is None and jobs.result_path("..") is None


def test_failed_job_says_so(client, viewer_a, series_a, monkeypatch):
    import scoring.exports.jobs as jobs_module

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(jobs_module, "render_export", broken)
    job_id = jobs.start_job(viewer_a, "seating", series_a, "pdf")
    client.force_login(viewer_a)
    status = client.get(reverse("exports:job_status", args=[job_id])).json()
    assert status["state"] == "failed" and status["download_url"] is None


def test_old_jobs_are_removed_when_a_new_one_starts(viewer_a, series_a):
    old = jobs.start_job(viewer_a, "seating", series_a, "xlsx")
    folder = jobs.job_root() / old
    two_hours_ago = time.time() - 7200
    for path in [*folder.iterdir(), folder]:
        os.utime(path, (two_hours_ago, two_hours_ago))
    new = jobs.start_job(viewer_a, "seating", series_a, "xlsx")
    assert not folder.exists()
    assert jobs.read_status(new)["state"] == "done"


@pytest.mark.django_db(transaction=True)
def test_job_in_a_thread(client, settings, club_a, tmp_path):
    """The real thing: a background thread, polled until it is done."""
    from tests.exports.conftest import _participant
    from tests.factories import EventFactory, SeriesFactory, seated_table, user_with_role

    settings.EXPORTS_RUN_JOBS_INLINE = False
    event = EventFactory(club=club_a, name="Thread-Turnier")
    people = [_participant(event, club_a, "T", f"N{i}", f"T{i:03d}") for i in range(8)]
    series = SeriesFactory(event=event, number=1, planned_rounds=2)
    seated_table(series, people[:4], number=1)
    seated_table(series, people[4:], number=2)
    user = user_with_role(club_a, "scorer", username="threaded")
    client.force_login(user)
    url = reverse("exports:job_start", args=["series", series.pk, "score-sheets", "pdf"])
    job = client.post(url, HTTP_ACCEPT="application/json").json()
    deadline = time.time() + 60
    while True:
        status = client.get(job["status_url"]).json()
        if status["state"] in ("done", "failed") or time.time() > deadline:
            break
        time.sleep(0.1)
    assert status["state"] == "done"
    content = b"".join(client.get(status["download_url"]).streaming_content)
    assert "N4, T" in pdf_text(content)


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
