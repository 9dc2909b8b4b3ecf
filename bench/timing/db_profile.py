"""Where a database spends the read paths' time: ``python -m bench db-profile``.

    python -m bench db-profile                      # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/romme_bench python -m bench db-profile
    python -m bench db-profile --explain            # also EXPLAIN ANALYZE the slowest queries
    python -m bench db-profile --queries --explain  # ... and EXPLAIN ANALYZE every one of them
    python -m bench db-profile --queries            # every query of each path, with its time

Builds the large event and the season (bench.rigs.datasets) on a fresh database, then for every
read path of the timing table (standings pages, public page, hall display, JSON, season
page) prints two tables:

* time: wall ms per request, the process's CPU ms (``time.process_time``) and the rest,
  wall minus CPU: on PostgreSQL the time the process waits for the server (on SQLite the
  database runs inside the process, so it is CPU), plus the time spent inside
  ``cursor.execute`` (Django's execute wrapper) and the query count;
* profile: one request's split under cProfile into the database driver (execute + fetch),
  Django's row conversion and the rest (ranking, templates); cProfile inflates the Python
  part, so read the split, not the absolute numbers.

``--explain`` (PostgreSQL) prints EXPLAIN ANALYZE of the slowest query of each path, with
``--queries`` of every query of each path.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import time

from bench.rigs.harness import setup_django, teardown_django

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


def backend_pid(connection) -> int:
    """The process id of this PostgreSQL connection's backend (asked once, then kept)."""
    pid = getattr(connection, "_bench_backend_pid", None)
    if pid is None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = connection._bench_backend_pid = cursor.fetchone()[0]
    return pid


def _server_cpu_ms(connection) -> float | None:
    """CPU time used so far by this connection's PostgreSQL backend (same machine only)."""
    if connection.vendor != "postgresql":
        return None
    pid = backend_pid(connection)
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) * 1000 / ticks


class _QueryClock:
    """An execute wrapper: time and SQL of every query run inside it."""

    def __init__(self):
        self.queries: list[tuple[float, str, tuple]] = []

    def __call__(self, execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.queries.append((time.perf_counter() - start, sql, params))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE (PostgreSQL)")
    parser.add_argument("--only", help="comma-separated read paths (substring match)")
    parser.add_argument("--queries", action="store_true", help="every query of the last request")
    args = parser.parse_args(argv)
    database = setup_django()
    try:
        return _run(database, args)
    finally:
        teardown_django()


def read_paths(event, season) -> dict[str, str]:
    from django.urls import reverse

    page = reverse("standings:event", args=[event.pk])
    api = reverse("standings:api", args=[event.pk])
    return {
        "standings page": page,
        "standings pairs": page + "?competition=pair",
        "standings provisional": page + "?provisional=1",
        "public page": reverse("standings:public", args=[event.pk]),
        "hall display": reverse("standings:display", args=[event.pk]),
        "JSON individual": api,
        "JSON teams s3": api + "?competition=team&series=3",
        "season page": reverse("standings:season", args=[season.pk]),
        "prize list": reverse("prizes:prize_list", args=[event.pk]),
    }


def director_reads(username: str):
    """The large event and the season built, statistics fresh, and a test client logged in
    as their director: (client, the read paths by label)."""
    from bench.rigs.datasets import build
    from bench.rigs.harness import analyze, director_client
    from prizes.demo import seed_prizes

    event, season = build("large"), build("season")
    client = director_client(username, event, season)
    # The demo's prize-giving (fees, categories, plan) on the large event: the prize list.
    seed_prizes(tournament=event)
    analyze()
    return client, read_paths(event, season)


def _run(database: str, args) -> int:
    from django.db import connection

    print(f"{database}: building the large event and the season ...", flush=True)
    client, paths = director_reads("profile-director")
    if args.only:
        wanted = [w.strip() for w in args.only.split(",")]
        paths = {k: v for k, v in paths.items() if any(w in k for w in wanted)}

    timing, profile_rows, slowest, every = [], [], {}, {}
    for label, path in paths.items():
        for _ in range(3):
            assert client.get(path).status_code == 200, path
        walls, cpus, in_execute = [], [], []
        server_start = _server_cpu_ms(connection)
        clock = _QueryClock()
        for _ in range(args.runs):
            clock.queries.clear()
            wall, cpu = time.perf_counter(), time.process_time()
            with connection.execute_wrapper(clock):
                client.get(path)
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            in_execute.append(sum(q[0] for q in clock.queries) * 1000)
        server_end = _server_cpu_ms(connection)
        server_ms = None if server_start is None or server_end is None else (
            (server_end - server_start) / args.runs)  # fmt: skip
        slowest[label] = max(clock.queries, key=lambda q: q[0])
        every[label] = list(clock.queries)
        wall_ms, cpu_ms = statistics.median(walls), statistics.median(cpus)
        timing.append((label, wall_ms, cpu_ms, wall_ms - cpu_ms, statistics.median(in_execute),
                       len(clock.queries), server_ms))  # fmt: skip

        profile = cProfile.Profile()
        started = time.perf_counter()
        profile.enable()
        for _ in range(args.runs):
            client.get(path)
        profile.disable()
        per_request = (time.perf_counter() - started) * 1000 / args.runs
        parts = {k: v * 1000 / args.runs for k, v in _split(pstats.Stats(profile)).items()}
        profile_rows.append((label, per_request, parts["driver (execute + fetch)"],
                             parts["row conversion"]))  # fmt: skip

    print(f"\nTime per request, median of {args.runs} ({database}):\n")
    print(f"| {'read path':<21} | {'wall ms':>7} | {'CPU ms':>6} | {'wall-CPU':>8} "
          f"| {'in execute ms':>13} | {'queries':>7} | {'server CPU ms':>13} |")  # fmt: skip
    print("|" + "|".join("-" * n for n in (23, 9, 8, 10, 15, 9, 15)) + "|")
    for label, wall_ms, cpu_ms, waited, executing, count, server_ms in timing:
        server = "" if server_ms is None else f"{server_ms:.1f}"
        print(f"| {label:<21} | {wall_ms:>7.1f} | {cpu_ms:>6.1f} | {waited:>8.1f} "
              f"| {executing:>13.1f} | {count:>7} | {server:>13} |")  # fmt: skip
    print(f"\ncProfile, {args.runs} requests each (inflates Python; read the split):\n")
    print(f"| {'read path':<21} | {'ms/request':>10} | {'driver ms':>9} | {'convert ms':>10} "
          f"| {'rest ms':>8} |")  # fmt: skip
    print("|" + "|".join("-" * n for n in (23, 12, 11, 12, 10)) + "|")
    for label, per_request, driver, convert in profile_rows:
        print(f"| {label:<21} | {per_request:>10.1f} | {driver:>9.1f} | {convert:>10.1f} "
              f"| {per_request - driver - convert:>8.1f} |")  # fmt: skip
    print("\nSlowest query of each path (last request):")
    for label, (seconds, sql, _params) in slowest.items():
        print(f"- {label}: {seconds * 1000:.1f} ms: {sql[:160]}")
    if args.queries:
        for label, queries in every.items():
            print(f"\nEvery query, {label} (last request):")
            for seconds, sql, _params in queries:
                print(f"  {seconds * 1000:6.2f} ms  {' '.join(sql.split())[:150]}")
    if args.explain and connection.vendor == "postgresql":
        # With --queries, every query of the last request; else the slowest of each path.
        chosen = {
            label: queries if args.queries else [slowest[label]] for label, queries in every.items()
        }
        for label, queries in chosen.items():
            for _seconds, sql, params in queries:
                with connection.cursor() as cursor:
                    cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) " + sql, params)
                    print(f"\nEXPLAIN ANALYZE, {label}: {' '.join(sql.split())[:80]}")
                    print("\n".join(row[0] for row in cursor.fetchall()))
    return 0
