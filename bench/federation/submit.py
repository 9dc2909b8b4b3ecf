"""A 400-player event submitted to the federation end to end (issue 27, point 4 and 7:
"submitting a 400-player event end to end ≤ 20 s"): ``python -m bench federation-submit``
(the federation on SQLite) or ``--db postgres`` (PostgreSQL database ``bench_fedsubmit``
on 127.0.0.1, created and dropped).

The federation's installation runs as production does: gunicorn (2 workers) on
127.0.0.1:8752 and one task worker (``manage.py db_worker``). Its register holds the
event's clubs and players (so nothing waits for matching) and a club token. The sending
club is this process (``bench.rigs.harness``: a throw-away SQLite database) with
``bench.rigs.datasets.build("large")``: 400 players, 5 series, 10,000 hands, a 15 MB archive.

Per send, as ``manage.py submit_event`` does it: the archive read here
(`export_event`), the POST (answered "received"), then the status URL asked until the
state is no longer "received" (`federation.submissions.client.follow`). "new" sends carry
another event name each time (a new event imported there); "re-send" sends the same event
again with a corrected venue (its content replaced there, a new version). Reported per
kind: p50 and max of the whole (client start → taken in), the request (POST round trip on
the loopback, 15 MB through it), and the task (the worker's task row: started → finished).
Before each send the bench waits until the worker is idle: after taking an event in, it
prerenders the event's standings PDF (a task of its own on the same queue), which a send
right after would wait behind.
``--steps`` also times the task's steps in the federation's process (limits, archive
checks, matching and taking in) on one more arrival.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.rigs.production import create_server_db, drop_server_db, manage, production_env
from bench.rigs.serving import ROOT, wait_until_up

PORT = 8752
POSTGRES = "postgres://postgres@127.0.0.1:5432/bench_fedsubmit"
ORIGIN = "benchfedsubmit"

# Run on the federation's side: the clubs and players the large data set has (same
# numbers, names, birth years: bench.rigs.datasets), in a region, and a club token.
PREPARE = """
import datetime as dt, json
from bench.rigs.datasets import _clubs, _players
from federation.models import Affiliation, Association
from live.server.tokens import issue_token
clubs = _clubs(20, "L")
_players(400, clubs, "L")
national = Association.objects.create(name="Bund", short_name="B", kind="national")
region = Association.objects.create(name="Land", short_name="L", kind="regional", parent=national)
Affiliation.objects.create(club=clubs[0], association=region, since=dt.date(2024, 1, 1))
print(json.dumps({"token": issue_token(clubs[0], label="bench")[1]}))
"""

TASK_TIMES = """
import json
from django_tasks_db.models import DBTaskResult
rows = DBTaskResult.objects.filter(task_path="federation.submissions.jobs.read_submission")
print(json.dumps({r.args_kwargs["kwargs"]["submission_id"]: [r.status,
    (r.finished_at - r.started_at).total_seconds() if r.finished_at and r.started_at else None]
    for r in rows}))
"""

STEPS = """
import json, time
from federation.submissions import services as submissions
from federation.submissions import checks as submit_checks
from federation.submissions import jobs as submit_jobs
from federation.models import Submission
from clubs.models import Club
data = json.loads(open({path!r}).read())
club = Club.objects.get(short_name="L0")
row = submissions.store(None, club, data, origin={origin!r}, origin_event=999999)
out = {{}}
t = time.perf_counter(); submit_jobs.check_limits(row.data)
out["archive limits (check_limits)"] = time.perf_counter() - t
t = time.perf_counter(); plans = submit_checks.check_archive(row.data, club)
out["archive checks (validate)"] = time.perf_counter() - t
t = time.perf_counter(); taken = submissions.take(row.pk, plans)
out["matching + import + versions (take)"] = time.perf_counter() - t
out["state"] = taken.state
print(json.dumps(out))
"""


DB_PREFIX = "bench_fedsubmit"


def _server(db_url: str, log) -> tuple[dict, str, list[subprocess.Popen]]:
    env = production_env(db_url)
    env.pop("REDIS_URL", None)
    env.update(ALLOWED_HOSTS="127.0.0.1", FEDERATION_SUBMISSIONS_PER_MINUTE="100")
    manage(env, "migrate", "--verbosity", "0")
    token = json.loads(manage(env, "shell", "-c", PREPARE).splitlines()[-1])["token"]
    gunicorn = Path(sys.executable).with_name("gunicorn")
    processes = [
        subprocess.Popen(
            [str(gunicorn), "romme.wsgi", "--bind", f"127.0.0.1:{PORT}", "--workers", "2",
             "--timeout", "120", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=log, stderr=log,
        ),
        subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2",
             "--queue-name", "default"],
            cwd=ROOT, env=env, stdout=log, stderr=log,
        ),
    ]  # fmt: skip
    wait_until_up(processes[0], PORT, seconds=60)
    return env, token, processes


def _send(event, token: str, *, name: str | None, origin_event: int, venue: str) -> dict:
    """One send as `submit_client.submit` does it, timed in its parts."""
    from federation.submissions import client as submit_client
    from live.laptop import transport
    from scoring.archive.dump import export_event

    base = f"http://127.0.0.1:{PORT}"
    started = time.perf_counter()
    archive = export_event(event)
    if name:
        archive["event"]["name"] = name
    archive["event"]["venue"] = venue
    body = {"origin": ORIGIN, "event": origin_event, "archive": archive}
    posted = time.perf_counter()
    status, answer = transport.post_json(submit_client.endpoint(base), token, body, 120)
    request = time.perf_counter() - posted
    if status != 202:
        raise RuntimeError(f"the POST was answered {status}: {answer}")
    sent = submit_client.follow(base, token, answer["submission"], deadline=started + 300)
    return {
        "total": time.perf_counter() - started,
        "request": request,
        "export": posted - started,
        "state": sent.state,
        "message": sent.message,
        "submission": answer["submission"],
    }


def _busy(db_url: str) -> int:
    """Tasks waiting or running on the federation's worker."""
    query = (
        "SELECT count(*) FROM django_tasks_database_dbtaskresult "
        "WHERE status IN ('READY', 'RUNNING')"
    )
    if db_url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(db_url.removeprefix("sqlite:///"), timeout=30) as conn:
            return conn.execute(query).fetchone()[0]
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        return conn.execute(query).fetchone()[0]


def _idle(db_url: str, seconds: float = 300) -> float:
    """Wait until the worker is idle (after an import it prerenders the standings PDF of
    the 400 players): each send is timed alone. Returns the seconds waited."""
    started = time.monotonic()
    while _busy(db_url) and time.monotonic() - started < seconds:
        time.sleep(0.5)
    return time.monotonic() - started


def _stats(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} / {max(values):.2f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--runs", type=int, default=3, help="sends of each kind")
    parser.add_argument("--steps", action="store_true", help="time the task's steps too")
    args = parser.parse_args(argv)

    from bench.rigs.harness import OUT, setup_django, teardown_django

    setup_django()  # the sending club: SQLite under bench/out
    folder = OUT / "federation_submit"
    folder.mkdir(parents=True, exist_ok=True)
    if args.db == "postgres":
        db_url = POSTGRES
        create_server_db(db_url, DB_PREFIX)
    else:
        path = folder / "verband.sqlite3"
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        db_url = f"sqlite:///{path}"
    processes: list[subprocess.Popen] = []
    log = (folder / "server.log").open("wb")
    try:
        from bench.rigs.datasets import build

        t = time.perf_counter()
        event = build("large")
        env, token, processes = _server(db_url, log)
        print(f"prepared in {time.perf_counter() - t:.0f} s; federation on {args.db}")
        rows: dict[str, list[dict]] = {"new": [], "re-send": []}
        for run in range(args.runs):
            _idle(db_url)
            rows["new"].append(
                _send(event, token, name=f"Meisterschaft {run + 1}", origin_event=100 + run,
                      venue="Halle")
            )  # fmt: skip
        for run in range(args.runs):
            _idle(db_url)
            rows["re-send"].append(
                _send(event, token, name="Meisterschaft 1", origin_event=100,
                      venue=f"Halle {run + 2}")
            )  # fmt: skip
        tasks = json.loads(manage(env, "shell", "-c", TASK_TIMES).splitlines()[-1])
        load = os.getloadavg()
        print(f"\nFederation on {args.db}, {args.runs} sends each, load {load[0]:.1f} / "
              f"{load[1]:.1f} (1 / 5 min), 2 cores shared")  # fmt: skip
        print("| send | state | end to end p50 / max s | request p50 / max s | "
              "task p50 / max s | client export p50 s |")  # fmt: skip
        print("|---|---|---|---|---|---|")
        for kind, sends in rows.items():
            states = sorted({s["state"] for s in sends})
            task = [tasks[str(s["submission"])][1] or 0.0 for s in sends]
            print(
                f"| {kind} | {', '.join(states)} | {_stats([s['total'] for s in sends])} | "
                f"{_stats([s['request'] for s in sends])} | {_stats(task)} | "
                f"{statistics.median(s['export'] for s in sends):.2f} |"
            )
            bad = [s["message"] for s in sends if s["state"] != "imported"]
            if bad:
                print(f"  not taken in: {bad[0]}")
        if args.steps:
            archive_path = folder / "archive.json"
            from scoring.archive.dump import dumps, export_event

            archive = copy.deepcopy(export_event(event))
            archive["event"]["name"] = "Meisterschaft Schritte"
            archive_path.write_text(dumps(archive))
            code = STEPS.format(path=str(archive_path), origin=ORIGIN)
            steps = json.loads(manage(env, "shell", "-c", code).splitlines()[-1])
            print("\nthe task's steps in one process (s):")
            for label, value in steps.items():
                shown = f"{value:.2f}" if isinstance(value, float) else value
                print(f"  {label:<40} {shown}")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=60)
        log.close()
        if args.db == "postgres":
            drop_server_db(db_url, DB_PREFIX)
        teardown_django()
    text = (folder / "server.log").read_text(errors="replace")
    if "Traceback" in text:
        print(text[-3000:])
        return 1
    return 0
