"""Live results bench (bench.live_bench): the server (gunicorn + PostgreSQL) and the
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

from bench.serving import ROOT, wait_until_up

PORT = 8711
POSTGRES = "postgres://postgres@127.0.0.1:5432/bench_live_server"


def _server_env(db_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("HALL_MODE", "ROMME_DATA")}
    env.update(
        DATABASE_URL=db_url,
        DJANGO_SETTINGS_MODULE="romme.settings",
        DEBUG="0",
        SECRET_KEY="live-bench-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
    )
    return env


def _admin_url(db_url: str, prefix: str | tuple[str, ...]) -> tuple[str, str]:
    """The maintenance database's URL and the bench's database name, which must start with
    ``prefix`` (or one of them): a bench drops it, so never a real one."""
    parsed = urllib.parse.urlparse(db_url)
    name = parsed.path.lstrip("/")
    if not name.startswith(prefix):
        names = " or ".join(f"{p}*" for p in ((prefix,) if isinstance(prefix, str) else prefix))
        raise SystemExit(f"the bench's database must be called {names}")
    return parsed._replace(path="/postgres").geturl(), name


def create_server_db(db_url: str, prefix: str | tuple = "bench_live_", *, own_disk=False) -> None:
    """``own_disk``: the database's commits do not wait for the WAL's flush
    (synchronous_commit=off), standing in for a server's own disk: on this machine its
    flushes queue with the laptop's SQLite syncs (docs/performance-log.md, 2026-11-26)."""
    import psycopg

    admin, name = _admin_url(db_url, prefix)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
        if own_disk:
            conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')


def drop_server_db(db_url: str, prefix: str | tuple = "bench_live_") -> None:
    import psycopg

    admin, name = _admin_url(db_url, prefix)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args[:2])}: {done.stderr[-2000:]}")
    return done.stdout.strip()


def prepare_server(env: dict, club_name: str, short_name: str) -> int:
    manage(env, "migrate", "--verbosity", "0")
    code = (
        "from clubs.models import Club;"
        f"print(Club.objects.create(name={club_name!r}, short_name={short_name!r}, "
        "town='Kassel').pk)"
    )
    return int(manage(env, "shell", "-c", code).splitlines()[-1])


SERVER_NICE = [0]  # --server-nice: the server's gunicorn (and PostgreSQL backends, BackendNicer)


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
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
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

    from bench.datasets import _clubs, _players
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
