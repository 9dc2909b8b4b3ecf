"""The bench's warm-up before timing a path: as a server's kept connection runs it."""

import pytest
from django.db import connection

from bench.rigs.harness import kept_connection_warmup

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
