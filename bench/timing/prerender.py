"""Click-to-file of the standings PDF after a confirmation 10 s earlier (issue 29 item 5):
``python -m bench prerender [--db sqlite|postgresql] [--runs 3] [--wait 10]``

A fresh database (SQLite in a temporary folder, or PostgreSQL: ``BENCH_POSTGRES_URL``,
default postgres://postgres@127.0.0.1:5432/bench_h5, dropped and created) with a
400-player event (4 series confirmed, series 5 entered at its 100 tables, 20 hands a
table, 100 pairs, 25 teams). gunicorn (production settings, 2 workers) and one
``db_worker`` run on 127.0.0.1 as ``make serve-prod`` starts them. Per run: a scorer
confirms the next entered sheet (in this process, through ``confirm_sheet``), the bench
waits ``--wait`` seconds, then the director's browser asks for the standings PDF
(``/exports/event/<id>/standings.pdf``, German) and the time until the last byte is the
figure. "before": nothing rendered ahead (STANDINGS_PRERENDER_SETTLE off; the click lays
the PDF out); "after": the worker renders it once the results settle (``prerender``).
Budget: 1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from bench.rigs import serving

PORT = 8351
BUDGET_S = 1.0
POSTGRES = "postgres://postgres@127.0.0.1:5432/bench_h5"


def _database(kind: str, tmp: str) -> str:
    if kind == "sqlite":
        return f"sqlite:///{Path(tmp) / 'prerender_bench.sqlite3'}"
    import psycopg

    url = os.environ.get("BENCH_POSTGRES_URL", POSTGRES)
    parsed = urllib.parse.urlparse(url)
    name = parsed.path.lstrip("/")
    with psycopg.connect(parsed._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url


def _prepare(db_url: str):
    os.environ["DATABASE_URL"] = db_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "romme.settings"
    os.environ["DEBUG"] = "1"  # this process only; the servers run with production settings
    sys.path.insert(0, str(serving.ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from bench.rigs.datasets import _clubs, _players
    from clubs.models import ClubRole
    from scoring.demo.generate import Plan, generate_event

    call_command("migrate", verbosity=0)
    clubs = _clubs(20, "P")
    players = _players(400, clubs, "P")
    event = generate_event(
        Plan(name="Deutsche Meisterschaft", club=clubs[0], players=players, series=5,
             rounds=5, pairs=100, teams=25, confirmed_series=4, entered_tables=100, seed=400)
    )  # fmt: skip
    User = get_user_model()
    director = User.objects.create_user("director", password=serving.PASSWORD)
    confirmer = User.objects.create_user("confirmer", password=serving.PASSWORD)
    ClubRole.objects.create(user=director, club=clubs[0], role=ClubRole.Role.ORGANISER)
    ClubRole.objects.create(user=confirmer, club=clubs[0], role=ClubRole.Role.SCORER)
    return event, confirmer


def _env(db_url: str, settle: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": db_url,
        "DJANGO_SETTINGS_MODULE": "bench.timing.prerender_settings",
        "BENCH_PRERENDER_SETTLE": settle,
        "DEBUG": "0",
        "SECRET_KEY": "prerender-bench-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
    }


def _start(env: dict, log) -> list[subprocess.Popen]:
    serving.collect_static(env)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "romme.wsgi", "--bind", f"127.0.0.1:{PORT}", "--workers", "2",
         "--timeout", "60", "--log-level", "warning"],
        cwd=serving.ROOT, env=env, stdout=log, stderr=log,
    )  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload"],
        cwd=serving.ROOT, env=env, stdout=log, stderr=log,
    )  # fmt: skip
    serving.wait_until_up(server, PORT)
    return [server, worker]


def _stop(processes) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def run_mode(mode: str, event, confirmer, sheets, runs: int, wait: float, db_url: str, log):
    """`runs` clicks, each `wait` seconds after a confirmation; [(seconds, from store)]."""
    from django.conf import settings

    from scoring.models import PrerenderedExport
    from scoring.sheets.services import confirm_sheet
    from tournaments.results import results_state

    settle = "off" if mode == "before" else str(settings_settle())
    settings.STANDINGS_PRERENDER_SETTLE = None if mode == "before" else float(settle)
    settings.STANDINGS_PRERENDER_MIN_PARTICIPANTS = 100
    processes = _start(_env(db_url, settle), log)
    out = []
    try:
        client = serving.Client(f"http://127.0.0.1:{PORT}")
        client.login("director")
        path = f"/exports/event/{event.pk}/standings.pdf"
        client.fetch(path, headers={"Accept-Language": "de"}, timeout=120)  # warm the workers
        for _ in range(runs):
            sheet = sheets.pop(0)
            grid = sheet.versions.order_by("-number").first().grid
            confirm_sheet(confirmer, sheet.table, grid, expected_version=sheet.version)
            time.sleep(wait)
            version = results_state(event.pk)[0]
            stored = PrerenderedExport.objects.filter(
                event=event, language="de", results_version=version
            ).exists()
            start = time.perf_counter()
            status, content = client.fetch(path, headers={"Accept-Language": "de"}, timeout=120)
            seconds = time.perf_counter() - start
            if status != 200 or not content.startswith(b"%PDF"):
                raise RuntimeError(f"the click answered {status}")
            out.append((seconds, stored, len(content)))
            print(f"  {mode}: {seconds:.2f} s, rendered ahead: {stored}", flush=True)
    finally:
        _stop(processes)
    return out


def settings_settle() -> float:
    from scoring.exports import prerender

    return prerender.DEFAULT_SETTLE_S


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wait", type=float, default=10.0)
    parser.add_argument("--modes", default="before,after")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="romme-prerender-bench-") as tmp:
        db_url = _database(args.db, tmp)
        started = time.perf_counter()
        event, confirmer = _prepare(db_url)
        print(f"built the 400-player event in {time.perf_counter() - started:.0f} s", flush=True)
        from scoring.models import Sheet

        sheets = list(
            Sheet.objects.filter(table__series__event=event, status=Sheet.Status.ENTERED)
            .select_related("table__series__event__club")
            .order_by("table__number")
        )
        results = {}
        with open(Path(tmp) / "servers.log", "w") as log:
            for mode in args.modes.split(","):
                results[mode] = run_mode(
                    mode, event, confirmer, sheets, args.runs, args.wait, db_url, log
                )
        errors = (Path(tmp) / "servers.log").read_text()
    print()
    print(f"{args.db}: click-to-file of standings.pdf (400 players), {args.wait:.0f} s after a "
          f"confirmation, {args.runs} runs")  # fmt: skip
    print("| mode | median s | max s | rendered ahead | budget | verdict |")
    print("|---|---|---|---|---|---|")
    failed = False
    for mode, rows in results.items():
        times = [r[0] for r in rows]
        ahead = sum(1 for r in rows if r[1])
        verdict = "pass" if max(times) <= BUDGET_S else "FAIL"
        failed |= mode == "after" and verdict == "FAIL"
        print(f"| {mode} | {statistics.median(times):.2f} | {max(times):.2f} | "
              f"{ahead} of {len(rows)} | {BUDGET_S:.0f} s | {verdict} |")  # fmt: skip
    if "Traceback" in errors:
        print("\nThe servers' log has a traceback:\n" + errors[-3000:])
    return 1 if failed else 0
