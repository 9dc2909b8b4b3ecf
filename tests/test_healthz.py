"""/healthz: JSON for a monitor, 200 when all is well, 503 when a check fails."""

import sqlite3
from unittest import mock

import pytest
from django.test import Client

from romme import health
from tests.test_faults import failing_sql

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(settings, tmp_path):
    settings.EXPORTS_JOB_DIR = tmp_path / "jobs"
    return Client(raise_request_exception=False)


def test_healthy(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "cache", "disk", "jobs"}
    assert all(check["ok"] for check in body["checks"].values())
    assert body["checks"]["disk"]["jobs"]["free_mb"] > 0
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
    assert disk["ok"] is False and disk["jobs"]["ok"] is False


def test_cache_broken(client):
    with mock.patch.object(health.cache, "get", return_value=None):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache"]["ok"] is False


def test_jobs_folder_not_writable(client, settings, tmp_path):
    with mock.patch("pathlib.Path.write_bytes", side_effect=PermissionError(13, "denied")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["jobs"] == {
        "ok": False,
        "error": "PermissionError",
        "ms": response.json()["checks"]["jobs"]["ms"],
    }


def test_only_get(client):
    assert client.post("/healthz").status_code == 405
