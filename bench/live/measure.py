"""Live results, measured (issue 28's performance paragraph): ``python -m bench live
[--quick]``

Two installations on this machine, as in a hall and at a federation:

* the server: gunicorn (production settings, 2 workers) on 127.0.0.1:8711 with PostgreSQL
  (``BENCH_LIVE_POSTGRES``, default postgres://postgres@127.0.0.1:5432/bench_live_server,
  created and dropped by the bench), the club present and a token per event from
  ``manage.py live_token``;
* the laptop: the hall mode's settings (HALL_MODE=1, ROMME_DATA=a temporary folder: SQLite
  with WAL and synchronous=FULL) in this process, where the director's writes run through
  the services, and the hall's worker children beside it (``python -m romme.hall --child
  worker`` and ``--child live``: ``db_worker`` at lower priority, the live one running the
  sender's ``push_live`` only).

Two 400-player events (5 series of 5 rounds, 100 tables, 100 pairs, 25 teams) are paired
with ``manage.py live_push`` (the first push). Then:

1. visibility: 100 entered sheets of the published series 3 of event A are confirmed
   (``confirm_sheet``, one after the other); each is timed from the commit until the
   server's public ``version.json`` shows a newer results version;
2. director's cost: save + confirm of a new sheet (series 4 and 5 of event A), one a
   second, in blocks of 10 alternately with the link switched off (the worker idle) and
   on (the worker pushing every change as it comes);
3. backlog: gunicorn stopped, event B's 5 series × 100 tables are played on the laptop
   (saved, confirmed, each series completed, published and the next one drawn), and the
   server stays down until the sender retries only every 60 s, as after two hours (6
   failed tries; not with --quick); then the server is started again and the time until
   it holds every change (acked == the last change, the server's ReceivedEvent too) is
   the figure; the top 10 of the overall standing on the server's public JSON must equal
   the laptop's.

``--quick``: 20 confirmations, 20 + 20 sheets of cost, a backlog of 1 series.
``--cost-only N``: the director's cost alone, N sheets a mode (a p95 of 100 moves ±15 %).
``--server-nice 19`` and ``--server-own-disk`` stand in for the server being another
machine: its gunicorn and PostgreSQL backends at a lower CPU priority, its commits not
waiting for the disk the laptop's SQLite syncs to. ``--server-core`` also keeps them off the
CPU the director does not use: they share his (both pinned to it), so they run while he
waits; the laptop's workers keep every CPU. ``--server-elsewhere S`` (with ``--cost-only``)
measures the cost against a stand-in for a server on another machine
(`bench.live.elsewhere`): the link points there during the cost's blocks, each batch is
acknowledged after S seconds, and the server's apply takes none of this machine's CPU.
``--control`` (with ``--cost-only``) keeps the link off in the "on" blocks too: the rise and
its interval that chance alone gives, against which a run with the link on is read.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.live import options
from bench.live.report import report
from bench.live.setup import (
    PORT,
    POSTGRES,
    SERVER_CORE,
    SERVER_NICE,
    BackendNicer,
    Server,
    laptop_env,
    prepare_server,
    setup_laptop,
    start_server,
    stop,
)
from bench.rigs.production import create_server_db, drop_server_db, manage, production_env
from bench.rigs.serving import ROOT, collect_static
from common.gc_tuning import freeze_startup_heap

BLOCK = 10  # sheets per block of the director's cost, alternately off and on
PACE_S = 1.0  # the director's cost: a sheet saved and confirmed every second
ELSEWHERE_PORT = PORT + 1  # --server-elsewhere's stand-in (bench.live.elsewhere)
CAPPED = 6  # failed tries after which the sender retries every BACKOFF_MAX_S (2+4+…+32 s)


# ----- the server ---------------------------------------------------------------------------


def play_sheet(helper, director, table, rng, split: dict | None = None) -> float:
    """The helper enters a whole sheet, the director confirms it; the seconds both took.
    ``split`` ("cpu", "lock"): the process's own CPU and the wait for SQLite's write lock (its
    BEGIN IMMEDIATE); the rest is the disk's syncs and time off the CPU."""
    from django.db import connection

    from rules import random_hand
    from scoring.models import Sheet
    from scoring.sheets.services import confirm_sheet, save_sheet

    size = table.seats.count()
    ruleset = table.series.event.ruleset
    hands = [
        random_hand(ruleset, size, rng, dealer=i % size).to_dict()
        for i in range(table.series.planned_rounds * size)
    ]
    grid = {"first_dealer": 0, "hands": hands}
    lock = [0.0]

    def begin_timed(execute, sql, params, many, context):
        if not sql.startswith("BEGIN"):
            return execute(sql, params, many, context)
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            lock[0] += time.perf_counter() - began

    started, cpu = time.perf_counter(), time.thread_time()
    with connection.execute_wrapper(begin_timed):
        save_sheet(helper, table, grid, expected_version=0, submit=True)
        version = Sheet.objects.filter(table=table).values_list("version", flat=True).get()
        confirm_sheet(director, table, grid, expected_version=version)
    took = time.perf_counter() - started
    if split is not None:
        split["cpu"].append(time.thread_time() - cpu)
        split["lock"].append(lock[0])
    return took


def next_series(director, event, number: int):
    """Complete and publish series ``number - 1``, draw and start ``number``."""
    from scoring.standings.services import set_series_published
    from tournaments import services
    from tournaments.seating import draw_series

    done = event.series.get(number=number - 1)
    if done.status != done.Status.COMPLETE:
        services.complete_series(director, done)
    set_series_published(director, event.series.get(number=number - 1), True)
    series = draw_series(director, event.series.get(number=number), seed=number)
    return services.start_series(director, series)


def tables_of(series):
    return list(series.tables.order_by("number").select_related("series__event__club"))


def link_state(event_id: int) -> tuple[int, int]:
    """(acked, last numbered change) of the laptop's link."""
    from live.models import LiveLink

    acked, next_seq = LiveLink.objects.filter(event_id=event_id).values_list(
        "acked_seq", "next_seq"
    )[0]
    return acked, next_seq - 1


def worker_idle() -> bool:
    from django.utils import timezone
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    busy = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).exists()
    due = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, run_after__lte=timezone.now()
    ).exists()
    due = (
        due
        or DBTaskResult.objects.filter(
            status=TaskResultStatus.READY, run_after__isnull=True
        ).exists()
    )
    return not busy and not due


def wait_for(check, seconds: float, what: str, pause: float = 0.1) -> float:
    started = time.perf_counter()
    while not check():
        if time.perf_counter() - started > seconds:
            raise RuntimeError(f"{what}: not within {seconds:.0f} s")
        time.sleep(pause)
    return time.perf_counter() - started


def no_push_running() -> bool:
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from live.laptop.sender import push_live

    running = DBTaskResult.objects.filter(
        task_path=push_live.module_path, status=TaskResultStatus.RUNNING
    )
    return not running.exists()


def pushes_between(start, end) -> list[dict]:
    """The worker's finished pushes in [start, end] (wall clock): started, took, result."""
    from django_tasks_db.models import DBTaskResult

    from live.laptop.sender import push_live

    rows = DBTaskResult.objects.filter(
        task_path=push_live.module_path, finished_at__gte=start, started_at__lte=end
    ).order_by("started_at")
    return [
        {
            "started": r.started_at,
            "took": (r.finished_at - r.started_at).total_seconds(),
            "result": r.return_value or {},
        }
        for r in rows
    ]


# ----- the three measurements -----------------------------------------------------------------


def measure_visibility(server: Server, event, director, count: int) -> list[float]:
    from scoring.models import Sheet
    from scoring.sheets.services import confirm_sheet

    server_id = server.received(event.pk)[0]
    sheets = list(
        Sheet.objects.filter(table__series__event=event, status=Sheet.Status.ENTERED)
        .select_related("table__series__event__club")
        .order_by("table__number")[:count]
    )
    seconds = []
    for sheet in sheets:
        before = server.version(server_id)
        grid = sheet.versions.order_by("-number").first().grid
        confirm_sheet(director, sheet.table, grid, expected_version=sheet.version)
        committed = time.perf_counter()
        while server.version(server_id) <= before:
            if time.perf_counter() - committed > 120:
                raise RuntimeError("a confirmation did not reach the server in 120 s")
            time.sleep(0.05)
        seconds.append(time.perf_counter() - committed)
    return seconds


def measure_cost(event, director, helper, per_mode: int, control: bool = False) -> dict:
    from django.utils import timezone

    from live.laptop.services import set_sending

    rng = random.Random(28)
    tables: list = []
    number = 3
    times: dict[str, list[float]] = {"off": [], "on": []}
    split = {m: {"cpu": [], "lock": []} for m in times}  # play_sheet's split of each save
    busy = {"on": 0.0, "off": 0.0}
    spent = {"on": 0.0, "off": 0.0}
    pushes = {"on": 0, "off": 0}
    # When each link-on save ran and when each push ran (wall clock, s): which saves met one.
    saves_on: list[tuple[float, float]] = []
    push_spans: list[tuple[float, float]] = []
    mode = "off"
    next_start = time.perf_counter()
    while min(len(v) for v in times.values()) < per_mode:
        sending = mode == "on" and not control  # --control: off in both kinds of block
        set_sending(director, event, sending)
        if not sending:  # the switch-off is honoured, the last push finished
            wait_for(worker_idle, 120, "the worker's last push")
        block_start, wall = timezone.now(), time.perf_counter()
        next_start = wall
        for _ in range(BLOCK):
            time.sleep(max(0.0, next_start - time.perf_counter()))
            next_start += PACE_S
            if not tables:
                number += 1
                tables = tables_of(next_series(director, event, number))
            started = time.time()
            times[mode].append(play_sheet(helper, director, tables.pop(0), rng, split[mode]))
            if mode == "on":
                saves_on.append((started, started + times[mode][-1]))
        spent[mode] += time.perf_counter() - wall
        done = pushes_between(block_start, timezone.now())
        pushes[mode] += sum(1 for p in done if p["result"].get("state") == "done")
        busy[mode] += sum(p["took"] for p in done)
        if mode == "on":
            push_spans += [(p["started"].timestamp(), p["started"].timestamp() + p["took"])
                           for p in done]  # fmt: skip
        mode = "on" if mode == "off" else "off"
    set_sending(director, event, True)
    wait_for(lambda: link_state(event.pk)[0] == link_state(event.pk)[1], 120, "last push")
    met = [any(a < end and start < b for a, b in push_spans) for start, end in saves_on]
    return {"times": times, "busy": busy, "spent": spent, "pushes": pushes, "met": met,
            "split": split}  # fmt: skip


def measure_backlog(
    server: Server, event, director, helper, series_count, env, log, capped: bool
) -> dict:
    from django.utils import timezone

    from scoring.standings import labels, selectors

    rng = random.Random(29)
    offline_start = time.perf_counter()
    for number in range(1, series_count + 1):
        if number > 1:
            next_series(director, event, number)
        for table in tables_of(event.series.get(number=number)):
            play_sheet(helper, director, table, rng)
    from scoring.standings.services import set_series_published
    from tournaments import services

    last = event.series.get(number=series_count)
    services.complete_series(director, last)
    set_series_published(director, event.series.get(number=series_count), True)
    from live.models import LiveLink

    if capped:  # as after two hours: the sender tries every BACKOFF_MAX_S (±20 %)
        wait_for(
            lambda: LiveLink.objects.get(event=event).failures >= CAPPED,
            600,
            "the sender's backoff at its cap",
            pause=1.0,
        )
    offline = time.perf_counter() - offline_start
    acked, last_seq = link_state(event.pk)

    failures = LiveLink.objects.get(event=event).failures
    process = start_server(env, log)
    back_wall = timezone.now()

    def converged() -> bool:
        # Against the laptop's newest number, read each time: a change numbered after the
        # outage (a lots seed drawn by a standings read) belongs to the backlog too.
        acked, newest = link_state(event.pk)
        return acked == newest and (server.received(event.pk) or (0, -1))[1] == newest

    try:
        caught = wait_for(converged, 600, "the backlog", pause=0.2)
    except RuntimeError:
        stop(process)  # (the caller stops only the server it knows of)
        raise
    # The push acknowledges in its own transaction before the worker marks its task done:
    # the breakdown below waits for that row (the figure above does not).
    wait_for(no_push_running, 60, "the last push's task row")
    done = [p for p in pushes_between(back_wall, timezone.now()) if p["result"].get("state")]
    first = next((p for p in done if p["result"]["state"] == "done"), None)
    server_id = server.received(event.pk)[0]
    standing = selectors.event_standing(
        event, competition=labels.INDIVIDUAL, scope=labels.OVERALL, only_published=True
    )
    mine = [(r.rank, r.name, r.total) for r in standing.rows[:10]]
    theirs = server.top(server_id)
    return {
        "process": process,
        "offline": offline,
        "changes": last_seq - acked,
        "failures": failures,
        "caught": caught,
        # (0 when a try was already under way as the server came back)
        "waited": max(0.0, (first["started"] - back_wall).total_seconds()) if first else None,
        "push": sum(p["took"] for p in done if p["result"].get("state") == "done"),
        "parts": sum(p["result"].get("sent", 0) for p in done),
        "batches": sum(p["result"].get("batches", 0) for p in done),
        "equal": mine == theirs and len(mine) == 10,
        "mine": mine,
        "theirs": theirs,
    }


# ----- the run --------------------------------------------------------------------------------


def point_elsewhere(event, delay: float, log) -> subprocess.Popen:
    """Start the stand-in for a server on another machine and point the event's link at it
    (the link's numbers and fingerprints stay: it goes on from what the real server holds)."""
    from live.models import LiveLink

    process = subprocess.Popen(
        [sys.executable, "-m", "bench.live.elsewhere", "--port", str(ELSEWHERE_PORT),
         "--delay", str(delay)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True,
    )  # fmt: skip
    if process.stdout.readline().strip() != "ready":
        raise RuntimeError("the stand-in server did not start")
    LiveLink.objects.filter(event_id=event.pk).update(
        server_url=f"http://127.0.0.1:{ELSEWHERE_PORT}"
    )
    return process


def main(argv=None) -> int:
    args = options.parse(argv, __doc__.splitlines()[0])
    SERVER_NICE[0] = args.server_nice
    SERVER_CORE[0] = min(os.sched_getaffinity(0)) if args.server_core else None
    visible_n, cost_n, backlog_series = (20, 20, 1) if args.quick else (100, 100, 5)
    if args.cost_only:
        visible_n, cost_n = 0, args.cost_only
    db_url = os.environ.get("BENCH_LIVE_POSTGRES", POSTGRES)
    tmp = Path(tempfile.mkdtemp(prefix="romme-live-bench-"))
    folder = tmp / "laptop"
    server_env = production_env(db_url)
    processes: dict = dict.fromkeys(("server", "worker", "live", "nicer", "elsewhere"))
    log = open(tmp / "processes.log", "wb")  # noqa: SIM115 - closed in finally
    loads = [os.getloadavg()]
    try:
        started = time.perf_counter()
        create_server_db(db_url, own_disk=args.server_own_disk)
        # Series 4 on take the cost's saves, both modes' (100 tables a series).
        club, event_a, event_b, director, helper = setup_laptop(folder, 3 + -(-2 * cost_n // 100))
        server_club = prepare_server(server_env, club.name, club.short_name)
        tokens = [manage(server_env, "live_token", "--club", str(server_club)) for _ in "ab"]
        collect_static(server_env)
        processes["server"] = start_server(server_env, log)
        print(f"prepared in {time.perf_counter() - started:.0f} s", flush=True)
        first_push = []
        for event, token in zip((event_a, event_b), tokens, strict=True):
            began = time.perf_counter()
            manage(laptop_env(folder), "live_push", str(event.pk),
                   "--to", f"http://127.0.0.1:{PORT}", "--token", token)  # fmt: skip
            first_push.append(time.perf_counter() - began)
        manage(laptop_env(folder), "collectstatic", "--noinput", "-v0")  # as the hall does
        # The hall's own worker children (romme.hall: below the web server's priority; the
        # pushes in a worker of their own).
        for name in ("worker", "live"):
            processes[name] = subprocess.Popen(
                [sys.executable, "-m", "romme.hall", "--child", name, "--data", str(folder)],
                cwd=ROOT, env=laptop_env(folder), stdin=subprocess.PIPE, stdout=log, stderr=log,
            )  # fmt: skip
        server = Server(db_url)
        if args.server_nice:  # the server's PostgreSQL backends as well (BackendNicer)
            processes["nicer"] = BackendNicer(db_url, args.server_nice, server.pid)
            processes["nicer"].start()
        if args.server_core:  # the director here; the workers above keep every CPU
            os.sched_setaffinity(0, {SERVER_CORE[0]})
        loads.append(os.getloadavg())
        visible = backlog = None
        if visible_n:
            visible = measure_visibility(server, event_a, director, visible_n)
            print(f"visibility: median {statistics.median(visible):.2f} s", flush=True)
            loads.append(os.getloadavg())
        if args.server_elsewhere is not None:
            processes["elsewhere"] = point_elsewhere(event_a, args.server_elsewhere, log)
        # As in the hall's web process (romme/wsgi.py): a full collection in a timed save
        # walks what saves leave, not the set-up's heap (78-93 ms a walk, performance log).
        freeze_startup_heap()
        cost = measure_cost(event_a, director, helper, cost_n, args.control)
        print("director's cost measured", flush=True)
        loads.append(os.getloadavg())
        if not args.cost_only:
            stop(processes["server"])
            processes["server"] = None
            backlog = measure_backlog(
                server, event_b, director, helper, backlog_series, server_env, log, not args.quick
            )
            processes["server"] = backlog.pop("process")
            loads.append(os.getloadavg())
        server.conn.close()
    finally:
        if processes["nicer"] is not None:
            processes["nicer"].stop()
        for name in ("worker", "live", "server", "elsewhere"):
            stop(processes[name])
        log.close()
        errors = (tmp / "processes.log").read_text(errors="replace")
        drop_server_db(db_url)
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return report(args, visible, cost, backlog, first_push, loads, errors)
