"""The bench's requests as a server runs them: the kept connection's prepared statements after
the warm-up, and the connection's health check at each request."""

import pytest
from django.core.signals import request_started
from django.db import connection, connections

from bench.rigs.harness import check_as_served, kept_connection_warmup

pytestmark = pytest.mark.django_db

SQL = "SELECT %s::integer + 4242"


def _prepared() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%+ 4242%"]
        )
        return cursor.fetchone()[0]


def test_after_the_warmup_a_statement_runs_prepared():
    warmup = kept_connection_warmup()
    if connection.vendor != "postgresql":
        assert warmup == 1  # nothing to prepare: SQLite's caches and Python's imports
        return
    with connection.cursor() as cursor:
        for _ in range(warmup - 1):
            cursor.execute(SQL, [1])
        assert _prepared() == 0  # one run short: the timed runs would still be planned
        cursor.execute(SQL, [1])
    assert _prepared() == 1


def _health_checks(client, monkeypatch, times: int) -> int:
    """How often the connection's health check ran in ``times`` requests of the test client."""
    database = connections["default"]  # the wrapper itself, not the proxy
    calls = []
    usable = database.is_usable
    monkeypatch.setattr(database, "is_usable", lambda: calls.append(1) or usable())
    enabled, database.health_check_enabled = database.health_check_enabled, True
    try:  # (CONN_HEALTH_CHECKS, as the settings ask)
        for _ in range(times):
            assert client.get("/healthz").status_code in (200, 503)  # it queries the database
    finally:
        database.health_check_enabled = enabled
    return len(calls)


def test_the_test_client_alone_skips_the_health_check(client, monkeypatch):
    connections["default"].ensure_connection()
    connections["default"].health_check_done = True
    assert _health_checks(client, monkeypatch, 3) == 0


def test_the_bench_runs_the_health_check_at_each_request_as_a_server_does(client, monkeypatch):
    connections["default"].ensure_connection()
    request_started.connect(check_as_served, dispatch_uid="test.check_as_served")
    try:
        assert _health_checks(client, monkeypatch, 3) == 3
    finally:
        request_started.disconnect(dispatch_uid="test.check_as_served")
    assert connections["default"].connection is not None  # checked, not closed
