"""Scorers beside the readers of ``bench.load.readers --scorers N``: people entering results
while the hall reads them (issue 19, "scorers first").

Each virtual scorer logs in twice (the writer and a second person who confirms), then
opens a sheet of its own, saves the whole sheet and has it confirmed, as ``bench.load``
does, in a closed loop or one sheet every ``--pace`` seconds; sheets/s and the save
latency are what readers must not starve.
Tables come from a second event ("Erfassung") with one seated, unscored series.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field

from bench.rigs.serving import PASSWORD, Client, worker_pids
from bench.rigs.sheet_form import sheet_post, sheet_version


@dataclass
class ScorerTally:
    save_times: list[tuple[float, float]] = field(default_factory=list)  # (time.time(), s)
    confirmed: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def saves(self) -> list[float]:
        return [seconds for _, seconds in self.save_times]


@dataclass
class Desk:
    """The tables the scorers work on, handed out one at a time across all phases."""

    series_pk: int
    sizes: dict[int, int]
    ruleset: object
    rounds: int
    numbers: list[int]
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_table(self) -> int | None:
        with self.lock:
            return self.numbers.pop(0) if self.numbers else None


def prepare_desk(scorers: int, tables: int) -> Desk:
    """A second event in the database of ``bench.load.readers.prepare`` (Django is set up)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from bench.rigs.datasets import _clubs, _players
    from clubs.models import ClubRole
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Table

    clubs = _clubs(2, "ER")
    event = generate_event(
        Plan(name="Erfassung", club=clubs[0], players=_players(tables * 4, clubs, "ER"),
             series=1, rounds=5, confirmed_series=0, seed=23)
    )  # fmt: skip
    series = event.series.get(number=1)
    rows = Table.objects.filter(series=series).order_by("number").prefetch_related("seats")
    sizes = {t.number: t.seats.count() for t in rows}
    hashed = make_password(PASSWORD)
    User = get_user_model()
    names = [f"s{i}" for i in range(scorers)] + [f"c{i}" for i in range(scorers)]
    users = User.objects.bulk_create(User(username=n, password=hashed) for n in names)
    ClubRole.objects.bulk_create(
        ClubRole(user=u, club=clubs[0], role=ClubRole.Role.SCORER) for u in users
    )
    return Desk(series.pk, sizes, event.ruleset, series.planned_rounds, sorted(sizes))


def log_in(base: str, count: int) -> list[tuple[Client, Client]]:
    """Every scorer's two sessions, once for all phases (a login hashes a password: it is
    not what a phase measures)."""
    pairs = []
    for index in range(count):
        me, checker = Client(base), Client(base)
        me.login(f"s{index}")
        checker.login(f"c{index}")
        pairs.append((me, checker))
    return pairs


def scorer(clients, index, desk: Desk, stop: threading.Event, tally: ScorerTally, pace=0.0):
    """Saves and confirms sheets until stopped; with ``pace`` a new sheet every ``pace``
    seconds (staggered), as people at a desk type them, else in a closed loop."""
    rng = random.Random(index)
    me, checker = clients
    next_start = time.monotonic() + rng.random() * pace
    while not stop.is_set():
        if pace:
            if stop.wait(max(0.0, next_start - time.monotonic())):
                return
            next_start += pace
        number = desk.next_table()
        if number is None:
            return
        path = f"/series/{desk.series_pk}/tables/{number}/sheet/"
        try:
            _, page = me.request(path)
            data = sheet_post(
                desk.ruleset, desk.sizes[number], desk.rounds, rng, sheet_version(page)
            )
            begun, started = time.time(), time.perf_counter()
            status, _ = me.request(path, data)
            took = time.perf_counter() - started
            if status != 302:
                raise RuntimeError(f"save {status}")
            _, page = checker.request(path)
            confirm = {**data, "expected_version": str(sheet_version(page))}
            status, _ = checker.request(path + "confirm/", confirm)
            if status != 302:
                raise RuntimeError(f"confirm {status}")
            with tally.lock:
                tally.save_times.append((begun, took))
                tally.confirmed += 1
        except (OSError, RuntimeError):
            with tally.lock:
                tally.errors += 1


def start_scorers(sessions, desk: Desk, stop: threading.Event, tally: ScorerTally, pace=0.0):
    threads = [
        threading.Thread(target=scorer, args=(clients, i, desk, stop, tally, pace))
        for i, clients in enumerate(sessions)
    ]
    for thread in threads:
        thread.start()
    return threads


def renice(process: subprocess.Popen, niceness: int) -> None:
    """Lower the CPU priority of a gunicorn master and its workers (a reader pool)."""
    children = worker_pids(process.pid)
    subprocess.run(["renice", "-n", str(niceness), "-p", str(process.pid), *children],
                   capture_output=True, check=True)  # fmt: skip


def summary(tally: ScorerTally, elapsed: float) -> tuple[float, float, float]:
    """(sheets confirmed per second, save p50 ms, save p95 ms)."""
    ms = sorted(x * 1000 for x in tally.saves)
    if not ms:
        return 0.0, 0.0, 0.0
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return tally.confirmed / elapsed, statistics.median(ms), p95
