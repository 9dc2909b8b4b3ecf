"""Timing, query counting and the table every benchmark prints.

Django-based benchmarks call `setup_django()` first: it points the default database at a
fresh SQLite file under bench/out/ (or at a fresh test database beside DATABASE_URL's) and
migrates, so a benchmark never touches real data.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "out"  # bench/out, ignored by git


@dataclass
class Measurement:
    operation: str
    size: str
    runs: int
    median_ms: float
    p95_ms: float
    queries: int | None = None
    budget_ms: float | None = None
    note: str = ""

    @property
    def verdict(self) -> str:
        if self.budget_ms is None:
            return "–"
        return "pass" if self.median_ms <= self.budget_ms else "FAIL"


def setup_django(name: str = "") -> str:
    """Configure Django on a throw-away database; returns the database's description.
    ``name`` names it (bench/out/<name>.sqlite3, or the PostgreSQL database <name>) where
    the default test database's name would clash with another bench's."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    os.environ.setdefault("DEBUG", "1")
    import django
    from django.conf import settings

    url = os.environ.get("DATABASE_URL", "")
    OUT.mkdir(exist_ok=True)
    if not url:
        path = OUT / f"{name or 'bench'}.sqlite3"
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    django.setup()
    from django.core.management import call_command
    from django.core.signals import request_started
    from django.db import connection

    if url:
        # A fresh test database next to the configured one, dropped by teardown_django().
        if name:
            connection.settings_dict["TEST"]["NAME"] = name
        connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    else:
        call_command("migrate", verbosity=0)
    settings.DEBUG = False  # keep Django from storing every query in memory while timing
    request_started.connect(check_as_served, dispatch_uid="bench.check_as_served")
    return f"{connection.vendor} ({connection.settings_dict['NAME']})"


def check_as_served(**_kwargs) -> None:
    """A served request's health check (`CONN_HEALTH_CHECKS`: on PostgreSQL a `SELECT 1`
    round trip before the request's first query), which Django's test client skips: it keeps
    `close_old_connections` off `request_started`. Only the check: the connection is kept."""
    from django.db import connections

    for database in connections.all(initialized_only=True):
        database.health_check_done = False


def teardown_django() -> None:
    from django.db import connection

    if connection.vendor != "sqlite":
        connection.creation.destroy_test_db(
            connection.settings_dict["NAME"], verbosity=0, keepdb=False
        )


def analyze() -> None:
    """PostgreSQL: the planner's statistics of the data a bench has just loaded, as
    autovacuum gathers them on a running server within a minute of a bulk load; without
    them it guesses a handful of rows where there are thousands (performance log, session
    18). SQLite gathers none unless told, as in the hall: nothing there."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def kept_connection_warmup() -> int:
    """Calls before timing a path as a server's kept connection runs it (CONN_MAX_AGE):
    psycopg prepares a statement on its run after `prepare_threshold` (romme/settings.py),
    so a new connection's first runs have PostgreSQL plan every statement afresh, which a
    server's connection did long before. One on SQLite (Python's and SQLite's caches)."""
    from django.db import connection

    threshold = connection.settings_dict.get("OPTIONS", {}).get("prepare_threshold")
    return 1 if threshold is None else threshold + 1


def director_client(username: str, *scopes):
    """A test client (German) logged in as ``username``, an organiser of the clubs of
    ``scopes`` (events, seasons); the user and roles are made if missing."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from clubs.models import ClubRole

    user, _created = get_user_model().objects.get_or_create(username=username)
    for scope in scopes:
        ClubRole.objects.get_or_create(user=user, club=scope.club, role=ClubRole.Role.ORGANISER)
    client = Client(HTTP_ACCEPT_LANGUAGE="de", SERVER_NAME="localhost")
    client.force_login(user)
    return client


def measure(
    operation: str,
    size: str,
    fn: Callable[[], object],
    *,
    runs: int = 20,
    warmup: int = 1,
    budget_ms: float | None = None,
    count_queries: bool = True,
    note: str = "",
) -> Measurement:
    """Time `fn` `runs` times after `warmup` calls; queries are counted on the last run."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs - 1 if count_queries else runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    queries = None
    if count_queries:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
        queries = len(captured.captured_queries)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return Measurement(
        operation, size, len(times), statistics.median(times), p95, queries, budget_ms, note
    )


def print_table(rows: list[Measurement], file=sys.stdout) -> str:
    header = (
        f"| {'operation':<40} | {'size':<8} | {'runs':>4} | {'median ms':>9} | {'p95 ms':>8} "
        f"| {'queries':>7} | {'budget ms':>9} | {'result':<6} | note"
    )
    lines = [header, "|" + "|".join("-" * (len(c) + 0) for c in header.split("|")[1:])]
    for m in rows:
        lines.append(
            f"| {m.operation:<40} | {m.size:<8} | {m.runs:>4} | {m.median_ms:>9.1f} "
            f"| {m.p95_ms:>8.1f} | {'' if m.queries is None else m.queries:>7} "
            f"| {'' if m.budget_ms is None else f'{m.budget_ms:g}':>9} | {m.verdict:<6} | {m.note}"
        )
    text = "\n".join(lines)
    print(text, file=file)
    return text
