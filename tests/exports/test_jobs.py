"""Long exports as tasks: queued in the database, rendered by a worker, read by any server."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scoring.exports import jobs
from scoring.models import ExportJob
from tests.exports.conftest import pdf_text, run_worker

pytestmark = pytest.mark.django_db


def start_url(series, slug="score-sheets", fmt="pdf"):
    return reverse("exports:job_start", args=["series", series.pk, slug, fmt])


def test_job_reports_progress_and_finishes(client, scorer_a, series_a):
    # Score sheets carry the seats' codes for phone entry: scorers and up export them.
    client.force_login(scorer_a)
    response = client.post(start_url(series_a), HTTP_ACCEPT="application/json")
    assert response.status_code == 202
    job = response.json()
    status = client.get(job["status_url"]).json()
    assert status["state"] == "done"
    assert status["done"] == status["total"] == 2 and status["percent"] == 100
    assert status["message"] == "Ready."
    download = client.get(status["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert "Score sheet – table 2" in pdf_text(b"".join(download.streaming_content))
    # The page without JavaScript shows the same.
    page = client.get(job["page_url"]).content.decode()
    assert status["download_url"] in page


def test_job_without_javascript_redirects_to_its_page(client, viewer_a, series_a):
    client.force_login(viewer_a)
    response = client.post(start_url(series_a, "seating", "xlsx"))
    assert response.status_code == 302 and "/exports/jobs/" in response["Location"]


def test_status_while_running_reads_page_x_of_y(client, scorer_a, series_a, monkeypatch):
    """A job caught mid-way: the row as the task writes it."""
    client.force_login(scorer_a)
    seen = []

    def slow_render(slug, obj, fmt, progress, base_url=""):
        progress(37, 100, "page")
        job_id = ExportJob.objects.get().pk
        seen.append(client.get(reverse("exports:job_status", args=[job_id])).json())
        return b"%PDF-1.7", "x.pdf", "application/pdf"

    monkeypatch.setattr(jobs, "render_export", slow_render)
    monkeypatch.setattr(jobs, "_WRITE_INTERVAL", 0)
    jobs.start_job(scorer_a, "score-sheets", series_a, "pdf")
    assert seen[0]["state"] == "running"
    assert seen[0]["message"] == "Page 37 of 100"
    assert seen[0]["percent"] == 37 and seen[0]["download_url"] is None


def test_jobs_belong_to_their_user_while_they_may_export(client, viewer_a, series_a, club_a):
    from clubs.models import ClubRole
    from tests.factories import user_with_role

    job_id = jobs.start_job(viewer_a, "seating", series_a, "xlsx")
    urls = [reverse(f"exports:{name}", args=[job_id]) for name in ("job", "job_status")]
    urls.append(reverse("exports:job_download", args=[job_id]))
    client.force_login(viewer_a)
    assert [client.get(url).status_code for url in urls] == [200, 200, 200]
    for other in (
        user_with_role(club_a, "organiser", username="org_a2"),  # same club, not theirs
        user_with_role(club_a.__class__.objects.create(name="Pik As Kiel"), "organiser"),
    ):
        client.force_login(other)
        assert [client.get(url).status_code for url in urls] == [404, 404, 404]
    # The owner who lost the role no longer sees the job or its file.
    ClubRole.objects.filter(user=viewer_a).delete()
    client.force_login(viewer_a)
    assert [client.get(url).status_code for url in urls] == [404, 404, 404]
    assert client.get("/exports/jobs/..%2F..%2Fetc/status/").status_code == 404
    assert client.get(reverse("exports:job_status", args=["x" * 24])).status_code == 404
    assert jobs.read_job("../../etc") is None and jobs.job_content("x" * 24) is None


def test_failed_job_says_so_in_german(client, viewer_a, series_a, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(jobs, "render_export", broken)
    job_id = jobs.start_job(viewer_a, "seating", series_a, "pdf")
    assert ExportJob.objects.get(pk=job_id).error == "RuntimeError"
    client.force_login(viewer_a)
    url = reverse("exports:job_status", args=[job_id])
    status = client.get(url, HTTP_ACCEPT_LANGUAGE="de").json()
    assert status["state"] == "failed" and status["download_url"] is None
    assert status["message"] == (
        "Der Export ist fehlgeschlagen. Bitte erneut versuchen "
        "oder der Turnierleitung Bescheid geben."
    )
    assert client.get(reverse("exports:job_download", args=[job_id])).status_code == 404


def test_a_job_gone_quiet_reads_as_interrupted(client, viewer_a, series_a, database_tasks):
    job_id = jobs.start_job(viewer_a, "seating", series_a, "xlsx")  # no worker runs
    client.force_login(viewer_a)
    url = reverse("exports:job_status", args=[job_id])
    status = client.get(url, HTTP_ACCEPT_LANGUAGE="de").json()
    assert status["state"] == "queued"
    assert status["message"] == "Wartet auf einen freien Hintergrunddienst …"
    quiet = timezone.now() - jobs.STALE - dt.timedelta(seconds=1)
    ExportJob.objects.filter(pk=job_id).update(updated_at=quiet)
    status = client.get(url, HTTP_ACCEPT_LANGUAGE="de").json()
    assert status["state"] == "failed" and "Hintergrunddienst" in status["message"]


@pytest.mark.django_db(transaction=True)
def test_old_jobs_and_their_task_results_are_removed(viewer_a, series_a, database_tasks):
    old = jobs.start_job(viewer_a, "seating", series_a, "xlsx")
    run_worker()
    two_hours_ago = timezone.now() - dt.timedelta(hours=2)
    ExportJob.objects.filter(pk=old).update(updated_at=two_hours_ago)
    DBTaskResult.objects.update(finished_at=two_hours_ago)
    new = jobs.start_job(viewer_a, "seating", series_a, "xlsx")
    assert list(ExportJob.objects.values_list("pk", flat=True)) == [new]
    assert DBTaskResult.objects.count() == 1  # the new job's task, waiting


@pytest.mark.django_db(transaction=True)
def test_a_worker_renders_and_two_app_servers_answer(club_a, series_a, database_tasks):
    """The real thing: the database backend, a worker run, two servers' clients polling."""
    from tests.factories import user_with_role

    user = user_with_role(club_a, "scorer", username="two-servers")
    first, second = Client(), Client()
    first.force_login(user)
    second.force_login(user)  # another session, as on another app server
    response = first.post(
        start_url(series_a), HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    job = response.json()
    assert second.get(job["status_url"]).json()["state"] == "queued"
    task = DBTaskResult.objects.get()
    assert task.status == TaskResultStatus.READY
    assert task.task_path == "scoring.exports.jobs.run_export_job"
    run_worker()
    task.refresh_from_db()
    assert task.status == TaskResultStatus.SUCCESSFUL
    for client in (first, second):
        status = client.get(job["status_url"]).json()
        assert status["state"] == "done" and status["done"] == status["total"] == 2
    download = second.get(status["download_url"])
    assert download.status_code == 200
    content = b"".join(download.streaming_content)
    assert "Score sheet – table 2" in pdf_text(content)
    assert content == b"".join(first.get(status["download_url"]).streaming_content)


@pytest.mark.django_db(transaction=True)
def test_a_task_that_fails_in_the_worker(client, viewer_a, series_a, database_tasks):
    job_id = jobs.start_job(viewer_a, "seating", series_a, "pdf")
    series_a.delete()  # gone before the worker came to it
    run_worker()
    assert DBTaskResult.objects.get().status == TaskResultStatus.FAILED
    client.force_login(viewer_a)
    job = jobs.read_job(job_id)
    assert job.state == "failed" and job.error == "DoesNotExist"
    assert client.get(reverse("exports:job_status", args=[job_id])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_job_started_in_german_renders_german(client, scorer_a, series_a, database_tasks):
    # The worker renders in the language of the request that started the job.
    client.force_login(scorer_a)
    url = reverse("exports:job_start", args=["event", series_a.event.pk, "standings", "pdf"])
    response = client.post(url, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 202
    with translation.override("en"):  # the worker's own language does not matter
        run_worker()
    job_id = response.json()["id"]
    assert jobs.read_job(job_id).state == "done"
    text = pdf_text(jobs.job_content(job_id)).replace("\n", " ")
    assert "Wertung (alle bestätigten Spiellisten)" in text
    assert "Standings (all confirmed sheets)" not in text
    assert "Seite 1 von" in text
