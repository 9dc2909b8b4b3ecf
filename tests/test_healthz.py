"""/healthz: JSON for a monitor, 200 when all is well, 503 when a check fails."""

import sqlite3
from unittest import mock

import pytest
from django.test import Client

from romme import health
from tests.test_faults import failing_sql

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def test_healthy(client, django_assert_max_num_queries):
    # SELECT 1 (and the read-only check on PostgreSQL), one look at the task queue.
    with django_assert_max_num_queries(3):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "cache", "disk", "jobs"}
    assert all(check["ok"] for check in body["checks"].values())
    assert body["checks"]["disk"]["temp"]["free_mb"] > 0
    assert body["checks"]["jobs"]["waiting"] == 0
    # No paths, no settings, no user data: only kinds, numbers and booleans.
    text = response.content.decode()
    assert "/tmp" not in text and "/work" not in text and "SECRET" not in text


def test_no_login_needed_and_no_session(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert "sessionid" not in response.cookies


def test_database_down(client):
    with failing_sql(sqlite3.OperationalError("unable to open database file"), writes_only=False):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail"
    assert body["checks"]["database"] == {
        "ok": False,
        "error": "OperationalError",
        "ms": body["checks"]["database"]["ms"],
    }
    assert body["checks"]["cache"]["ok"] is True


def test_disk_almost_full(client, settings):
    settings.HEALTH_MIN_FREE_MB = 10**12  # more than any disk has
    response = client.get("/healthz")
    assert response.status_code == 503
    disk = response.json()["checks"]["disk"]
    assert disk["ok"] is False and disk["temp"]["ok"] is False


def test_cache_broken(client):
    with mock.patch.object(health.cache, "get", return_value=None):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache"]["ok"] is False


def test_a_task_waiting_too_long_means_no_worker(client):
    import datetime as dt

    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from scoring.exports.jobs import run_export_job

    result = run_export_job.enqueue("x" * 24)  # the database backend: it waits for a worker
    assert client.get("/healthz").json()["checks"]["jobs"]["waiting"] == 1
    an_hour_ago = timezone.now() - dt.timedelta(hours=1)
    DBTaskResult.objects.filter(id=result.id).update(enqueued_at=an_hour_ago)
    response = client.get("/healthz")
    assert response.status_code == 503
    jobs = response.json()["checks"]["jobs"]
    assert jobs["ok"] is False and jobs["error"] == "no_worker" and jobs["waiting"] == 1
    assert jobs["oldest_waiting_s"] >= 3600


def test_only_get(client):
    assert client.post("/healthz").status_code == 405
