"""Load and fault test of the table links (issue 16): 100 tables of 4 phones enter hands
concurrently against gunicorn and PostgreSQL on 127.0.0.1.

    python -m bench load --phones                  # 100 tables, 8 hands each, ~20 s apart
    python -m bench load --phones --kill-worker    # the same, killing gunicorn workers
    python -m bench load --phones --short          # CI: 10 tables, 4 hands, seconds

Each table is one thread driving four phones (four sessions, each named by its seat code):
hand n is written by seat n-1 (mod 4) as the phone page sends it (a client id, JSON), and
confirmed by the next seat. A request that fails (a killed worker drops its connection,
a 5xx) is sent again with the same client id, as the page's offline queue does. Every
loop is bounded by a count and a time limit. Afterwards the database is checked: each hand
a phone saw saved is stored once, no table has a gap or a hand twice, and the sheet's Hand
rows are its content version's hands.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from bench.load.shared import kill_workers
from bench.rigs.serving import Client, start_gunicorn, worker_pids


@dataclass
class PhoneStats:
    save_times: list[tuple[float, float]] = field(default_factory=list)  # (time.time(), s)
    confirm_latencies: list[float] = field(default_factory=list)
    saved: dict[int, set[str]] = field(default_factory=dict)  # table -> client ids acknowledged
    resends: int = 0
    repeated: int = 0  # a resend the server recognised (created: false)
    refused: list[str] = field(default_factory=list)
    gave_up: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def save_latencies(self) -> list[float]:
        return [seconds for _, seconds in self.save_times]


class Phone(Client):
    def post_json(self, path: str, data: dict) -> tuple[int, dict]:
        token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        headers = {
            "Accept": "application/json",
            "Accept-Language": "en",
            "Referer": self.base + path,
            "X-CSRFToken": token,
        }
        req = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(req, timeout=30) as response:
                self.headers = response.headers
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            self.headers = error.headers
            text = error.read()
            try:
                return error.code, json.loads(text)
            except ValueError:
                return error.code, {"body": text[:200].decode(errors="replace")}


def prepare(db_url: str, tables: int):
    """Fresh database with one series in play of ``tables`` tables of four and their links."""
    from bench.load.shared import prepare as prepare_database

    event = prepare_database(db_url, 1, tables, 0)  # one scorer user; tables*4 players
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole
    from scoring.sheets.table import links as table_links

    organiser = get_user_model().objects.create_user("leitung", password="x" * 20)
    ClubRole.objects.create(user=organiser, club=event.club, role=ClubRole.Role.ORGANISER)
    series = event.series.get(number=1)
    links = table_links.create_table_links(organiser, series)
    return event, series, sorted(links, key=lambda link: link.table.number)


def _hand_fields(ruleset, rng: random.Random, n: int, size: int) -> dict:
    from rules import random_hand

    hand = random_hand(ruleset, size, rng, dealer=(n - 1) % size, no_winner_rate=0)
    data = {"winner": str(hand.winner + 1), "append_as": str(n)}
    if n == 1:
        data["first_dealer"] = "1"
    if hand.is_hand_romme:
        data["romme"] = "1"
    for k, seat in enumerate(hand.seats, start=1):
        if k - 1 != hand.winner:
            data[f"points-{k}"] = str(seat.hand_points)
        if seat.melded is not None:
            data[f"melded-{k}"] = str(seat.melded)
    return data


class Tables:
    """The phones of every table, one thread per table (``bench.load.phones`` against gunicorn,
    ``bench.load.hall`` against the hall mode). ``new_phone()`` makes one phone's session;
    ``on_confirm(table number, hand number, seconds)`` hears of every confirmation answered
    (``time.monotonic()`` of the answer)."""

    def __init__(self, args, stats: PhoneStats, ruleset, new_phone, on_confirm=None):
        self.args, self.stats, self.ruleset = args, stats, ruleset
        self.new_phone, self.on_confirm = new_phone, on_confirm
        self.deadline = time.monotonic() + args.seconds

    def send(self, phone: Phone, path: str, data: dict, what: str) -> tuple[int, dict] | None:
        """Send until the server answers below 500 (same data, same client id)."""
        stats = self.stats
        for attempt in range(self.args.retries):
            if attempt:
                with stats.lock:
                    stats.resends += 1
                time.sleep(0.2 * attempt)
            try:
                status, body = phone.post_json(path, data)
            except (OSError, http.client.HTTPException):  # a killed worker drops the line
                continue
            if status < 500:
                return status, body
            if time.monotonic() > self.deadline + 30:
                break
        stats.gave_up.append(what)
        return None

    def sit_down(self, link) -> list[Phone]:
        """A phone per seat of ``link``'s table, each named by its seat code."""
        phones = [self.new_phone() for _ in link.seat_codes]
        root = f"/t/{link.token}/"
        for phone, code in zip(phones, link.seat_codes, strict=True):
            phone.request(root)
            status, _ = phone.request(root + "seat/", {"code": code})
            if status != 302:
                self.stats.refused.append(f"table {link.table.number}: seat code {status}")
        return phones

    def table(self, link, rng: random.Random, barrier: threading.Barrier) -> None:
        args, stats = self.args, self.stats
        size = len(link.seat_codes)
        phones = self.sit_down(link)
        root = f"/t/{link.token}/"
        barrier.wait()
        time.sleep(rng.random() * args.pace)  # tables do not finish hands in step
        for n in range(1, args.hands + 1):
            if time.monotonic() > self.deadline:
                return
            writer, checker = phones[(n - 1) % size], phones[n % size]
            client_id = f"bench-{link.table.number}-{n}-{rng.randrange(10**9)}"
            data = {**_hand_fields(self.ruleset, rng, n, size), "client_id": client_id}
            begun, started = time.time(), time.perf_counter()
            answer = self.send(writer, root + "hand/", data, f"table {link.table.number} hand {n}")
            if answer is None:
                return
            status, body = answer
            if status != 200:
                stats.refused.append(f"table {link.table.number} hand {n}: {status} {body}")
                return
            with stats.lock:
                stats.save_times.append((begun, time.perf_counter() - started))
                stats.saved.setdefault(link.table.number, set()).add(client_id)
                stats.repeated += not body.get("created", True)
            started = time.perf_counter()
            answer = self.send(checker, root + "confirm/", {"number": str(n)}, "confirm")
            if answer is not None and answer[0] == 200:
                with stats.lock:
                    stats.confirm_latencies.append(time.perf_counter() - started)
                if self.on_confirm:
                    self.on_confirm(link.table.number, n, time.monotonic())
            time.sleep(args.pace * (0.5 + rng.random()))

    def start(self, links) -> list[threading.Thread]:
        """One thread per table; returns once every phone has named its seat."""
        barrier = threading.Barrier(len(links) + 1)
        threads = [
            threading.Thread(target=self.table, args=(link, random.Random(link.pk), barrier))
            for link in links
        ]
        for thread in threads:
            thread.start()
        barrier.wait()
        return threads


def run(args) -> int:
    event, series, links = prepare(args.database, args.tables)
    server = start_gunicorn(args.database, args.port, args.workers)
    base = f"http://127.0.0.1:{args.port}"
    stats = PhoneStats()
    threads = Tables(args, stats, event.ruleset, lambda: Phone(base)).start(links)
    load_before = os.getloadavg()
    cpu_before = _cpu_seconds(server.pid)
    started = time.perf_counter()
    killed: list[int] = []
    killer = threading.Thread(target=kill_workers, args=(args, server, threads, killed))
    if args.kill_worker:
        killer.start()
    for thread in threads:
        thread.join(timeout=args.seconds + 90)
    elapsed = time.perf_counter() - started
    if args.kill_worker:
        killer.join()
    load_after = os.getloadavg()
    cpu = _cpu_seconds(server.pid) - cpu_before
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)
    return report(args, stats, series, elapsed, killed, (load_before, load_after), cpu)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of gunicorn's master and its live workers (Linux /proc)."""
    pids = [pid, *map(int, worker_pids(pid))]
    total = 0.0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _checks(stats: PhoneStats, series) -> tuple[list[str], int, int]:
    """(failures, hands lost, hands duplicated), read from the database."""
    from django.db import connection

    from scoring.models import Hand, TableHand
    from scoring.sheets.services import content_version

    connection.close()  # a fresh connection after the run
    failures, lost, duplicated = [], 0, 0
    rows = TableHand.objects.filter(table__series=series).exclude(status="replaced")
    by_table: dict[int, list] = {}
    for row in rows.select_related("table"):
        by_table.setdefault(row.table.number, []).append(row)
    for number, acknowledged in stats.saved.items():
        stored = by_table.get(number, [])
        ids = [r.client_id for r in stored]
        missing = acknowledged - set(ids)
        lost += len(missing)
        numbers = sorted(r.number for r in stored)
        duplicated += len(numbers) - len(set(numbers)) + len(ids) - len(set(ids))
        if numbers != list(range(1, len(numbers) + 1)):
            failures.append(f"table {number}: hands {numbers}")
        if missing:
            failures.append(f"table {number}: {len(missing)} saved hands missing")
    for table_number, stored in by_table.items():
        sheet = stored[0].table.sheet
        hands = Hand.objects.filter(sheet=sheet).order_by("number")
        content = content_version(sheet)
        expected = [(i + 1, h["winner"]) for i, h in enumerate(content.grid["hands"])]
        if list(hands.values_list("number", "winner")) != expected:
            failures.append(f"table {table_number}: Hand rows differ from the content version")
        if len(expected) != len(stored):
            duplicated += max(0, len(expected) - len(stored))
            failures.append(f"table {table_number}: {len(expected)} hands, {len(stored)} rows")
    return failures, lost, duplicated


def pct(values, q) -> float:
    """The ``q`` quantile of seconds, in milliseconds (nan for none)."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def report(args, stats, series, elapsed, killed, loads, cpu) -> int:
    failures, lost, duplicated = _checks(stats, series)
    failures += stats.refused[:10] + [f"gave up: {w}" for w in stats.gave_up[:10]]
    saves = stats.save_latencies
    p95 = pct(saves, 0.95)
    print(f"\n## Phone load: {args.tables} tables × 4 phones, {args.hands} hands each")
    print(f"{len(saves)} hand saves in {elapsed:.1f} s ({len(saves) / elapsed:.1f}/s), "
          f"{args.workers} gunicorn workers, pace {args.pace} s, "
          f"load average {loads[0][0]:.2f} → {loads[1][0]:.2f}, "
          f"gunicorn CPU {cpu:.1f} s "
          f"({cpu / max(1, len(saves)) * 1000:.1f} ms per save)")  # fmt: skip
    print("| measure | value | budget |")
    print("|---|---|---|")
    print(f"| hand save p50 / p95 / max (ms) | {pct(saves, 0.5):.0f} / {p95:.0f} / "
          f"{max(saves, default=0) * 1000:.0f} | p95 ≤ 150 |")  # fmt: skip
    confirms = stats.confirm_latencies
    print(f"| confirm p50 / p95 (ms) | {pct(confirms, 0.5):.0f} / {pct(confirms, 0.95):.0f} | |")
    print(f"| workers killed | {len(killed)} | |")
    print(f"| resends (same client id) / recognised | {stats.resends} / {stats.repeated} | |")
    print(f"| hands lost / duplicated | {lost} / {duplicated} | 0 / 0 |")
    mean = statistics.mean(saves) * 1000 if saves else float("nan")
    print(f"| hand save mean (ms) | {mean:.0f} | |")
    if p95 > 150:
        failures.append(f"p95 of a hand save {p95:.0f} ms > 150 ms")
    if lost or duplicated:
        failures.append(f"{lost} hands lost, {duplicated} duplicated")
    print(f"| checks | {'passed' if not failures else 'FAILED'} | passed |")
    for failure in failures[:20]:
        print("  -", failure)
    return 1 if failures else 0


def add_arguments(parser) -> None:
    parser.add_argument("--tables", type=int, default=100, help="--phones: tables of 4 phones")
    parser.add_argument("--hands", type=int, default=8, help="--phones: hands per table")
    parser.add_argument("--retries", type=int, default=20, help="--phones: sends of one hand")


def configure(args) -> None:
    """Defaults of the phone mode where the desktop mode's differ."""
    if args.short:
        args.tables, args.hands, args.seconds, args.pace = 10, 4, 40, 0.5
        return
    # A Rommé hand takes minutes: a table saving one every 20 s (±50 %) is several times a
    # hall's pace, 100 tables at once 5 saves and 5 confirmations a second.
    if args.pace == 2.0:  # the desktop mode's default
        args.pace = 20.0
    if args.seconds == 120:
        args.seconds = args.hands * args.pace * 1.5 + 30
    if args.kill_every == 0.5:  # spread the kills over the run
        args.kill_every = max(0.5, args.hands * args.pace / 2 / args.kills)
