"""The scorers' side of bench.faults and its checks: every answer recorded, the browser's
resend after a 503 or a dropped connection, the database read back after the faults, and
the table the run prints."""

from __future__ import annotations

import errno
import random
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.rigs.serving import PASSWORD, ROOT, Client
from bench.rigs.sheet_form import sheet_post, sheet_version

KEPT = "Ihre Eingaben in der Spielliste bleiben in diesem Browser erhalten"
SAYS = {
    "database": "Die Datenbank ist im Moment nicht erreichbar",
    "disk_full": "Der Speicherplatz des Servers ist voll",
    "read_only": "Die Datenbank ist im Moment schreibgeschützt",
}


def page_kind(body: str) -> str:
    """What a 5xx page says: the fault of the German 503 page, "generic" (500) or "other"."""
    if KEPT in body and '<html lang="de">' in body:
        return next((kind for kind, text in SAYS.items() if text in body), "German, unknown")
    return "generic" if "Fehler / Error" in body else "other"


@dataclass
class Answer:
    phase: str
    method: str
    path: str
    status: int  # 0: the connection dropped or was refused
    at: float  # answered (time.monotonic)
    sent: float
    kind: str = ""  # 5xx: page_kind()
    retry_after: str | None = None


@dataclass
class Desk:
    """The scorers' side: the series, what each table was sent and how it ended."""

    base: str
    series: object
    sizes: dict[int, int]
    rounds: int
    ruleset: object
    pause: float
    attempts: int = 60
    phase: str = ""
    answers: list[Answer] = field(default_factory=list)
    posted: dict[int, dict] = field(default_factory=dict)
    phase_of: dict[int, str] = field(default_factory=dict)  # where a table's save began
    outcome: dict[int, str] = field(default_factory=dict)  # "saved" or what went wrong
    done: int = 0  # tables finished in the current phase
    lock: threading.Lock = field(default_factory=threading.Lock)

    def sheet(self, number: int) -> str:
        return f"/series/{self.series.pk}/tables/{number}/sheet/"

    def ask(self, client: Client, path: str, data=None) -> tuple[int, str]:
        """One request, recorded; (0, "") when the connection failed."""
        sent = time.monotonic()
        try:
            status, body = client.request(path, data)
        except OSError:
            status, body = 0, ""
        answer = Answer(self.phase, "POST" if data else "GET", path, status, time.monotonic(), sent)
        if status >= 500:
            answer.kind = page_kind(body)
            answer.retry_after = client.headers.get("Retry-After") if client.headers else None
        with self.lock:
            self.answers.append(answer)
        return status, body

    def open(self, client: Client, number: int, rng: random.Random) -> None:
        """Open the sheet (again while it fails) and type a whole grid into it."""
        self.phase_of[number] = self.phase
        for _ in range(self.attempts):
            status, page = self.ask(client, self.sheet(number))
            if status == 200:
                version = sheet_version(page)
                self.posted[number] = sheet_post(
                    self.ruleset, self.sizes[number], self.rounds, rng, version
                )
                return
            time.sleep(self.pause)
        self.outcome[number] = "page never opened"

    def send(self, client: Client, number: int, tries: int | None = None) -> None:
        """Save; the browser's resend: the same grid after a pause while 5xx or no answer."""
        for attempt in range(tries or self.attempts):
            if attempt:
                time.sleep(self.pause)
            status, _ = self.ask(client, self.sheet(number), self.posted[number])
            if status == 302:
                self.outcome[number] = "saved"
                return
            if status == 409:  # an earlier send landed and its answer was lost?
                self.outcome[number] = "a resend refused as a conflict (409)"
                return
            if status not in (0, 500, 503):
                self.outcome[number] = f"refused {status}"
                return
        self.outcome[number] = f"not saved after {tries or self.attempts} sends"

    def newcomer(self, username: str, tries: int | None = None) -> bool:
        """Someone not logged in yet logs in (again while it fails); True once in."""
        client = Client(self.base)
        for attempt in range(tries or self.attempts):
            time.sleep(self.pause if attempt else 0)
            if self.ask(client, "/login/")[0] == 200:
                login = {"username": username, "password": PASSWORD}
                if self.ask(client, "/login/", login)[0] == 302:
                    return True
        return False

    def save(self, client: Client, number: int, rng: random.Random) -> None:
        self.open(client, number, rng)
        if number in self.posted:
            self.send(client, number)

    def run(self, phase: str, clients, numbers, action, pace: float = 0.0, wait=True):
        """Every client does ``action`` to its share of ``numbers``, one every ``pace`` s."""
        self.phase, self.done = phase, 0

        def work(index: int, client: Client) -> None:
            rng = random.Random(f"{phase}/{index}")
            for k, number in enumerate(numbers[index :: len(clients)]):
                time.sleep(pace if k else 0)
                action(client, number, rng)
                with self.lock:
                    self.done += 1

        threads = [threading.Thread(target=work, args=(i, c)) for i, c in enumerate(clients)]
        for thread in threads:
            thread.start()
        for thread in threads if wait else ():
            thread.join(timeout=600)
        return threads


def desk_for(event, base: str, args) -> Desk:
    from django.db import connection

    from tournaments.models import Table

    series = event.series.get(number=1)
    sizes = {t.number: len(t.seats.all()) for t in
             Table.objects.filter(series=series).prefetch_related("seats")}  # fmt: skip
    connection.close()  # the bench holds no connection while the faults happen
    return Desk(base, series, sizes, series.planned_rounds, event.ruleset, args.pause)


def logged_in(base: str, count: int) -> list[Client]:
    clients = [Client(base) for _ in range(count)]
    for i, client in enumerate(clients):
        client.login(f"s{i}")
    return clients


# ----- the checks ---------------------------------------------------------------------------


def _hand_rows(sheet) -> list[tuple]:
    return [(h.number, h.dealer, h.winner, h.hand_romme,
             tuple((s.hand_points, s.melded, s.cards or "")
                   for s in sorted(h.seats.all(), key=lambda s: s.position)))
            for h in sorted(sheet.hands.all(), key=lambda h: h.number)]  # fmt: skip


def _grid_rows(grid: dict) -> list[tuple]:
    return [(n, h["dealer"], h["winner"], h["hand_romme"],
             tuple((s["hand_points"], s["melded"], s["cards"] or "") for s in h["seats"]))
            for n, h in enumerate(grid["hands"], start=1)]  # fmt: skip


def _as_typed(rows: list[tuple]) -> list[tuple]:
    """Stored hands as the grid's cells: hand points per seat (0 for the winner), melded."""
    return [(tuple((str(points or 0), None if melded is None else str(melded))
                   for points, melded, _cards in seats), romme)
            for _n, _dealer, _winner, romme, seats in rows]  # fmt: skip


def _typed(data: dict, size: int, rounds: int) -> list[tuple]:
    return [(tuple((data[f"cell-{n}-{k}"], data.get(f"melded-{n}-{k}"))
                   for k in range(1, size + 1)), f"romme-{n}" in data)
            for n in range(1, rounds * size + 1)]  # fmt: skip


def check_sheets(series) -> tuple[list[str], dict]:
    """(failures, sheets by table number): every sheet of ``series`` has its versions 1..n
    and its Hand/HandSeat rows equal to its newest version's grid (nothing half-written)."""
    from django.db import connection

    from scoring.models import Sheet

    connection.close()
    failures = []
    sheets = {
        s.table.number: s
        for s in Sheet.objects.filter(table__series=series)
        .select_related("table")
        .prefetch_related("versions", "hands__seats")
    }
    for number, sheet in sorted(sheets.items()):
        versions = sorted(sheet.versions.all(), key=lambda v: v.number)
        if [v.number for v in versions] != list(range(1, sheet.version + 1)) or not versions:
            failures.append(f"table {number}: version {sheet.version}, {len(versions)} stored")
            continue
        rows = _hand_rows(sheet)
        if not rows or rows != _grid_rows(versions[-1].grid):
            failures.append(f"table {number}: {len(rows)} hands, not v{sheet.version}'s grid")
    return failures, sheets


def check_database(desk: Desk) -> tuple[list[str], Counter]:
    """(failures, acknowledged saves lost per phase), read from the database after the run."""
    failures, sheets = check_sheets(desk.series)
    lost = Counter()
    for number, outcome in sorted(desk.outcome.items()):
        sheet, sent = sheets.get(number), desk.posted.get(number)
        stored = bool(sheet and sent) and _as_typed(_hand_rows(sheet)) == _typed(
            sent, desk.sizes[number], desk.rounds
        )
        if outcome != "saved" or not stored:
            lost[desk.phase_of[number]] += outcome == "saved"
            failures.append(f"table {number}: {outcome}, {'' if stored else 'not '}stored")
    return failures, lost


def check_answers(desk: Desk, expected: dict[str, str]) -> list[str]:
    """No 500; every 5xx is the German 503 page of the phase's fault, with Retry-After."""
    failures = []
    for a in desk.answers:
        if a.status >= 500 and a.status != 503:
            failures.append(f"{a.phase}: {a.method} answered {a.status} ({a.kind} page)")
        elif a.status == 503 and a.kind != expected.get(a.phase, "database"):
            failures.append(f"{a.phase}: {a.method} answered 503 with the {a.kind} page")
        elif a.status == 503 and not a.retry_after:
            failures.append(f"{a.phase}: {a.method} answered 503 without Retry-After")
    return failures


def recovery(answers: list[Answer], since: float | None = None) -> str:
    """From the first failed answer (or ``since``) to the first success after the last one."""
    failed = [a.at for a in answers if a.status == 0 or a.status >= 500]
    start = since if since is not None else (failed[0] if failed else None)
    if start is None:
        return "no outage seen"
    after = [a.at for a in answers if a.status in (200, 302) and a.at > max([*failed, start])]
    return f"{after[0] - start:.1f} s" if after else "never"


def print_table(title: str, desk: Desk, rows: dict[str, str], lost: Counter) -> None:
    print(f"\n{title}")
    print("| phase | requests | 200 | 302 | 409 | 503 (German page) | 500 | conn. errors "
          "| recovered after | acknowledged saves lost |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for phase, recovered in rows.items():
        mine = [a for a in desk.answers if a.phase == phase]
        codes = Counter(a.status for a in mine)
        german = sum(1 for a in mine if a.status == 503 and a.kind in SAYS)
        print(f"| {phase} | {len(mine)} | {codes[200]} | {codes[302]} | {codes[409]} "
              f"| {codes[503]} ({german}) | {codes[500]} | {codes[0]} | {recovered} "
              f"| {lost[phase]} |")  # fmt: skip


def print_causes(log_path: Path) -> None:
    """The driver's exceptions behind the 5xx, from the server's log (faults.py logs each)."""
    causes = Counter(
        re.sub(r"\s+", " ", re.sub(r"connection to server at .*? failed: ", "", line))[:100]
        for line in log_path.read_text(errors="replace").splitlines()
        if re.match(r"^(psycopg|sqlite3)[\w.]*: ", line)
    )
    print(f"exceptions in {log_path.relative_to(ROOT)} (the driver's, last line of a traceback):")
    for cause, count in causes.most_common(10):
        print(f"  {count:4d} x {cause}")


def verdict(failures: list[str]) -> int:
    print(f"checks: {'passed' if not failures else 'FAILED'}")
    for failure in failures[:25]:
        print("  -", failure)
    return 1 if failures else 0


# The fault runs' logs, and the filler both disk parts use (the laptop, the hall).
OUT = ROOT / "bench" / "out"


def fill(folder: Path) -> Path:
    """A filler file that takes every free byte of the file system (tmpfs: every page)."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as out:
        for size in (1 << 20, 4096, 1):
            chunk = b"\0" * size
            try:
                while out.write(chunk):
                    pass
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
    return filler
