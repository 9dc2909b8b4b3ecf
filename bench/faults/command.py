"""Faults a server meets, tried for real (issues 18, 26, 28); needs root (a PostgreSQL
cluster, a tmpfs).

    python -m bench faults                  # both parts, 50 saves per PostgreSQL fault
    python -m bench faults --short          # fewer saves, shorter outage, both parts at once
    python -m bench faults --part postgres  # A only (--part disk: B only)
    python -m bench faults --part disk --journal wal   # B with the SQLite file in WAL mode
    python -m bench faults --part hall      # C only: the hall mode (bench/faults/hall.py)
    python -m bench faults --part live      # D only: live replication (bench/faults/live.py)

A. PostgreSQL restarted during saves and B. a full or read-only disk under the laptop's SQLite
(bench/faults/database.py); C. the hall mode on a full and read-only disk
(bench/faults/hall.py); D. live replication through a cut network, restarts and a wrong clock
(bench/faults/live.py). Without --part each part runs in a process of its own (Django is set
up once per process and database); --short runs A to C side by side and D after them: part A
restarts the cluster D's server uses. Exit status 1 if any part's checks fail.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from bench.faults.database import (
    PARTS,
    PG_PORT,
    _pg_version,
    ensure_cluster,
    pg_ctl,
    run_disk,
    run_postgres,
)
from bench.rigs.serving import ROOT


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=PARTS, help="one part only")
    parser.add_argument("--saves", type=int, default=50, help="saves per PostgreSQL fault")
    parser.add_argument("--disk-saves", type=int, default=20, help="saves per disk fault")
    parser.add_argument("--scorers", type=int, default=4)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between a scorer's saves")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds before a resend")
    parser.add_argument("--outage", type=float, default=5.0, help="seconds PostgreSQL is down")
    parser.add_argument("--journal", default="delete", help="part B: SQLite journal_mode")
    parser.add_argument("--port", type=int, default=8300, help="gunicorn; runserver on +1")
    parser.add_argument("--hall-tables", type=int, default=6, help="part C: tables of phones")
    parser.add_argument("--hall-port", type=int, default=8210, help="part C: the hall's port")
    parser.add_argument("--short", action="store_true", help="fewer saves, shorter outage")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        raise SystemExit("bench faults needs root: it creates a PostgreSQL cluster and a tmpfs")
    if args.short:
        args.saves, args.disk_saves, args.scorers, args.outage, args.pace = 16, 6, 3, 2.0, 0.15
        args.hall_tables = 3
    sys.path.insert(0, str(ROOT))
    if args.part == "postgres":
        return run_postgres(args)
    if args.part == "disk":
        return run_disk(args)
    if args.part == "hall":
        from bench.faults.hall import run_hall

        return run_hall(args)
    if args.part == "live":
        from bench.faults.live import run_live

        cluster = argparse.Namespace(port=PG_PORT, version=_pg_version(), ensure=ensure_cluster,
                                     ctl=pg_ctl)  # fmt: skip
        return run_live(args, cluster)
    # Each part in a process of its own (Django is set up once per process and database);
    # --short runs them side by side, their tables printed one after the other.
    argv = sys.argv[1:] if argv is None else list(argv)

    def start(part: str) -> subprocess.Popen:
        command = [sys.executable, "-m", "bench", "faults", *argv, "--part", part]
        return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)

    # Part D after the others: part A restarts and stops the cluster that D's server uses.
    together = [part for part in PARTS if part != "live"] if args.short else []
    running = [start(part) for part in together]
    code = 0
    for part in PARTS:
        process = running.pop(0) if part in together else start(part)
        out, _ = process.communicate()
        print(out, end="", flush=True)
        code = max(code, process.returncode)
    return code
