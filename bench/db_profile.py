"""Where a database spends the read paths' time: ``python -m bench.db_profile``.

    python -m bench.db_profile                      # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/romme_bench python -m bench.db_profile

Builds the large event and the season (bench.datasets) on a fresh database, then for the
standings page, the standings JSON and the season page: the split of one request into
time inside the database driver (SQL execution and fetching rows), row conversion
(Django's converters) and the rest (ranking, templates), from cProfile; and on PostgreSQL
the plan of the standings aggregate (EXPLAIN ANALYZE).
"""

from __future__ import annotations

import cProfile
import pstats
import time

from bench.harness import setup_django, teardown_django

RUNS = 10
# (label, profile entries whose cumulative time counts as that part)
PARTS = {
    "driver (execute + fetch)": ("execute", "fetchall", "fetchmany", "fetchone", "wait"),
    "row conversion": ("apply_converters",),
}


def _split(stats: pstats.Stats) -> dict[str, float]:
    out = {}
    for label, names in PARTS.items():
        total = 0.0
        for (filename, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
            if name not in names:
                continue
            if label.startswith("driver") and not any(
                m in filename for m in ("sqlite3", "psycopg", "backends/utils")
            ):
                continue
            if label.startswith("driver") and "backends/utils" in filename and name != "execute":
                continue
            total = max(total, ct) if label.startswith("driver") else total + ct
        out[label] = total
    return out


def main() -> int:
    database = setup_django()
    try:
        return _run(database)
    finally:
        teardown_django()


def _run(database: str) -> int:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from bench.datasets import build
    from clubs.models import ClubRole

    print(f"{database}: building the large event and the season ...", flush=True)
    event, season = build("large"), build("season")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    user = get_user_model().objects.create_user("profile-director", password="x")
    for club in (event.club, season.club):
        ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.ORGANISER)
    client = Client(HTTP_ACCEPT_LANGUAGE="de", SERVER_NAME="localhost")
    client.force_login(user)
    paths = {
        "standings page": reverse("standings:event", args=[event.pk]),
        "standings JSON": reverse("standings:api", args=[event.pk]),
        "season page": reverse("standings:season", args=[season.pk]),
    }
    print(f"| {'read path':<15} | {'ms/request':>10} | {'driver ms':>9} | {'convert ms':>10} "
          f"| {'rest ms':>8} |")  # fmt: skip
    print("|" + "|".join("-" * n for n in (17, 12, 11, 12, 10)) + "|")
    for label, path in paths.items():
        for _ in range(3):
            assert client.get(path).status_code == 200
        profile = cProfile.Profile()
        started = time.perf_counter()
        profile.enable()
        for _ in range(RUNS):
            client.get(path)
        profile.disable()
        per_request = (time.perf_counter() - started) * 1000 / RUNS
        parts = {k: v * 1000 / RUNS for k, v in _split(pstats.Stats(profile)).items()}
        driver, convert = parts["driver (execute + fetch)"], parts["row conversion"]
        # cProfile inflates Python time; the split is what counts, not the absolute numbers.
        print(f"| {label:<15} | {per_request:>10.1f} | {driver:>9.1f} | {convert:>10.1f} "
              f"| {per_request - driver - convert:>8.1f} |")  # fmt: skip
    if connection.vendor == "postgresql":
        from django.test.utils import CaptureQueriesContext

        from scoring.standings import aggregate, selectors

        series = selectors._visible_series(event, only_published=False)

        with CaptureQueriesContext(connection) as captured:
            aggregate.aggregate([s for s in series if s["kind"] == "regular"])
        sql = captured.captured_queries[-1]["sql"]
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) " + sql)
            print("\nEXPLAIN ANALYZE of the standings aggregate:")
            print("\n".join(row[0] for row in cursor.fetchall()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
