"""Faults a server meets, tried for real (issue 18): PostgreSQL restarted during saves, and a
full or read-only disk under the laptop's SQLite. Needs root (a PostgreSQL cluster, a tmpfs).

Parts A and B live here; ``python -m bench faults`` (bench/faults/command.py) runs them.

A. Server mode. A cluster of its own ("faults" on port 5433, created if missing, trust auth
for local and 127.0.0.1; the main cluster on 5432 is never touched), a fresh database seeded
as bench.load does, gunicorn with production settings (DEBUG=0, CONN_MAX_AGE=60, health
checks on). A few scorers save whole sheets at a pace while the cluster is restarted (fast
shutdown), stopped for a few seconds and started, and stopped as by a crash (immediate).
B. Laptop mode. The SQLite database on a 40 MB tmpfs and `manage.py runserver` with DEBUG=1,
as `make run` serves it. Sheets are opened, the tmpfs filled, the sheets saved once each,
the filler deleted and the same saves sent again; then the tmpfs remounted read-only, the
sheets read and saved once each, remounted read-write and the saves sent again.
C. Hall mode (issue 26). `python -m romme.hall` with its data folder on a tmpfs, phones at the
tables entering hands through their table links while the disk is full and read-only
(bench/faults/hall.py says how and what it checks).
D. Live replication (issue 28). The hall mode sends its event through a TCP proxy to gunicorn
on the faults cluster while the network is cut mid-batch, the server and its PostgreSQL are
restarted, a batch arrives twice, the token is revoked, the laptop is killed and its clock is
wrong (bench/faults/live.py). --short runs it after the other parts: part A restarts the
cluster it uses.

The clients behave as the browser does: a save answered 503, or a dropped connection, is
sent again after a pause (the grid keeps its draft). Every answer is recorded. Exit status 1
on a 500, a 503 without the German page of its fault or without Retry-After, a save that
never lands, gunicorn workers replaced, or a failed database check: every acknowledged
sheet stored with the hands it was sent, every sheet's hands equal to its newest version's
grid and its versions complete, PRAGMA integrity_check ok.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

from bench.faults.desk import (
    OUT,
    Desk,
    check_answers,
    check_database,
    desk_for,
    fill,
    logged_in,
    print_causes,
    print_table,
    recovery,
    verdict,
)
from bench.load.shared import prepare
from bench.rigs.serving import ROOT, Client, start_gunicorn, wait_until_up, worker_pids

CLUSTER, PG_PORT = "faults", 5433
PARTS = ("postgres", "disk", "hall", "live")
HBA = "local all all trust\nhost all all 127.0.0.1/32 trust\n"


# ----- A: PostgreSQL restarted during saves -------------------------------------------------


def _pg_version() -> str:
    return sorted(os.listdir("/etc/postgresql"), key=float)[-1]


def pg_ctl(*args: str) -> None:
    """pg_ctlcluster for the faults cluster only (never "main")."""
    command = ["pg_ctlcluster", "--skip-systemctl-redirect", _pg_version(), CLUSTER, *args]
    subprocess.run(command, check=True, capture_output=True)


def ensure_cluster() -> None:
    """The faults cluster on port 5433, created if missing, trust auth, started."""
    version = _pg_version()
    listing = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=True)
    rows = [line.split() for line in listing.stdout.splitlines()]
    mine = [r for r in rows if r[:2] == [version, CLUSTER]]
    if not mine:
        if any(r[2] == str(PG_PORT) for r in rows):
            raise SystemExit(f"port {PG_PORT} belongs to another cluster")
        subprocess.run(["pg_createcluster", version, CLUSTER, "--port", str(PG_PORT)],
                       check=True, capture_output=True)  # fmt: skip
    elif mine[0][2] != str(PG_PORT):
        raise SystemExit(f"cluster {version}/{CLUSTER} is on port {mine[0][2]}, not {PG_PORT}")
    hba = Path(f"/etc/postgresql/{version}/{CLUSTER}/pg_hba.conf")
    online = bool(mine) and mine[0][3] == "online"
    if hba.read_text() != HBA:
        hba.write_text(HBA)
        if online:
            pg_ctl("reload")
    if not online:
        pg_ctl("start")


def _outage(seconds: float, mode: str):
    def fault() -> None:
        pg_ctl("stop", "-m", mode)
        time.sleep(seconds)
        pg_ctl("start")

    return fault


def run_postgres(args) -> int:
    ensure_cluster()
    url = f"postgres://postgres@127.0.0.1:{PG_PORT}/romme_faults"
    try:
        return _postgres_phases(args, url)
    finally:
        import psycopg
        from django.db import connections

        connections.close_all()
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "romme_faults" WITH (FORCE)')
        pg_ctl("stop")


AFTER_COMMIT = "restart between a save's commit and its answer"


def restart_after_commit(desk: Desk, client: Client, number: int, url: str) -> tuple:
    """One save whose answer waits for the session row (locked here) after the sheet's commit,
    and PostgreSQL ends its connection and restarts: the answer is a 503, the sheet is stored;
    the browser resends. The page is opened before the lock, so that only the save can meet
    it (a page may write the session too: the sheet page drops its "saved" note, the
    navigation renews its flag). The waiting connection is ended first, as a fast shutdown
    ends it: the shutdown alone ends every connection at once, and on a busy machine the
    locker's could end first and let the waiting write through (once in six runs of all parts).
    Returns (restart began, restart returned, what waited for the lock or None)."""
    import psycopg

    desk.phase = AFTER_COMMIT
    desk.open(client, number, random.Random(AFTER_COMMIT))
    if number not in desk.posted:
        now = time.monotonic()
        return now, now, None
    locker = psycopg.connect(url)
    locker.execute("LOCK TABLE django_session IN SHARE ROW EXCLUSIVE MODE")
    (thread,) = desk.run(AFTER_COMMIT, [client], [number], lambda c, n, _: desk.send(c, n),
                         wait=False)  # fmt: skip
    waiting = ("SELECT pid, query FROM pg_stat_activity "
               "WHERE wait_event_type = 'Lock' AND query LIKE %s")  # fmt: skip
    seen, deadline = None, time.monotonic() + 60
    with psycopg.connect(url, autocommit=True) as watcher:
        while seen is None and time.monotonic() < deadline and thread.is_alive():
            seen = watcher.execute(waiting, ['UPDATE "django_session"%']).fetchone()
            time.sleep(0 if seen else 0.02)
        started = time.monotonic()
        if seen:
            watcher.execute("SELECT pg_terminate_backend(%s)", [seen[0]])
    pg_ctl("restart", "-m", "fast")
    back = time.monotonic()
    locker.close()
    thread.join(timeout=600)
    return started, back, seen and seen[1]


def _postgres_phases(args, url: str) -> int:
    faults = {"restart (fast)": lambda: pg_ctl("restart", "-m", "fast"),
              f"stopped {args.outage:g} s": _outage(args.outage, "fast")}  # fmt: skip
    if not args.short:
        faults["crash (stop -m immediate), start"] = _outage(1.0, "immediate")
    event = prepare(url, args.scorers, -(-(len(faults) * args.saves + 1) // args.scorers), 0)
    base, failures, took = f"http://127.0.0.1:{args.port}", [], {}
    desk = desk_for(event, base, args)
    OUT.mkdir(exist_ok=True)
    log_path = OUT / "faults-gunicorn.log"
    with open(log_path, "w") as log:
        server = start_gunicorn(url, args.port, args.workers, log=log)
    try:
        workers = sorted(worker_pids(server.pid))
        clients = logged_in(base, args.scorers)
        numbers, logins = sorted(desk.sizes), []
        for p, (phase, fault) in enumerate(faults.items()):
            mine = numbers[p * args.saves : (p + 1) * args.saves]
            threads = desk.run(phase, clients, mine, desk.save, args.pace, wait=False)
            while desk.done < args.saves // 3 and any(t.is_alive() for t in threads):
                time.sleep(0.02)  # the fault comes a third into the phase's saves
            started = time.monotonic()
            # Someone not logged in yet arrives with the fault and tries until in.
            newcomer = threading.Thread(target=lambda p=p: logins.append(desk.newcomer(f"c{p}")))
            newcomer.start()
            fault()
            took[phase] = started, time.monotonic()
            for thread in [*threads, newcomer]:
                thread.join(timeout=600)
        started, back, waited = restart_after_commit(desk, clients[0], numbers[-1], url)
        took[AFTER_COMMIT] = started, back
        if waited is None:
            failures.append(f"{AFTER_COMMIT}: the save never waited for the session row, so the "
                            "restart did not come between its commit and its answer")  # fmt: skip
        if not all(logins):
            failures.append(f"a new user could not log in after a fault: {logins}")
        status, _ = Client(base).request("/healthz")
        if status != 200:
            failures.append(f"/healthz answered {status} after the faults")
        if sorted(worker_pids(server.pid)) != workers or server.poll() is not None:
            failures.append("gunicorn workers died or were replaced")
    finally:
        server.terminate()
        server.wait(timeout=30)
    failures += check_answers(desk, {})
    db_failures, lost = check_database(desk)
    rows = {phase: recovery([a for a in desk.answers if a.phase == phase]) for phase in took}
    first = next((a for a in desk.answers if a.phase == AFTER_COMMIT and a.method == "POST"), None)
    if first is None or first.status != 503:
        failures.append(f"{AFTER_COMMIT}: the save was answered {first}, not 503")
    if desk.outcome.get(numbers[-1]) != "saved":
        failures.append(f"{AFTER_COMMIT}: the resend was {desk.outcome.get(numbers[-1])}, "
                        "not answered as saved")  # fmt: skip
    print_table(f"PostgreSQL {_pg_version()} faults during saves: {args.saves} saves per fault, "
                f"{args.scorers} scorers, gunicorn {args.workers} workers, DEBUG=0",
                desk, rows, lost)  # fmt: skip
    # With CONN_HEALTH_CHECKS a worker's connection from before the fault is tested and
    # replaced: no request sent after PostgreSQL is back should fail.
    late = Counter(a.phase for a in desk.answers
                   if (a.status == 0 or a.status >= 500) and a.sent > took[a.phase][1])  # fmt: skip
    for phase, (started, back) in took.items():
        print(f"{phase}: pg_ctlcluster {back - started:.1f} s; requests sent after it "
              f"returned that failed: {late[phase]}")  # fmt: skip
    if late:
        failures.append(f"requests failed after PostgreSQL was back: {dict(late)}")
    print_causes(log_path)
    return verdict(failures + db_failures)


# ----- B: disk full and read-only under SQLite (the laptop) ---------------------------------


FULL, READ_ONLY = "disk full: read, save, log in", "read-only: read, save, log in"


def remount(folder: Path, mode: str) -> None:
    from django.db import connections

    connections.close_all()  # EBUSY while any process holds a file there open for writing
    for _ in range(50):
        command = ["mount", "-o", f"remount,{mode}", str(folder)]
        if subprocess.run(command, capture_output=True).returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError(f"cannot remount {folder} {mode}")


def run_disk(args) -> int:
    folder = Path(tempfile.mkdtemp(prefix="romme-faults-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=40m", "tmpfs", str(folder)], check=True)
    servers: list[subprocess.Popen] = []
    try:
        return _disk_phases(args, folder, servers)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
        remount(folder, "rw")
        for _ in range(50):
            if subprocess.run(["umount", str(folder)], capture_output=True).returncode == 0:
                break
            time.sleep(0.2)
        folder.rmdir()


def _disk_phases(args, folder: Path, servers: list) -> int:
    import sqlite3

    db = folder / "db.sqlite3"
    url, n = f"sqlite:///{db}", args.disk_saves
    port = args.port + 1
    event = prepare(url, args.scorers, -(-(2 * n + args.scorers) // args.scorers), 0)
    desk = desk_for(event, f"http://127.0.0.1:{port}", args)
    with closing(sqlite3.connect(db)) as raw:
        journal = raw.execute(f"PRAGMA journal_mode={args.journal}").fetchone()[0]
    OUT.mkdir(exist_ok=True)
    log_path = OUT / "faults-runserver.log"
    with open(log_path, "w") as log:
        # `make run`'s server: runserver with DEBUG=1; --noreload: one process to stop.
        env = {**os.environ, "DEBUG": "1", "DATABASE_URL": url}
        servers.append(subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT, env=env, stdout=log, stderr=log))  # fmt: skip
    wait_until_up(servers[0], port)
    clients = logged_in(desk.base, args.scorers)
    numbers = sorted(desk.sizes)
    before, full, readonly = numbers[: args.scorers], numbers[-2 * n : -n], numbers[-n:]

    def read_and_refused(client, number, _rng):
        desk.ask(client, desk.sheet(number))
        desk.send(client, number, tries=1)

    def resend(client, number, _rng):
        desk.send(client, number)

    desk.run("saves before", clients, before, desk.save)
    desk.run("saves before", clients, full + readonly, desk.open)  # pages open, grids typed
    filler = fill(folder)
    free = os.statvfs(folder).f_bavail
    desk.run(FULL, clients, full, read_and_refused)
    logins = [desk.newcomer("c0", tries=1)]  # refused: the session cannot be written
    filler.unlink()
    freed = time.monotonic()
    desk.run("disk freed: send again", clients, full, resend)
    logins.append(desk.newcomer("c0"))
    remount(folder, "ro")
    desk.run(READ_ONLY, clients, readonly, read_and_refused)
    logins.append(desk.newcomer("c1", tries=1))
    remount(folder, "rw")
    writable = time.monotonic()
    desk.run("rw again: send again", clients, readonly, resend)
    logins.append(desk.newcomer("c1"))

    expected = {FULL: "disk_full", READ_ONLY: "read_only"}
    failures = check_answers(desk, expected)
    if logins != [False, True, False, True]:
        failures.append(f"new users logged in (full, freed, read-only, rw): {logins}")
    for phase, kind in expected.items():
        posts = Counter(a.status for a in desk.answers if a.phase == phase and a.method == "POST")
        if set(posts) != {503}:
            failures.append(f"{phase}: saves answered {dict(posts)}, not 503 {kind}")
    for number in full + readonly:  # refused once, then saved: acknowledged exactly once
        if desk.outcome.get(number) != "saved":
            failures.append(f"table {number}: {desk.outcome.get(number)} after the fault")
    db_failures, lost = check_database(desk)
    with closing(sqlite3.connect(db)) as raw:
        integrity = raw.execute("PRAGMA integrity_check").fetchone()[0]
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")
    answers = {phase: [a for a in desk.answers if a.phase == phase] for phase in
               dict.fromkeys(a.phase for a in desk.answers)}  # fmt: skip
    since = {"disk freed: send again": freed, "rw again: send again": writable}
    rows = {p: "–" if p in expected else recovery(a, since.get(p)) for p, a in answers.items()}
    print_table(f"SQLite (journal_mode={journal}) on a 40 MB tmpfs, runserver DEBUG=1, "
                f"{args.scorers} scorers, {n} saves per fault", desk, rows, lost)  # fmt: skip
    reads = [dict(Counter(a.status for a in answers[p] if "/sheet/" in a.path and a.method ==
                          "GET")) for p in expected]  # fmt: skip
    print(
        f"free blocks when full: {free}; sheet pages read when full, read-only: {reads}; "
        f"integrity_check: {integrity}; files: {sorted(p.name for p in folder.iterdir())}"
    )
    print_causes(log_path)
    return verdict(failures + db_failures)
