"""Read load: many spectators on the public standings, the hall display and the JSON while
sheets are confirmed, against gunicorn with PostgreSQL and Redis on 127.0.0.1.

    python -m bench readers                  # 20 readers, 15 s uncached then 15 s cached
    python -m bench readers --readers 50 --seconds 10 --confirm-every 5

It builds a championship-sized event in a fresh database (READERS_DATABASE_URL, default
live_readers on the local server): 400 players, pairs and teams, four series confirmed and
published, the fifth published with every sheet entered. gunicorn runs with the Redis
cache (READERS_REDIS_URL). A writer confirms a sheet of series 5 every second (or every
``--confirm-every`` seconds) during both phases, so the standings really change under the
readers; a watcher refreshing the JSON every 100 ms measures how soon each one is public.

* uncached: every reader is logged in, so every request computes the standing (the path
  every request took before issue 19);
* cached: anonymous readers, as phones, the display and club websites are; half of their
  requests are conditional GETs with the ETag they saw last.

Prints requests/s, p50/p95 latency, the share of 304 answers and errors per view and
phase, and the cached/uncached throughput ratio. Each phase is bounded by its time limit.

With ``--scorers N`` (``bench.load.scorers``) N people save and confirm whole sheets of another
event in a closed loop during every phase, and two phases are added: ``scorers`` (nobody
reads: the baseline) and ``pooled`` (cached readers served by a second gunicorn, the reader
pool, at lower CPU priority, as a reverse proxy would route ``/public/`` and ``/api/``).
``--think S`` lets each reader wait about S seconds between requests, as phones do.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from bench.load import scorers as desks
from bench.load import server_cpu
from bench.load.read_clients import VIEWS, Tally, start_readers
from bench.rigs.serving import ROOT, start_gunicorn

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/live_readers"
DEFAULT_REDIS = "redis://127.0.0.1:6379/3"
PASSWORD = "readers-bench-password-1"


def prepare(db_url: str):
    """Fresh database with the event, a viewer for the uncached phase and a confirmer."""
    import psycopg

    parsed = urllib.parse.urlparse(db_url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    os.environ["DEBUG"] = "1"  # this process only; gunicorn runs with production settings
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from bench.rigs.datasets import _clubs, _players
    from clubs.models import ClubRole
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Series

    call_command("migrate", verbosity=0)
    clubs = _clubs(20, "R")
    players = _players(400, clubs, "R")
    event = generate_event(
        Plan(name="Lesetest", club=clubs[0], players=players, series=5, rounds=2, pairs=100,
             teams=25, confirmed_series=4, entered_tables=100, seed=19)
    )  # fmt: skip
    Series.objects.filter(event=event).update(published=True)
    User = get_user_model()
    viewer = User.objects.create_user("viewer", password=PASSWORD)
    confirmer = User.objects.create_user("confirmer", password=PASSWORD)
    ClubRole.objects.create(user=viewer, club=clubs[0], role=ClubRole.Role.VIEWER)
    ClubRole.objects.create(user=confirmer, club=clubs[0], role=ClubRole.Role.SCORER)
    return event, confirmer


def login(base: str) -> str:
    """The session cookie of the viewer (for the uncached phase)."""
    import http.cookiejar

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base + "/login/").read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    body = urllib.parse.urlencode(
        {"username": "viewer", "password": PASSWORD, "csrfmiddlewaretoken": token}
    ).encode()
    opener.open(urllib.request.Request(base + "/login/", data=body, headers={"Referer": base}))
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def writer(event, confirmer, stop, confirmed, every):
    """Confirms an entered sheet of series 5 every ``every`` seconds (each bumps the
    results version, so every cached entry of the event is rendered anew)."""
    from django.db import connection

    from scoring.models import Sheet
    from scoring.sheets.services import confirm_sheet

    sheets = list(
        Sheet.objects.filter(table__series__event=event, status=Sheet.Status.ENTERED)
        .select_related("table__series__event__club")
        .order_by("table__number")
    )
    for sheet in sheets:
        if stop.wait(every):
            break
        grid = sheet.versions.order_by("-number").first().grid
        confirm_sheet(confirmer, sheet.table, grid, expected_version=sheet.version)
        confirmed.append(time.monotonic())
    connection.close()


def watcher(base, path, cookie, stop, changes):
    """A reader refreshing the public JSON every 100 ms: when its rows change."""
    import hashlib

    headers = {"Cookie": cookie} if cookie else {}
    last = None
    while not stop.wait(0.1):
        try:
            with urllib.request.urlopen(
                urllib.request.Request(base + path, headers=headers), timeout=30
            ) as response:
                digest = hashlib.sha256(response.read()).hexdigest()
        except OSError:
            continue
        if digest != last:
            changes.append(time.monotonic())
            last = digest


def staleness(confirmed: list[float], changes: list[float]) -> list[float]:
    """Per confirmation: seconds until the public JSON first showed a change after it."""
    out = []
    for when in confirmed:
        later = [c for c in changes if c >= when]
        if later:
            out.append(later[0] - when)
    return out


def phase(
    name, base, paths, cookie, readers, seconds, event, confirmer, every, scoring=None,
    *, watch=(), cpu_pids=None, processes=1,
):  # fmt: skip
    """One phase; ``scoring`` is (scorers' sessions, desk, think, pace) or None. The
    watchers refresh the JSON on ``base`` and every app server in ``watch``; ``cpu_pids()``
    lists the server processes whose CPU time the phase reports."""
    tally, stop, confirmed = Tally(), threading.Event(), []
    watched = {where: [] for where in (base, *watch)}
    think = scoring[2] if scoring else 0.0
    write = threading.Thread(target=writer, args=(event, confirmer, stop, confirmed, every))
    watchers = [
        threading.Thread(target=watcher, args=(where, paths["json"], cookie, stop, changes))
        for where, changes in watched.items()
    ]
    scored = desks.ScorerTally()
    cpu_before = server_cpu.snapshot(cpu_pids()) if cpu_pids else {}
    started = time.perf_counter()
    # The readers first: their client processes fork before this phase has other threads.
    conditional = name in ("cached", "pooled")
    finish = start_readers(base, paths, cookie, conditional, readers, think, tally, processes)
    threads = []
    if scoring:
        threads += desks.start_scorers(scoring[0], scoring[1], stop, scored, scoring[3])
    write.start()
    for t in watchers:
        t.start()
    stop.wait(seconds)
    ended = time.monotonic()
    stop.set()
    finish()
    for t in [*threads, write, *watchers]:
        t.join(timeout=35)
    elapsed = time.perf_counter() - started
    cpu = server_cpu.spent(cpu_before, server_cpu.snapshot(cpu_pids())) if cpu_pids else None
    # Confirmations in the last second may fall after the watchers' final refresh.
    due = [when for when in confirmed if when <= ended - 1.0]
    stale = {where: staleness(due, changes) for where, changes in watched.items()}
    return tally, elapsed, stale, cpu, desks.summary(scored, elapsed), scored, len(due)


def one_reader(base: str, path: str, runs: int = 100) -> dict[str, float]:
    """Median milliseconds of one reader alone: a fresh GET (a cache hit) and a
    conditional GET answered 304, each ``runs`` times in a row."""
    headers = {"Accept-Encoding": "gzip", "Accept-Language": "de"}
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers)) as r:
        r.read()
        etag = r.headers["ETag"]
    out = {}
    for name, extra in (("hit", {}), ("304", {"If-None-Match": etag})):
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(
                    urllib.request.Request(base + path, headers={**headers, **extra})
                ) as response:
                    response.read()
            except urllib.error.HTTPError as error:
                assert error.code == 304, error.code
            times.append(time.perf_counter() - started)
        out[name] = 1000 * statistics.median(times)
    return out


def server_time(path: str, runs: int = 200) -> dict[str, float]:
    """Median server milliseconds in this process (Django's test client, no HTTP, no
    client): a conditional GET answered 304 and a fresh GET that is a cache hit. Timed
    without query logging (it costs as much as the query); the queries are counted in a
    separate pass. "cpu" is this process's CPU time, which other jobs on the machine do
    not inflate as much as the wall clock."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(SERVER_NAME="localhost", HTTP_ACCEPT_ENCODING="gzip")
    etag = client.get(path)["ETag"]
    out = {}
    for name, extra in (("304", {"HTTP_IF_NONE_MATCH": etag}), ("hit", {})):
        times, cpu = [], []
        for _ in range(runs):
            started, started_cpu = time.perf_counter(), time.process_time()
            client.get(path, **extra)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        out[name] = 1000 * statistics.median(times)
        out[f"{name} cpu"] = 1000 * statistics.median(cpu)
        with CaptureQueriesContext(connection) as queries:
            for _ in range(20):
                client.get(path, **extra)
        out[f"{name} queries"] = len(queries) / 20
    return out


def table(results) -> list[str]:
    lines = [
        f"{'phase':<9} {'view':<8} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'304 %':>6} {'errors':>6}"
    ]
    rates = {}
    for name, (tally, elapsed, *_rest) in results.items():
        every = []
        for view in [*VIEWS, "all"]:
            lat = every if view == "all" else tally.latencies.get(view, [])
            if view != "all":
                every.extend(lat)
            if not lat:
                continue
            n304 = (
                sum(tally.not_modified.values())
                if view == "all"
                else tally.not_modified.get(view, 0)
            )
            errors = sum(tally.errors.values()) if view == "all" else tally.errors.get(view, 0)
            ms = sorted(x * 1000 for x in lat)
            p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
            rate = len(lat) / elapsed
            rates[(name, view)] = rate
            lines.append(
                f"{name:<9} {view:<8} {len(lat):>8} {rate:>7.1f} {statistics.median(ms):>7.1f} "
                f"{p95:>7.1f} {100 * n304 / len(lat):>6.1f} {errors:>6}"
            )
    ratios = [
        f"{view} {rates[('cached', view)] / rates[('uncached', view)]:.1f}x"
        for view in [*VIEWS, "all"]
        if rates.get(("uncached", view)) and rates.get(("cached", view))
    ]
    lines.append("cached/uncached requests/s: " + ", ".join(ratios))
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=os.environ.get("READERS_DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--redis", default=os.environ.get("READERS_REDIS_URL", DEFAULT_REDIS))
    parser.add_argument("--readers", type=int, default=20, help="concurrent readers")
    parser.add_argument(
        "--client-processes", type=int, default=1, help="processes the readers are spread over"
    )
    parser.add_argument("--seconds", type=float, default=15, help="length of each phase")
    parser.add_argument("--workers", type=int, default=5, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=8101, help="and the next one: reader pool")
    parser.add_argument(
        "--confirm-every", type=float, default=1.0, help="seconds between confirmations"
    )
    parser.add_argument("--scorers", type=int, default=0, help="people saving sheets meanwhile")
    parser.add_argument("--think", type=float, default=0.0, help="seconds between requests")
    parser.add_argument("--pace", type=float, default=0.0, help="a scorer's seconds per sheet")
    parser.add_argument("--reader-workers", type=int, default=3, help="workers of the reader pool")
    args = parser.parse_args(argv)
    args.seconds = min(args.seconds, 25)  # each phase stays under half a minute

    os.chdir(ROOT)
    event, confirmer = prepare(args.database)
    # Enough fresh tables for a closed loop of every scorer through four phases.
    desk = desks.prepare_desk(args.scorers, args.scorers * 12) if args.scorers else None
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    os.environ["REDIS_URL"] = args.redis
    process = start_gunicorn(args.database, args.port, args.workers)
    pool = None
    base = f"http://127.0.0.1:{args.port}"
    paths = {
        "page": f"/public/events/{event.pk}/",
        "display": f"/public/events/{event.pk}/display/",
        "json": f"/api/events/{event.pk}/standings",
    }
    phases = [("uncached", base), ("cached", base)]
    scoring = None
    if desk:
        scoring = (desks.log_in(base, args.scorers), desk, args.think, args.pace)
        pool = start_gunicorn(args.database, args.port + 1, args.reader_workers)
        desks.renice(pool, 10)
        pool_base = f"http://127.0.0.1:{args.port + 1}"
        phases = [("scorers", base), *phases, ("pooled", pool_base)]
    database = urllib.parse.urlparse(args.database).path.lstrip("/")
    servers = [s for s in (process, pool) if s is not None]

    def cpu_pids():
        return server_cpu.server_pids(servers, database)

    try:
        cookie = login(base)
        results = {
            name: phase(
                name,
                where,
                paths,
                cookie if name == "uncached" else "",
                0 if name == "scorers" else args.readers,
                args.seconds,
                event,
                confirmer,
                args.confirm_every,
                scoring,
                # Two app servers: each must show every confirmation (shared PostgreSQL and
                # Redis, no state of its own).
                watch=(base,) if where != base else (),
                cpu_pids=cpu_pids,
                processes=args.client_processes,
            )
            for name, where in phases
        }
        alone = one_reader(base, paths["page"])
    finally:
        for server in (process, pool):
            if server is not None:
                server.terminate()
                server.wait(timeout=15)
    inside = server_time(paths["page"])
    print(
        f"{args.readers} readers in {args.client_processes} client process(es) (think "
        f"{args.think:g} s), {args.seconds:.0f} s a phase, gunicorn "
        f"{args.workers} sync workers, PostgreSQL + Redis, 400 players; a sheet confirmed every "
        f"{args.confirm_every:g} s"
        + (
            f"; {args.scorers} scorers on another event, "
            + (f"a sheet every {args.pace:g} s each" if args.pace else "in a closed loop")
            if desk
            else ""
        )
    )
    for line in table(results):
        print(line)
    if desk:
        print(f"{'phase':<9} {'sheets/s':>8} {'save p50':>8} {'save p95':>8} {'errors':>6}")
        for name, (*_x, (rate, p50, p95), scored, _due) in results.items():
            print(f"{name:<9} {rate:>8.1f} {p50:>8.0f} {p95:>8.0f} {scored.errors:>6}")
    print(
        f"one reader alone, public page: cache hit {alone['hit']:.1f} ms, "
        f"304 {alone['304']:.1f} ms (median of 100, round trip through gunicorn)"
    )
    print(
        f"server time in process (test client, local-memory cache): 304 {inside['304']:.2f} ms "
        f"(CPU {inside['304 cpu']:.2f} ms) with {inside['304 queries']:.0f} query, cache hit "
        f"{inside['hit']:.2f} ms (CPU {inside['hit cpu']:.2f} ms) with "
        f"{inside['hit queries']:.0f} query (medians of 200)"
    )
    missed = staleness_report(results)
    cpu_report(results)
    errors = sum(sum(r[0].errors.values()) + r[-2].errors for r in results.values())
    return 1 if errors or missed else 0


def staleness_report(results) -> int:
    """Print how soon each app server's public JSON showed each confirmation; returns the
    confirmations an app server did not show within 5 s."""
    missed = 0
    for name, (_tally, _elapsed, stale, *_rest, due) in results.items():
        for where, seen in stale.items():
            late = due - sum(1 for s in seen if s <= 5.0)
            if not seen:
                continue
            print(
                f"{name} @ {where}: {due} sheets confirmed; the public JSON showed "
                f"{len(seen)} of them, after median {1000 * statistics.median(seen):.0f} ms, "
                f"max {1000 * max(seen):.0f} ms (+ the 5 s poll of a display or phone)"
                + (f"; {late} NOT within 5 s" if late else "")
            )
            missed += late if len(stale) > 1 else 0  # enforced where two servers share
    return missed


def cpu_report(results) -> None:
    """Server CPU (gunicorn, the database's PostgreSQL backends, Redis) per reader request;
    the scorers' and the writer's share is taken out with the ``scorers`` phase's rate."""
    base_rate = 0.0
    if "scorers" in results:
        _t, elapsed, _s, cpu, *_rest = results["scorers"]
        base_rate = cpu / elapsed if cpu is not None else 0.0
    per_request = {}
    for name, (tally, elapsed, _stale, cpu, *_rest) in results.items():
        requests = sum(len(v) for v in tally.latencies.values())
        if cpu is None or not requests:
            continue
        readers_cpu = max(0.0, cpu - base_rate * elapsed)
        per_request[name] = 1000 * readers_cpu / requests
        print(
            f"{name}: server CPU {cpu:.1f} s in {elapsed:.0f} s ({cpu / elapsed:.2f} cores), "
            f"{per_request[name]:.2f} ms per reader request"
            + (" after the scorers' share" if base_rate else "")
        )
    for name in ("cached", "pooled"):
        if per_request.get("uncached") and per_request.get(name):
            print(
                f"capacity ratio {name}/uncached (server CPU per request): "
                f"{per_request['uncached'] / per_request[name]:.1f}x"
            )
