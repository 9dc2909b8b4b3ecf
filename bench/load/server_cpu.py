"""CPU time spent on the server side of a load test, read from /proc (Linux): the gunicorn
masters and their workers, the PostgreSQL backends of one database, and Redis. On a
machine where the load generator shares the cores with the server, requests per second
depend on the client too; CPU seconds per request are the server's own cost."""

from __future__ import annotations

import os
import subprocess

from bench.rigs.serving import worker_pids

TICK = os.sysconf("SC_CLK_TCK")


def _pgrep(*args: str) -> list[int]:
    found = subprocess.run(["pgrep", *args], capture_output=True, text=True, check=False)
    return [int(pid) for pid in found.stdout.split()]


def server_pids(servers, database: str) -> list[int]:
    """gunicorn masters and workers, the backends serving ``database`` and redis-server."""
    pids = []
    for server in servers:
        pids += [server.pid, *map(int, worker_pids(server.pid))]
    # a backend's title: "postgres: 15/main: postgres <database> 127.0.0.1(port) idle"
    pids += _pgrep("-f", f"^postgres: .* {database} ")
    return pids + _pgrep("-x", "redis-server")


def snapshot(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) of each live process so far."""
    out = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        out[pid] = (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    return out


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two snapshots; a process started in between counts from 0."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
