"""The read paths on SQLite and PostgreSQL at the same moment: ``python -m bench db-side-by-side``.

    python -m bench db-side-by-side [--rounds 6] [--per-round 4] [--only "JSON"]

``python -m bench --db sqlite,postgresql`` runs one database after the other; on a machine
shared with other work the load changes between the two runs, and the ratio with it. Here
one process per database builds the large event and the season (bench.rigs.harness, fresh
databases; PostgreSQL is BENCH_POSTGRES_URL as in bench.timing.compare), then the parent asks
them in turn for a few requests of each read path, alternating which goes first, so both
see the same load. Per path: median wall time, the ratio, the Python process's CPU time
(``time.process_time``) and, for PostgreSQL, the server backend's CPU time from
/proc/<pid>/stat (same machine only; 10 ms ticks, so a mean over the requests).

``--pin apart`` puts the PostgreSQL backend on the last core and every Python process on the
first; ``--pin same`` puts them all on the first core: what the scheduler's placement of
the two processes (a shared core's caches, a wake-up on the other core) adds to the ratio.
Linux only, with PostgreSQL on the same machine (its backend's pid is pinned).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from bench.timing.compare import DATABASES, ROOT


def _pin(how: str | None, connection=None) -> None:
    """This process, and the PostgreSQL backend of ``connection``, on the cores ``how`` says."""
    if how is None:
        return
    from bench.timing.db_profile import backend_pid

    cores = os.sched_getaffinity(0)
    first, last = min(cores), max(cores)
    os.sched_setaffinity(0, {first})
    if connection is not None and connection.vendor == "postgresql":
        os.sched_setaffinity(backend_pid(connection), {first if how == "same" else last})


def _serve() -> int:
    from bench.rigs.harness import setup_django, teardown_django

    setup_django()
    try:
        from django.db import connection

        from bench.timing.db_profile import _server_cpu_ms, director_reads

        client, paths = director_reads("side-by-side")
        _pin(os.environ.get("BENCH_PIN") or None, connection)
        for path in paths.values():
            for _ in range(3):
                assert client.get(path).status_code == 200, path
        print(json.dumps(list(paths)), flush=True)
        for line in sys.stdin:
            label, count = line.rstrip("\n").split("\t")
            out = []
            for _ in range(int(count)):
                server = _server_cpu_ms(connection) or 0.0
                wall, cpu = time.perf_counter(), time.process_time()
                client.get(paths[label])
                out.append(
                    (
                        (time.perf_counter() - wall) * 1000,
                        (time.process_time() - cpu) * 1000,
                        (_server_cpu_ms(connection) or 0.0) - server,
                    )
                )
            print(json.dumps(out), flush=True)
    finally:
        teardown_django()
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--per-round", type=int, default=4)
    parser.add_argument("--only", help="read paths whose name contains this")
    parser.add_argument("--pin", choices=("apart", "same"), help="see the module's docstring")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return _serve()
    names = ("sqlite", "postgresql")
    print("building the data on both databases ...", flush=True)
    workers = {
        name: subprocess.Popen(
            [sys.executable, "-m", "bench", "db-side-by-side", "--serve"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": DATABASES[name], "BENCH_PIN": args.pin or ""},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for name in names
    }
    labels = None
    for worker in workers.values():
        labels = json.loads(worker.stdout.readline())
    _pin(args.pin)  # after the workers' start: they would inherit it while building
    if args.only:
        labels = [label for label in labels if args.only in label]
    load = os.getloadavg()[0]
    results = {(label, name): [] for label in labels for name in names}
    for round_ in range(args.rounds):
        for label in labels:
            for name in names if round_ % 2 == 0 else reversed(names):
                workers[name].stdin.write(f"{label}\t{args.per_round}\n")
                workers[name].stdin.flush()
                results[(label, name)] += json.loads(workers[name].stdout.readline())
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()
    pinned = "" if args.pin is None else f", pinned {args.pin}"
    print(f"\nload average {load:.1f} -> {os.getloadavg()[0]:.1f}; {args.rounds} x "
          f"{args.per_round} requests per path and database, alternating{pinned}\n")  # fmt: skip
    head = ("read path", "SQLite ms", "PG ms", "ratio", "SQLite CPU ms",
            "PG CPU ms: client + server", "CPU ratio")  # fmt: skip
    widths = (21, 9, 7, 5, 13, 26, 9)
    print("| " + " | ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for label in labels:
        lite, pg = results[(label, "sqlite")], results[(label, "postgresql")]
        lite_wall, pg_wall = (statistics.median(x[0] for x in r) for r in (lite, pg))
        lite_cpu, pg_cpu = (statistics.median(x[1] for x in r) for r in (lite, pg))
        server = statistics.mean(x[2] for x in pg)
        both = f"{pg_cpu:.1f} + {server:.1f} = {pg_cpu + server:.1f}"
        cells = (label, f"{lite_wall:.1f}", f"{pg_wall:.1f}", f"{pg_wall / lite_wall:.2f}",
                 f"{lite_cpu:.1f}", both, f"{(pg_cpu + server) / lite_cpu:.2f}")  # fmt: skip
        print("| " + " | ".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True)) + " |")
    return 0
