"""Scorers at their desks (``python -m bench load`` without ``--phones``): concurrent scorers
against gunicorn and PostgreSQL on 127.0.0.1.

It creates a fresh database (LOAD_DATABASE_URL, default romme_load on the local server),
starts gunicorn on 127.0.0.1 only, lets every virtual scorer log in, submit whole sheets
of its own tables and have a second user confirm them, while pairs of scorers save the
same sheet at the same moment. Every loop is bounded by a count and a time limit.
Afterwards it checks the database itself and exits non-zero if any check fails.
"""

from __future__ import annotations

import random
import re
import signal
import statistics
import threading
import time
from dataclasses import dataclass, field

from bench.load.shared import kill_workers, prepare
from bench.rigs.serving import Client, start_gunicorn
from bench.rigs.sheet_form import sheet_post, sheet_version


@dataclass
class Stats:
    save_latencies: list[float] = field(default_factory=list)
    confirm_latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    accepted_tables: set[int] = field(default_factory=set)
    confirmed_tables: set[int] = field(default_factory=set)
    conflicts: list[tuple[int, bool]] = field(default_factory=list)  # (table, message shown)
    refused_without_message: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    aborted: int = 0
    pairs_aborted: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def status(self, code: int) -> None:
        with self.lock:
            self.statuses[code] = self.statuses.get(code, 0) + 1


def run(args) -> int:
    event = prepare(args.database, args.scorers, args.sheets, args.pairs)
    from scoring.models import Sheet
    from tournaments.models import Table

    series = event.series.get(number=1)
    tables = list(Table.objects.filter(series=series).order_by("number").prefetch_related("seats"))
    sizes = {t.number: t.seats.count() for t in tables}
    ruleset = event.ruleset
    rounds = series.planned_rounds
    server = start_gunicorn(args.database, args.port, args.workers)
    base = f"http://127.0.0.1:{args.port}"
    stats = Stats()
    deadline = time.monotonic() + args.seconds
    own = [t.number for t in tables[: args.scorers * args.sheets]]
    shared = [t.number for t in tables[args.scorers * args.sheets :]]

    def sheet_path(number: int) -> str:
        return f"/series/{series.pk}/tables/{number}/sheet/"

    def record_refusal(status: int, body: str, what: str) -> None:
        if status >= 500:
            stats.server_errors.append(f"{what}: {status}")
        elif status in (400, 409) and not re.search(
            r"Someone else saved|problem|class=\"problem", body
        ):
            stats.refused_without_message.append(f"{what}: {status}")

    def scorer(index: int, barrier: threading.Barrier) -> None:
        rng = random.Random(index)
        me, checker = Client(base), Client(base)
        me.login(f"s{index}")
        checker.login(f"c{index}")
        barrier.wait()
        # Scorers start a sheet every `pace` seconds (staggered), as people at a desk do;
        # without pacing, 50 clients in a closed loop measure only the queue.
        next_start = time.monotonic() + rng.random() * args.pace
        for number in own[index * args.sheets : (index + 1) * args.sheets]:
            time.sleep(max(0.0, next_start - time.monotonic()))
            next_start += args.pace
            if time.monotonic() > deadline:
                return
            try:
                _, page = me.request(sheet_path(number))
                data = sheet_post(ruleset, sizes[number], rounds, rng, sheet_version(page))
                start = time.perf_counter()
                status, body = me.request(sheet_path(number), data)
                with stats.lock:
                    stats.save_latencies.append(time.perf_counter() - start)
                stats.status(status)
                if status != 302:
                    record_refusal(status, body, f"save table {number}")
                    continue
                with stats.lock:
                    stats.accepted_tables.add(number)
                _, page = checker.request(sheet_path(number))
                start = time.perf_counter()
                # The confirm posts the grid the checker's page shows (the one just saved).
                confirm = {**data, "expected_version": str(sheet_version(page))}
                status, body = checker.request(sheet_path(number) + "confirm/", confirm)
                with stats.lock:
                    stats.confirm_latencies.append(time.perf_counter() - start)
                stats.status(status)
                if status == 302:
                    with stats.lock:
                        stats.confirmed_tables.add(number)
                else:
                    record_refusal(status, body, f"confirm table {number}")
            except (OSError, RuntimeError) as error:  # a killed worker drops its connections
                with stats.lock:
                    stats.aborted += 1
                if not args.kill_worker:
                    stats.server_errors.append(f"table {number}: {error}")

    def pair(index: int, barrier: threading.Barrier) -> None:
        number = shared[index]
        a, b = Client(base), Client(base)
        a.login(f"p{index}a")
        b.login(f"p{index}b")
        barrier.wait()
        try:
            versions = [sheet_version(a.request(sheet_path(number))[1]),
                        sheet_version(b.request(sheet_path(number))[1])]  # fmt: skip
        except (OSError, RuntimeError):
            with stats.lock:
                stats.aborted += 1
                stats.pairs_aborted += 1
            return
        posts = [sheet_post(ruleset, sizes[number], rounds, random.Random(index * 2 + k),
                             versions[k]) for k in range(2)]  # fmt: skip
        results = [None, None]
        go = threading.Barrier(2)

        def save(k, client):
            go.wait()
            try:
                results[k] = client.request(sheet_path(number), posts[k])
            except OSError:  # its worker was killed mid-request
                results[k] = (0, "")

        both = [threading.Thread(target=save, args=(k, c)) for k, c in enumerate((a, b))]
        for thread in both:
            thread.start()
        for thread in both:
            thread.join()
        codes = sorted(r[0] for r in results)
        if 0 in codes:
            with stats.lock:
                stats.aborted += codes.count(0)
                stats.pairs_aborted += 1
            return
        for code, _body in results:
            stats.status(code)
            if code >= 500:
                stats.server_errors.append(f"pair table {number}: {code}")
        if codes == [302, 409]:
            body = next(b for c, b in results if c == 409)
            with stats.lock:
                stats.conflicts.append((number, "Someone else saved" in body))
                stats.accepted_tables.add(number)
        elif codes == [302, 302]:
            stats.server_errors.append(f"pair table {number}: both saves accepted")

    everyone = args.scorers + args.pairs + 1
    barrier = threading.Barrier(everyone)
    workers = [threading.Thread(target=scorer, args=(i, barrier)) for i in range(args.scorers)]
    workers += [threading.Thread(target=pair, args=(i, barrier)) for i in range(args.pairs)]
    for thread in workers:
        thread.start()
    barrier.wait()  # everybody has logged in: the clock starts
    started = time.perf_counter()
    killed: list[int] = []

    murderer = (
        threading.Thread(target=kill_workers, args=(args, server, workers, killed))
        if args.kill_worker
        else None
    )
    if murderer:
        murderer.start()
    for thread in workers:
        thread.join(timeout=args.seconds + 60)
    elapsed = time.perf_counter() - started
    if murderer:
        murderer.join()
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)
    return report(args, stats, elapsed, killed, series, sizes, rounds, Sheet)


def report(args, stats, elapsed, killed, series, sizes, rounds, Sheet) -> int:
    from django.db import connection
    from django.db.models import Count

    from rules import HandResult, score_hand
    from scoring.models import HandSeat

    failures = list(stats.server_errors) + list(stats.refused_without_message)
    sheets = {
        s.table.number: s
        for s in Sheet.objects.filter(table__series=series)
        .select_related("table")
        .annotate(
            hand_count=Count("hands", distinct=True), version_count=Count("versions", distinct=True)
        )
    }
    for number in stats.accepted_tables:
        sheet = sheets.get(number)
        expected_hands = rounds * sizes[number]
        if sheet is None:
            failures.append(f"table {number}: accepted but not stored")
        elif sheet.hand_count != expected_hands:
            failures.append(f"table {number}: {sheet.hand_count} of {expected_hands} hands")
    for number, sheet in sheets.items():
        if sheet.hand_count not in (0, rounds * sizes[number]):
            failures.append(f"table {number}: half-written ({sheet.hand_count} hands)")
    for number, shown in stats.conflicts:
        sheet = sheets[number]
        if sheet.version_count != 1:
            failures.append(f"conflict table {number}: {sheet.version_count} versions stored")
        if not shown:
            failures.append(f"conflict table {number}: refusal did not show the other changes")
    # Standings against an independent recomputation from the stored grids.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT hs.participant_id, SUM(hs.points) FROM scoring_handseat hs "
            "JOIN scoring_hand h ON h.id = hs.hand_id JOIN scoring_sheet s ON s.id = h.sheet_id "
            "JOIN tournaments_table t ON t.id = s.table_id WHERE t.series_id = %s "
            "GROUP BY hs.participant_id",
            [series.pk],
        )
        stored = dict(cursor.fetchall())
    recomputed: dict[int, int] = {}
    ruleset = series.event.ruleset
    for sheet in Sheet.objects.filter(table__series=series).prefetch_related(
        "versions", "table__seats"
    ):
        grid = max(sheet.versions.all(), key=lambda v: v.number).grid
        seats = sorted(sheet.table.seats.all(), key=lambda s: s.position)
        for hand in grid["hands"]:
            points = score_hand(HandResult.from_dict(hand), ruleset, len(seats))
            for seat, value in zip(seats, points, strict=True):
                recomputed[seat.participant_id] = recomputed.get(seat.participant_id, 0) + value
    if stored != recomputed:
        failures.append("standings differ from the recomputation of the stored hands")
    orphan_seats = HandSeat.objects.filter(hand__sheet__isnull=True).count()
    if orphan_seats:
        failures.append(f"{orphan_seats} hand seats without a sheet")

    saves = sorted(stats.save_latencies)

    def pct(values, q):
        return values[min(len(values) - 1, round(q * (len(values) - 1)))] * 1000 if values else 0

    accepted = len(stats.accepted_tables)
    rate = accepted / elapsed if elapsed else 0
    print(
        f"\nload test: {args.scorers} scorers x {args.sheets} sheets, {args.pairs} conflict pairs,"
        f" {args.workers} gunicorn workers"
        f"{f', {len(killed)} workers killed with SIGKILL during the saves' if killed else ''}"
    )
    print("| measure | value | goal |")
    print("|---|---|---|")
    print(f"| sheets accepted | {accepted} | |")
    print(f"| sheets confirmed | {len(stats.confirmed_tables)} | |")
    print(f"| throughput | {rate:.1f} sheets/s | 20 or more |")
    print(f"| save p50 | {statistics.median(saves) * 1000 if saves else 0:.0f} ms | |")
    print(f"| save p95 | {pct(saves, 0.95):.0f} ms | 500 or less |")
    confirms = sorted(stats.confirm_latencies)
    print(f"| confirm p50 | {pct(confirms, 0.5):.0f} ms | |")
    shown = sum(1 for _, s in stats.conflicts if s)
    checked = args.pairs - stats.pairs_aborted
    print(f"| conflicts refused with the other's changes | {shown} of {checked} pairs | all |")
    print(f"| requests aborted by the killed worker | {stats.aborted} | |")
    print(f"| HTTP statuses | {dict(sorted(stats.statuses.items()))} | no 5xx |")
    print(f"| database checks | {'passed' if not failures else 'FAILED'} | passed |")
    for failure in failures[:20]:
        print("  -", failure)
    return 1 if failures else 0
