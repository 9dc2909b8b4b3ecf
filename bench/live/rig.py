"""Two real installations for the live faults (bench.faults.live) and the two-server test
(tests/live/test_two_servers.py), driven from outside as people and the network would:

* the laptop: ``python -m romme.hall`` on a fresh data folder (SQLite, waitress, its task
  worker), in a session of its own (the bench can kill its whole process group), seeded
  by ``python -m bench live-rig seed`` (the first start, an event with series 1 confirmed
  and series 2 in play, a helper who enters sheets);
* the server: gunicorn (production settings, 2 workers) on a PostgreSQL database of its
  own, created and dropped here, with the laptop's club and a token from
  ``manage.py live_token``;
* between them ``bench.live.proxy.Proxy``; the director pairs on the laptop's
  "Live veröffentlichen" page and confirms and corrects sheets through the laptop's pages.

This process never sets up Django: it reads the laptop's SQLite and the server's
PostgreSQL directly and compares the two event archives written by ``manage.py
export_event`` on each side."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path

from bench.rigs.production import create_server_db, drop_server_db, manage, production_env
from bench.rigs.serving import PASSWORD, ROOT, Client, collect_static, hall_command, wait_until_up
from bench.rigs.sheet_form import sheet_post, sheet_version

DIRECTOR, HELPER = "leitung", "helfer"
CLUB, SHORT = "Rommé-Club Saalbau", "RC Saalbau"
LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
SLEEP_SHIM = """import select
import time


def _sleep(seconds):
    select.select([], [], [], max(0.0, seconds))


time.sleep = _sleep
"""
STATUS_LINE = re.compile(r"data-live-status>(?:<a [^>]*>)?([^<]*)<")


def laptop_env(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    for name in ("DEBUG", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    env.update(HALL_MODE="1", ROMME_DATA=str(folder), DJANGO_SETTINGS_MODULE="romme.settings")
    return env


def server_env(db_url: str) -> dict:
    env = production_env(db_url)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


# ----- the laptop's data, seeded in a process of its own ---------------------------------------


def _seed(folder: Path, players: int) -> dict:
    folder.mkdir(parents=True)
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
    from hall.services import first_start
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Series, Table

    call_command("migrate", verbosity=0)
    _director, club = first_start(
        username=DIRECTOR, password=PASSWORD, club_name=CLUB, club_short_name=SHORT, town="Kassel"
    )
    people = _players(players, [club, *_clubs(2, "L")], "L")
    event = generate_event(
        Plan(name="Saalturnier live", club=club, players=people, series=2, rounds=1,
             confirmed_series=1, seed=28)
    )  # fmt: skip
    helper = get_user_model().objects.create_user(HELPER, password=PASSWORD)
    ClubRole.objects.create(user=helper, club=club, role=ClubRole.Role.SCORER)
    Series.objects.filter(event=event).update(published=True)  # before pairing: no change
    series = event.series.get(number=2)
    tables = Table.objects.filter(series=series).order_by("number").prefetch_related("seats")
    return {
        "event": event.pk,
        "series": series.pk,
        "rounds": series.planned_rounds,
        "tables": {str(t.number): t.seats.count() for t in tables},
        "ruleset": [event.ruleset_slug, event.ruleset_overrides],
    }


def seed_laptop(folder: Path, players: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "bench", "live-rig", "seed", str(folder), str(players)],
        cwd=ROOT, env=laptop_env(folder), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if done.returncode:
        raise RuntimeError(f"seeding the laptop: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# ----- the server's database ----------------------------------------------------------------


# A rig drops its database: only one of these names (bench.rigs.production checks it).
DATABASE_PREFIXES = ("faults_live", "test_live_two_")


def drop_db(db_url: str) -> None:
    drop_server_db(db_url, DATABASE_PREFIXES)


def prepare_server(db_url: str) -> tuple[int, str]:
    """A fresh database, migrated, with the laptop's club; (club id, a token)."""
    create_server_db(db_url, DATABASE_PREFIXES)
    env = server_env(db_url)
    manage(env, "migrate", "--verbosity", "0")
    code = (f"from clubs.models import Club; print(Club.objects.create(name={CLUB!r}, "
            f"short_name={SHORT!r}, town='Kassel').pk)")  # fmt: skip
    club = int(manage(env, "shell", "-c", code).splitlines()[-1])
    # Production settings render every HTML answer (a refusal too) with the manifest's static
    # names: without it a page is a 500 (a fresh clone has none until collected).
    collect_static(env)
    return club, new_token(db_url, club)


def new_token(db_url: str, club: int) -> str:
    return manage(server_env(db_url), "live_token", "--club", str(club)).splitlines()[-1]


def revoke_tokens(db_url: str) -> None:
    """Every token of the server revoked, as its organiser does on the club's page."""
    code = ("from django.contrib.auth import get_user_model; from live.server import tokens; "
            "from live.models import LiveToken; root = get_user_model().objects.create_superuser"
            "('widerruf', password=None); [tokens.revoke_token(root, t, 'Laptop verloren') "
            "for t in LiveToken.objects.filter(revoked_at=None)]")  # fmt: skip
    manage(server_env(db_url), "shell", "-c", code)


# ----- processes ----------------------------------------------------------------------------


def start_server(db_url: str, port: int, log) -> subprocess.Popen:
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "romme.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
         "--timeout", "60", "--graceful-timeout", "5", "--log-level", "warning"],
        cwd=ROOT, env=server_env(db_url), stdout=log, stderr=log,
    )  # fmt: skip
    return wait_until_up(process, port, seconds=60)


def start_laptop(folder: Path, port: int, log, *, clock: str = "") -> subprocess.Popen:
    """The hall mode in a session of its own; ``clock`` e.g. "-2h": its clock (and its
    children's) that far off, through libfaketime."""
    env = laptop_env(folder)
    for name in ("HALL_MODE", "ROMME_DATA"):
        env.pop(name)
    env.update(HALL_URL=f"http://127.0.0.2:{port}", HALL_OTHER_DEVICES="", CI="true",
               HALL_BACKUPS="0", PYTHONUNBUFFERED="1")  # fmt: skip
    if clock:
        # Only the wall clock is moved (a monotonic clock two hours back would be negative
        # on a machine up for less, and Python's timed waits would block). libfaketime
        # 0.9.10 then answers Python 3.11's time.sleep (clock_nanosleep, TIMER_ABSTIME on
        # the monotonic clock) with EINVAL: the faked hall sleeps through select() instead.
        shim = folder.parent / "faketime-shim"
        shim.mkdir(exist_ok=True)
        (shim / "sitecustomize.py").write_text(SLEEP_SHIM)
        path = os.pathsep.join(filter(None, [str(shim), env.get("PYTHONPATH")]))
        env.update(LD_PRELOAD=LIBFAKETIME, FAKETIME=clock, DONT_FAKE_MONOTONIC="1",
                   PYTHONPATH=path)  # fmt: skip
    process = subprocess.Popen(
        hall_command(folder, port), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
        stdout=log, stderr=log, start_new_session=True,
    )  # fmt: skip
    try:
        return wait_until_up(process, port, seconds=180)
    except RuntimeError:
        kill_group(process)
        raise


def kill_group(process: subprocess.Popen | None, sig=signal.SIGKILL) -> None:
    """``sig`` to the process's whole group (the hall, its worker): the laptop's power cut."""
    if process is None:
        return
    with suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def stop(process: subprocess.Popen | None, *, group: bool = False) -> None:
    """Ctrl+C (the hall: to its group, the worker ends with it), then a kill after 30 s."""
    if process is None or process.poll() is not None:
        return
    if group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.terminate()
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)
    if group:
        kill_group(process)
    elif process.poll() is None:
        process.kill()
        process.wait(timeout=10)


# ----- both sides' state --------------------------------------------------------------------


def laptop_link(folder: Path, event: int) -> dict:
    with closing(sqlite3.connect(folder / "romme.sqlite3", timeout=10)) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM live_livelink WHERE event_id = ?", (event,)).fetchone()
    return dict(row) if row else {}


def waiting_tasks(folder: Path) -> dict:
    """The laptop's push tasks by status (READY, RUNNING, …)."""
    with closing(sqlite3.connect(folder / "romme.sqlite3", timeout=10)) as db:
        rows = db.execute(
            "SELECT status, COUNT(*) FROM django_tasks_database_dbtaskresult "
            "WHERE task_path LIKE '%push_live' GROUP BY status"
        ).fetchall()
    return dict(rows)


def server_received(db_url: str, event: int) -> tuple[int, int] | None:
    import psycopg

    with psycopg.connect(db_url, autocommit=True, connect_timeout=5) as conn:
        row = conn.execute(
            "SELECT event_id, last_seq FROM live_receivedevent WHERE origin_event = %s", (event,)
        ).fetchone()
    return None if row is None else (row[0], row[1])


def state(folder: Path, db_url: str, event: int) -> tuple[int, int, int]:
    """(the laptop's last numbered change, its acknowledged one, the server's last one)."""
    link = laptop_link(folder, event)
    try:
        held = server_received(db_url, event)
    except OSError:
        held = None
    return link.get("next_seq", 1) - 1, link.get("acked_seq", 0), held[1] if held else -1


def wait_converged(folder: Path, db_url: str, event: int, seconds: float) -> float | None:
    """Seconds until all three numbers of `state` are equal (polled), None if not in time."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            last, acked, held = state(folder, db_url, event)
        except Exception:  # a database restarting: ask again
            last, acked, held = 0, -1, -2
        if last == acked == held:
            return time.monotonic() - started
        time.sleep(0.2)
    return None


def _export(env: dict, event: int) -> dict:
    return json.loads(manage(env, "export_event", str(event)))


def versions(data) -> int:
    """Sheet versions in an archive (or a part of one)."""
    if isinstance(data, dict):
        own = len(data["versions"]) if isinstance(data.get("versions"), list) else 0
        return own + sum(versions(v) for k, v in data.items() if k != "versions")
    return sum(versions(v) for v in data) if isinstance(data, list) else 0


def compare_archives(folder: Path, db_url: str, event: int, limit: int = 8) -> tuple:
    """The two archives of the event compared field by field (test_end_to_end's way):
    (the paths that differ, except ``exported_at``, when each side wrote it; the sheet
    versions on the laptop; on the server)."""
    server_event = server_received(db_url, event)[0]
    with ThreadPoolExecutor(2) as pool:
        mine = pool.submit(_export, laptop_env(folder), event)
        theirs = pool.submit(_export, server_env(db_url), server_event)
        mine, theirs = mine.result(), theirs.result()
    for data in (mine, theirs):
        data.pop("exported_at", None)
    found: list[str] = []
    _diff(mine, theirs, "$", found)
    return found[:limit], versions(mine), versions(theirs)


def _diff(a, b, path: str, found: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            _diff(a.get(key, "<missing>"), b.get(key, "<missing>"), f"{path}.{key}", found)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, f"{path}[{index}]", found)
    elif a != b:
        shown = [str(v)[:60] for v in (a, b)] if not isinstance(a, list) else [len(a), len(b)]
        found.append(f"{path}: laptop {shown[0]} / server {shown[1]}")


# ----- the director at the laptop -----------------------------------------------------------


@dataclass
class Page:
    phase: str
    method: str
    path: str
    status: int  # 0: no answer (connection refused or cut)
    text: str = ""  # the live status line, if the page has one


@dataclass
class Director:
    """The director and a helper at the laptop's own pages: the helper enters a table's
    whole sheet, the director confirms it, and every third time corrects a confirmed one;
    a second tab of the director's polls the event page and the live page."""

    base: str
    seed: dict
    phase: str = ""
    pages: list[Page] = field(default_factory=list)
    confirmed: list[int] = field(default_factory=list)
    corrections: int = 0
    done: Counter = field(default_factory=Counter)  # (phase, "confirmed" / "corrected")
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self):
        from rules import ruleset_from

        self.ruleset = ruleset_from(*self.seed["ruleset"])
        self.free = sorted(int(n) for n in self.seed["tables"])
        self.rng = random.Random(28)
        self.helper, self.director, self.tab = Client(self.base), Client(self.base), None
        self.helper.login(HELPER)
        self.director.login(DIRECTOR)
        self.tab = Client(self.base)
        self.tab.login(DIRECTOR)

    def ask(self, client: Client, path: str, data: dict | None = None) -> tuple[int, str]:
        try:
            status, body = client.request(path, data)
        except OSError:
            status, body = 0, ""
        with self.lock:
            self.pages.append(Page(self.phase, "POST" if data else "GET", path, status))
        return status, body

    def _sheet(self, number: int) -> str:
        return f"/series/{self.seed['series']}/tables/{number}/sheet/"

    def _grid(self, number: int, page: str) -> dict:
        size = self.seed["tables"][str(number)]
        return sheet_post(self.ruleset, size, self.seed["rounds"], self.rng, sheet_version(page))

    def correct(self, number: int) -> bool:
        """The director corrects the confirmed sheet of table ``number``."""
        path = self._sheet(number)
        status, page = self.ask(self.director, path)
        if status != 200:
            return False
        grid = {**self._grid(number, page), "reason": "Übertragungsfehler"}
        if self.ask(self.director, path, grid)[0] != 302:
            return False
        self.corrections += 1
        self.done[self.phase, "corrected"] += 1
        return True

    def play(self) -> bool:
        """One table entered and confirmed (every third time also a correction of the one
        before); once every table is confirmed, a correction. False when a page failed."""
        if not self.free:
            if not self.confirmed:
                return False
            self.confirmed.append(self.confirmed.pop(0))
            return self.correct(self.confirmed[-1])
        number = self.free.pop(0)
        path = self._sheet(number)
        status, page = self.ask(self.helper, path)
        if status != 200:
            return False
        data = self._grid(number, page)
        if self.ask(self.helper, path, data)[0] != 302:
            return False
        status, page = self.ask(self.director, path)
        if status != 200:
            return False
        confirm = {**data, "expected_version": str(sheet_version(page))}
        if self.ask(self.director, path + "confirm/", confirm)[0] != 302:
            return False
        self.confirmed.append(number)
        self.done[self.phase, "confirmed"] += 1
        return len(self.confirmed) % 3 or self.correct(self.confirmed[-2])

    def look(self) -> list[Page]:
        """The director's other tab: the event page and the live page, in German."""
        seen = []
        for path in (f"/events/{self.seed['event']}/", f"/events/{self.seed['event']}/live/"):
            try:
                status, body = self.tab.fetch(path, headers={"Accept-Language": "de"})
            except OSError:
                status, body = 0, b""
            line = STATUS_LINE.search(body.decode(errors="replace"))
            seen.append(Page(self.phase, "GET", path, status, line[1].strip() if line else ""))
        with self.lock:
            self.pages.extend(seen)
        return seen

    def pair(self, server: str, token: str) -> int:
        path = f"/events/{self.seed['event']}/live/"
        self.ask(self.director, path)
        return self.ask(self.director, path, {"server_url": server, "token": token,
                                              "action": "save"})[0]  # fmt: skip

    def busy(self, stop: threading.Event, pace: float, watch: bool = True) -> list:
        """Threads: sheets played one every ``pace`` s until ``stop``; the other tab polling
        every 0.5 s (``watch``)."""

        def work():
            while not stop.is_set() and self.play():
                stop.wait(pace)

        def poll():
            while not stop.is_set():
                self.look()
                stop.wait(0.5)

        threads = [threading.Thread(target=work)] + ([threading.Thread(target=poll)] * watch)
        for thread in threads:
            thread.start()
        return threads


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Seed a live rig's laptop: a fresh data folder in a process of its own."
    )
    parser.add_argument("action", choices=["seed"])
    parser.add_argument("folder", type=Path)
    parser.add_argument("players", type=int)
    args = parser.parse_args(argv)
    print(json.dumps(_seed(args.folder, args.players)))
    return 0
