"""C. The hall mode on a full and a read-only disk (issue 26): `python -m bench faults --part
hall`, also in `--short`. Needs root (a tmpfs and bind mounts).

The hall's data folder lies on a 48 MB tmpfs of its own (/tmp/hallfault-*/tmpfs, reached
through a bind mount /tmp/hallfault-*/data, see below), prepared as bench.load.hall does
(`bench.load.hall.prepare`: the first start, an event with series 1 in play and its table
links), and `python -m romme.hall` runs on it as a director starts it (waitress, SQLite in WAL
mode with synchronous=FULL, the task worker and the backup loop; HALL_BACKUP_TICK=1 and
HALL_ARCHIVE_SECONDS=3 so that the loop's tries fall into the run). Each table's four phones
(`bench.load.phones`: from 127.0.0.3, a phone by HALL_OTHER_DEVICES, with the Host of
HALL_URL) name their seats and enter and confirm hands as the phone page does (JSON, a
client id per hand), then:

* disk full: the event's archives are removed from the backup folder (so that the loop has
  one to write) and the tmpfs filled to its last byte; each table's next hand is sent once
  (503 with the fault in German in the JSON, Retry-After), a new phone names its seat (the
  German 503 page: the session cannot be written), the table pages are read, the director's
  start page on the laptop is read; then the filler deleted and the same hands sent again
  with the same client ids (each lands once; sent a third time, it is recognised, created
  false) and confirmed; the loop writes the event's archive again;
* read-only: the same with the data folder read-only, then writable again.

A tmpfs cannot be remounted read-only while a file on it is open for writing (EBUSY), and the
hall keeps files open for its whole life (hall.lock, hall.log, the backup loop's SQLite
connection). So the data folder is a bind mount of the tmpfs, and "read-only" stacks a
read-only bind mount of the same tmpfs over it (`mount --bind -o ro`; undone by `umount -l`):
every file opened from then on is on a read-only file system, as the hall's requests open
their SQLite connection each (CONN_MAX_AGE=0), while descriptors opened before keep writing
(the log, the lock, the children's connections). A disk the kernel forces read-only after
I/O errors refuses those too; that is not tried here.

Checked (exit status 1 otherwise): no 500; every 503 names its fault in German (the JSON's
message, or the page) with Retry-After; every hand save in a fault answered 503; every hand
lands once after the fault; in the database every acknowledged hand stored once with what
was sent, no gap, every sheet's hands equal to its newest version's grid and its versions
complete, PRAGMA integrity_check ok; the backup loop's process the same from start to end,
its archive written again after the disk was freed; when the loop's failure on the full disk
was logged, the director's start page on the laptop named a problem in German meanwhile.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

from bench.faults.desk import (
    OUT,
    SAYS,
    Answer,
    check_answers,
    check_sheets,
    fill,
    page_kind,
    print_causes,
    print_table,
    recovery,
    verdict,
)
from bench.load.hall import DIRECTOR, HALL_ADDRESS, PHONE_ADDRESS, ROUNDS, prepare
from bench.load.phones import Phone, PhoneStats, Tables, _checks, _hand_fields
from bench.rigs.serving import Client, start_hall, stop_hall

BEFORE, FULL, FREED = "hands before", "disk full: save, name a seat", "disk freed: send again"
READ_ONLY, WRITABLE = "read-only: save, name a seat", "rw again: send again"
EXPECTED = {FULL: "disk_full", READ_ONLY: "read_only"}
BEFORE_HANDS = 2
# The start page's alert about the backups or the data folder (hall/_start_panel.html).
BACKUP_PROBLEM = re.compile(
    r'class="warning-box" role="alert">([^<]*(?:Sicherung|Datenordner|Speicherplatz)[^<]*)<'
)


def json_kind(body: dict) -> str:
    """What a 503's JSON says: its fault when the message names it in German."""
    fault = body.get("fault")
    if fault in SAYS and SAYS[fault] in str(body.get("message", "")):
        return fault
    return "JSON without a German message" if "fault" in body else "not JSON"


class Room:
    """The phones of every table, seated before the faults; every answer recorded."""

    def __init__(self, base: str, host: str, scenario, attempts: int, pause: float):
        self.base, self.host, self.pause, self.attempts = base, host, pause, attempts
        self.series, self.ruleset = scenario.series, scenario.ruleset
        self.links = {link.table.number: link for link in scenario.links}
        self.stats = PhoneStats()
        settings = argparse.Namespace(seconds=600, retries=attempts)
        self.tables = Tables(settings, self.stats, self.ruleset, self.new_phone)
        self.phones = {t: self.tables.sit_down(link) for t, link in self.links.items()}
        self.answers: list[Answer] = []
        self.phase = ""
        self.sent: dict[tuple[int, int], dict] = {}
        self.created: dict[tuple[int, int], list[bool]] = {}  # each 200's "created"
        self.rng = random.Random(26)

    def new_phone(self) -> Phone:
        return Phone(self.base, host=self.host, source=PHONE_ADDRESS)

    def record(self, method: str, path: str, status: int, sent: float, client, kind: str):
        answer = Answer(self.phase, method, path, status, time.monotonic(), sent)
        if status >= 500:
            answer.kind = kind
            answer.retry_after = client.headers.get("Retry-After") if client.headers else None
        self.answers.append(answer)

    def post(self, phone: Phone, path: str, data: dict) -> tuple[int, dict]:
        sent = time.monotonic()
        try:
            status, body = phone.post_json(path, data)
        except (OSError, http.client.HTTPException):
            status, body = 0, {}
        self.record("POST", path, status, sent, phone, json_kind(body))
        return status, body

    def read(self, client: Client, path: str, data: dict | None = None) -> int:
        sent = time.monotonic()
        try:
            status, body = client.request(path, data)
        except OSError:
            status, body = 0, ""
        self.record("POST" if data else "GET", path, status, sent, client, page_kind(body))
        return status

    def save(self, table: int, number: int, tries: int) -> int:
        """Hand ``number`` of ``table`` from its writer's phone, sent again (same client id)
        after a pause while unanswered or 5xx; the last status."""
        if (table, number) not in self.sent:
            fields = _hand_fields(self.ruleset, self.rng, number, 4)
            fields["client_id"] = f"hallfault-{table}-{number}-{self.rng.randrange(10**9)}"
            self.sent[table, number] = fields
        data, path = self.sent[table, number], f"/t/{self.links[table].token}/hand/"
        status = 0
        for attempt in range(tries):
            time.sleep(self.pause if attempt else 0)
            status, body = self.post(self.phones[table][(number - 1) % 4], path, data)
            if status == 200:
                self.stats.saved.setdefault(table, set()).add(data["client_id"])
                self.created.setdefault((table, number), []).append(body.get("created"))
            if status not in (0, 500, 502, 503):
                break
        return status

    def confirm(self, table: int, number: int) -> int:
        path = f"/t/{self.links[table].token}/confirm/"
        return self.post(self.phones[table][number % 4], path, {"number": str(number)})[0]

    def newcomer(self, table: int) -> int:
        """A phone not seen before names a seat (writes a session): 302, or the 503 page."""
        phone, root = self.new_phone(), f"/t/{self.links[table].token}/"
        self.read(phone, root)
        return self.read(phone, root + "seat/", {"code": self.links[table].seat_codes[2]})


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def read_only(data: Path, disk: Path, on: bool) -> None:
    """A read-only bind mount of the tmpfs stacked over the data folder's mount, or taken off."""
    if on:
        mount("--bind", "-o", "ro", str(disk), str(data))
    else:
        subprocess.run(["umount", "-l", str(data)], check=True, capture_output=True)
    if bool(os.statvfs(data).f_flag & os.ST_RDONLY) != on:
        raise RuntimeError(f"{data} is not {'read-only' if on else 'writable'}")


def backup_child(hall) -> int | None:
    import psutil

    for child in psutil.Process(hall.pid).children(recursive=True):
        try:
            if "--child backups" in " ".join(child.cmdline()):
                return child.pid
        except psutil.Error:
            continue
    return None


def wait_for(condition, seconds: float) -> float | None:
    """Seconds until ``condition()`` held (polled every 0.2 s), None after ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(0.2)
    return None


def run_hall(args) -> int:
    root = Path(tempfile.mkdtemp(prefix="hallfault-", dir="/tmp"))
    disk, data = root / "tmpfs", root / "data"
    disk.mkdir()
    data.mkdir()
    halls: list = []
    try:
        mount("-t", "tmpfs", "-o", "size=48m", "tmpfs", str(disk))
        mount("--bind", str(disk), str(data))
        return _hall_phases(args, disk, data, halls)
    finally:
        for hall in halls:
            stop_hall(hall)
        with contextlib.suppress(Exception):  # Django may not be set up yet
            from django.db import connections

            connections.close_all()
        for _ in range(5):  # the data folder's mounts: the bind and a read-only one on it
            if not os.path.ismount(data):
                break
            subprocess.run(["umount", "-l", str(data)], capture_output=True)
        for _ in range(50):
            if not os.path.ismount(disk):
                break
            subprocess.run(["umount", str(disk)], capture_output=True)
            time.sleep(0.2)
        shutil.rmtree(root, ignore_errors=True)


def truncate_wal(database: Path, seconds: float = 10) -> None:
    """Empty SQLite's WAL file before the disk is filled. After a checkpoint SQLite writes
    into the WAL file's blocks again from its start: a small write (a phone naming its seat)
    then lands on a full disk without a new block, as it did once here; from an empty WAL
    file every write needs one. Tried again while a reader holds the WAL."""
    deadline = time.monotonic() + seconds
    with closing(sqlite3.connect(database, timeout=seconds)) as raw:
        while raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]:
            if time.monotonic() > deadline:
                raise RuntimeError(f"could not empty the WAL of {database} in {seconds:g} s")
            time.sleep(0.05)


def _hall_phases(args, disk: Path, data: Path, halls: list) -> int:
    from django.db import connections

    folder = data / "daten"
    started = time.monotonic()
    plan = argparse.Namespace(tables=args.hall_tables, rounds=ROUNDS, seconds=0, director_pace=1)
    scenario = prepare(folder, plan)
    connections.close_all()
    port = args.hall_port
    base, host = f"http://127.0.0.1:{port}", f"{HALL_ADDRESS}:{port}"
    OUT.mkdir(exist_ok=True)
    log_path = OUT / "faults-hall.log"
    loop = {"HALL_BACKUP_TICK": "1", "HALL_ARCHIVE_SECONDS": "3"}
    with open(log_path, "w") as log:
        halls.append(start_hall(folder, port, f"http://{host}", PHONE_ADDRESS, log=log, env=loop))
    ready = time.monotonic() - started
    hall, failures = halls[0], []
    room = Room(base, host, scenario, attempts=20, pause=args.pause)
    tables = sorted(room.links)
    room.phase = BEFORE
    for table in tables:
        for number in range(1, BEFORE_HANDS + 1):
            room.save(table, number, room.attempts)
            room.confirm(table, number)
    director = Client(base)
    director.login(DIRECTOR)
    backups_pid = backup_child(hall)
    archives = folder / "backups" / "events"

    def archived() -> list[Path]:
        return list(archives.glob(f"e{scenario.event_id}_*.json"))

    shown, pages = {}, {}

    def fault_phase(phase: str, number: int) -> None:
        room.phase = phase
        for table in tables:
            room.read(room.phones[table][0], f"/t/{room.links[table].token}/")
            room.save(table, number, tries=1)
        room.newcomer(tables[0])
        status, body = director.fetch("/", headers={"Accept-Language": "de"})
        problem = BACKUP_PROBLEM.search(body.decode(errors="replace"))
        shown[phase] = f"{status}, {problem[1].strip()[:90] if problem else 'no backup problem'}"
        pages[phase] = dict(Counter(a.status for a in room.answers
                                    if a.phase == phase and a.method == "GET"))  # fmt: skip

    def send_again(phase: str, number: int) -> float:
        room.phase, freed = phase, time.monotonic()
        for table in tables:
            room.save(table, number, room.attempts)
            room.save(table, number, tries=1)  # once more: recognised, stored once
            room.confirm(table, number)
        room.newcomer(tables[0])
        return freed

    for old in archived():
        old.unlink()  # the loop writes it again at its next tick: into the full disk
    logged = log_path.stat().st_size
    truncate_wal(folder / "romme.sqlite3")
    filler = fill(disk)
    free = os.statvfs(disk).f_bavail

    def loop_failed() -> bool:
        with open(log_path, errors="replace") as text:
            text.seek(logged)
            return f"Backup e{scenario.event_id} into" in text.read()

    tried = wait_for(loop_failed, 10)
    fault_phase(FULL, BEFORE_HANDS + 1)
    filler.unlink()
    freed = send_again(FREED, BEFORE_HANDS + 1)
    rewritten = wait_for(archived, 15)
    read_only(data, disk, True)
    fault_phase(READ_ONLY, BEFORE_HANDS + 2)
    read_only(data, disk, False)
    writable = send_again(WRITABLE, BEFORE_HANDS + 2)
    alive = backup_child(hall)
    stop_hall(halls.pop())
    elapsed = time.monotonic() - started

    failures += check_answers(room, EXPECTED)
    for phase, kind in EXPECTED.items():
        saves = Counter(a.status for a in room.answers
                        if a.phase == phase and a.path.endswith("/hand/"))  # fmt: skip
        if set(saves) != {503}:
            failures.append(f"{phase}: hand saves answered {dict(saves)}, not 503 {kind}")
    for (table, number), created in sorted(room.created.items()):
        if number > BEFORE_HANDS and created != [True, False]:
            failures.append(f"table {table} hand {number}: created {created} after the fault")
    newcomers = [a.status for a in room.answers if a.path.endswith("/seat/")]
    if newcomers != [503, 302, 503, 302]:
        failures.append(f"new phones naming a seat (full, freed, read-only, rw): {newcomers}")
    confirms = Counter(a.status for a in room.answers if a.path.endswith("/confirm/"))
    if set(confirms) != {200}:
        failures.append(f"confirmations answered {dict(confirms)}")
    if backups_pid is None or alive != backups_pid:
        failures.append(f"backup loop: pid {backups_pid} before, {alive} after the faults")
    if tried is not None and "no backup problem" in shown[FULL]:
        failures.append(
            "backup loop: its failure on the full disk was logged, but the director's start "
            "page showed no problem (it reads backup-state.json, which the full disk refused)"
        )
    if rewritten is None:
        failures.append("backup loop: no archive of the event within 15 s of freeing the disk")
    check, lost, duplicated = _checks(room.stats, scenario.series)
    failures += check + room.stats.refused
    sheet_failures, _sheets = check_sheets(scenario.series)
    failures += sheet_failures + stored_as_sent(room)
    with closing(sqlite3.connect(folder / "romme.sqlite3")) as raw:
        integrity = raw.execute("PRAGMA integrity_check").fetchone()[0]
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")

    phases = list(dict.fromkeys(a.phase for a in room.answers))
    since = {FREED: freed, WRITABLE: writable}
    rows = {p: "–" if p in EXPECTED else
            recovery([a for a in room.answers if a.phase == p], since.get(p))
            for p in phases}  # fmt: skip
    print_table(
        f"Hall mode (python -m romme.hall: waitress, SQLite WAL + synchronous=FULL, task worker, "
        f"backup loop) on a 48 MB tmpfs; {len(tables)} tables × 4 phones; the hall up "
        f"{ready:.0f} s after the start, {elapsed:.0f} s in all",
        room, rows, Counter(),
    )  # fmt: skip
    print(f"free blocks when full: {free}; table pages read (full, read-only): "
          f"{[pages.get(p) for p in EXPECTED]}; hands lost / duplicated: {lost} / {duplicated}; "
          f"integrity_check: {integrity}")  # fmt: skip
    print(f"backup loop: pid {backups_pid} before, {alive} after; its failure logged "
          f"{_seconds(tried)} after the fill; the event archived again {_seconds(rewritten)} "
          f"after the disk was freed")  # fmt: skip
    for phase, text in shown.items():
        print(f"director's start page on the laptop, {phase}: {text}")
    print_causes(log_path)
    return verdict(failures)


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def stored_as_sent(room: Room) -> list[str]:
    """Every acknowledged hand's stored row holds the winner and points its phone sent."""
    from scoring.models import TableHand

    rows = {r.client_id: r for r in TableHand.objects.filter(table__series=room.series)}
    failures = []
    for (table, number), fields in sorted(room.sent.items()):
        row = rows.get(fields["client_id"])
        if fields["client_id"] not in room.stats.saved.get(table, ()):
            failures.append(f"table {table} hand {number}: never acknowledged")
            continue
        points = [str(s["hand_points"] or 0) for s in row.hand["seats"]] if row else []
        sent = [fields.get(f"points-{k}", "0") for k in range(1, 5)]
        if row is None or row.number != number or row.hand["winner"] + 1 != int(fields["winner"]):
            failures.append(f"table {table} hand {number}: stored {row and row.number}")
        elif points != sent:
            failures.append(f"table {table} hand {number}: points {points}, sent {sent}")
    return failures
