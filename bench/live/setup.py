"""Live results bench (bench.live.measure): the server (gunicorn + PostgreSQL) and the
laptop (hall-mode settings, SQLite, a db_worker) it measures between."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from bench.rigs.production import manage
from bench.rigs.serving import ROOT, wait_until_up

PORT = 8711
POSTGRES = "postgres://postgres@127.0.0.1:5432/bench_live_server"


def prepare_server(env: dict, club_name: str, short_name: str) -> int:
    manage(env, "migrate", "--verbosity", "0")
    code = (
        "from clubs.models import Club;"
        f"print(Club.objects.create(name={club_name!r}, short_name={short_name!r}, "
        "town='Kassel').pk)"
    )
    return int(manage(env, "shell", "-c", code).splitlines()[-1])


SERVER_NICE = [0]  # --server-nice: the server's gunicorn (and PostgreSQL backends, BackendNicer)
# --server-core: the one CPU the server's gunicorn and PostgreSQL backends may use, the one
# the director's process is pinned to (None: any CPU).
SERVER_CORE: list[int | None] = [None]


def _lower(nice: int):
    """A child's start: its niceness and, with --server-core, its CPU."""
    core = SERVER_CORE[0]

    def start() -> None:
        if nice:
            os.nice(nice)
        if core is not None:
            os.sched_setaffinity(0, {core})

    return start if nice or core is not None else None


def start_server(env: dict, log) -> subprocess.Popen:
    """gunicorn for the server. With ``--server-nice`` it runs at a lower priority, as a
    stand-in for the server being another machine: the two share this one's cores, and the
    director's cost is the laptop's alone (the server's PostgreSQL keeps its priority)."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    nice = SERVER_NICE[0]
    process = subprocess.Popen(
        [str(gunicorn), "romme.wsgi", "--bind", f"127.0.0.1:{PORT}", "--workers", "2",
         "--timeout", "60", "--graceful-timeout", "5", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=log,
        preexec_fn=_lower(nice),
    )  # fmt: skip
    return wait_until_up(process, PORT, seconds=60)


class BackendNicer(threading.Thread):
    """With ``--server-nice``: the server's PostgreSQL backends (the connections to the
    bench's own database, but the bench's poller) at the same niceness as its gunicorn,
    checked every second as gunicorn opens connections. A batch's apply on PostgreSQL at
    the laptop's priority took the director's CPU in the middle of his saves (the slowest
    saves of a run fell while the server applied a push): on another machine it would not."""

    def __init__(self, db_url: str, nice: int, skip_pid: int):
        super().__init__(name="backend-nicer", daemon=True)
        self.db_url, self.nice, self.skip_pid = db_url, nice, skip_pid
        self.done = threading.Event()
        self.reniced: set[int] = set()

    def run(self) -> None:
        import psycopg

        name = urllib.parse.urlparse(self.db_url).path.lstrip("/")
        with psycopg.connect(self.db_url, autocommit=True) as conn:
            own = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
            while not self.done.wait(1.0):
                rows = conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,)
                ).fetchall()
                for (pid,) in rows:
                    if pid in (own, self.skip_pid) or pid in self.reniced:
                        continue
                    try:
                        os.setpriority(os.PRIO_PROCESS, pid, self.nice)
                        if SERVER_CORE[0] is not None:
                            os.sched_setaffinity(pid, {SERVER_CORE[0]})
                        self.reniced.add(pid)
                    except (ProcessLookupError, PermissionError):
                        pass

    def stop(self) -> None:
        self.done.set()
        self.join(timeout=10)


def stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


class Server:
    """What the bench reads of the server: its copy's id and last change (PostgreSQL), the
    public version and JSON (HTTP)."""

    def __init__(self, db_url: str):
        import psycopg

        self.conn = psycopg.connect(db_url, autocommit=True)
        self.pid = self.conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        self.base = f"http://127.0.0.1:{PORT}"

    def received(self, laptop_event: int) -> tuple[int, int] | None:
        row = self.conn.execute(
            "SELECT event_id, last_seq FROM live_receivedevent WHERE origin_event = %s",
            (laptop_event,),
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=30) as response:
            return json.loads(response.read())

    def version(self, event_id: int) -> int:
        return self.get(f"/public/events/{event_id}/version.json")["version"]

    def top(self, event_id: int, count: int = 10) -> list[tuple]:
        rows = self.get(f"/api/events/{event_id}/standings")["rows"][:count]
        return [(r["rank"], r["player"]["name"], r["total"]) for r in rows]


# ----- the laptop (this process) --------------------------------------------------------------


def laptop_env(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    env.update(HALL_MODE="1", ROMME_DATA=str(folder), DJANGO_SETTINGS_MODULE="romme.settings")
    return env


def setup_laptop(folder: Path, series_a: int = 5):
    """``series_a``: event A's series (2 confirmed, the 3rd entered, the rest drawn as the
    director's cost plays them: 100 tables each)."""
    folder.mkdir()
    os.environ.update(laptop_env(folder))
    for name in ("DEBUG", "DATABASE_URL"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from bench.rigs.datasets import _clubs, _players
    from clubs.models import ClubRole
    from scoring.demo.generate import Plan, generate_event
    from scoring.standings.services import set_series_published

    call_command("migrate", verbosity=0)
    clubs = _clubs(20, "L")
    players = _players(400, clubs, "L")
    event_a = generate_event(
        Plan(name="Deutsche Meisterschaft", club=clubs[0], players=players, series=series_a,
             rounds=5, pairs=100, teams=25, confirmed_series=2, entered_tables=100, seed=400)
    )  # fmt: skip
    event_b = generate_event(
        Plan(name="Landesmeisterschaft", club=clubs[0], players=players, series=5,
             rounds=5, pairs=100, teams=25, confirmed_series=0, seed=401)
    )  # fmt: skip
    User = get_user_model()
    director = User.objects.create_user("leitung")
    helper = User.objects.create_user("helfer")
    ClubRole.objects.create(user=director, club=clubs[0], role=ClubRole.Role.ORGANISER)
    ClubRole.objects.create(user=helper, club=clubs[0], role=ClubRole.Role.SCORER)
    # Series 3 is in play and published: its confirmations move the public standings.
    set_series_published(director, event_a.series.get(number=3), True)
    return clubs[0], event_a, event_b, director, helper
