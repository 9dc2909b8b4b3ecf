"""D. Live replication through faults (issue 28): `python -m bench faults --part live`, also in
`--short`. Needs root (the faults cluster on 5433, as part A).

Two installations (bench/live/rig.py): the server is gunicorn (production settings, 2
workers, 127.0.0.1:8721) on the database ``faults_live`` of the faults cluster (created and
dropped; 5432 is never touched), the laptop is ``python -m romme.hall`` (127.0.0.1:8722) on
a fresh data folder, and the laptop reaches the server only through the TCP proxy on
127.0.0.1:8720 (bench/live/proxy.py). The director pairs on the laptop's "Live
veröffentlichen" page; in every phase a helper enters sheets and the director confirms
them (every third time correcting an earlier one) through the laptop's pages, while a
second tab polls the event page and the live page, and one fault happens:

a. the network cut in the middle of a batch (the proxy stops mid-body), back later;
b. the server's gunicorn stopped and started again during the pushes;
c. its PostgreSQL restarted (fast), then stopped as by a crash (immediate) and started;
d. one batch delivered twice (the proxy sends it again once the first answer is in);
g. the token revoked on the server while changes wait (the network down meanwhile): the
   laptop shows the German refusal, the director pairs a new token on the live page;
e. the laptop killed (SIGKILL to the hall's process group) after a commit, before the send:
   the worker is paused while a sheet is entered and confirmed, then takes the push, the
   proxy holds its batch, and the hall dies; started again on the same folder, nobody
   opens a page until the server holds everything (live.laptop.resume schedules the push);
f. the laptop's clock two hours slow (the hall under libfaketime, FAKETIME=-2h).

After each phase the director stops, and (exit status 1 otherwise): the laptop's last
numbered change, its acknowledged one and the server's ReceivedEvent.last_seq become equal
without anyone doing anything (the time is reported); the event archives of both sides
(``manage.py export_event``) are equal field by field except ``exported_at``; the server's
acknowledged numbers never went back; every page the director asked answered 2xx/3xx.
"""

from __future__ import annotations

import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bench.faults.desk import OUT, verdict
from bench.live import rig
from bench.live.proxy import Proxy

PROXY, SERVER, LAPTOP = 8720, 8721, 8722
PHASES = {
    "a": "a. network cut mid-batch",
    "b": "b. gunicorn restarted",
    "c": "c. PostgreSQL restarted (fast, immediate)",
    "d": "d. one batch delivered twice",
    "g": "g. token revoked while changes wait",
    "e": "e. laptop killed after a commit",
    "f": "f. laptop's clock 2 h slow",
}
# 30 tables, then corrections: over STANDINGS_PRERENDER_MIN_PARTICIPANTS (100), so the
# standings PDF is prerendered after confirmations in the hall's task worker while the live
# worker pushes (with one worker for both, the pushes waited behind it for minutes).
PLAYERS = 120
REFUSED = "widerrufen"  # in the German refusal of a revoked token


@dataclass
class Outcome:
    name: str
    restored: float = 0.0  # time.monotonic() when the fault was over
    converged: float | None = None  # seconds from the director's stop (or the restart)
    diffs: list[str] = field(default_factory=list)
    numbers: tuple = ()
    versions: tuple = ()
    notes: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


class Run:
    def __init__(self, args, cluster, root: Path):
        self.args, self.cluster, self.root = args, cluster, root
        self.db = f"postgres://postgres@127.0.0.1:{cluster.port}/faults_live"
        self.folder = root / "laptop"
        self.proxy = Proxy(PROXY, SERVER)
        self.server = self.laptop = None
        OUT.mkdir(exist_ok=True)
        self.server_log = open(OUT / "faults-live-gunicorn.log", "wb")  # noqa: SIM115
        self.laptop_log = open(OUT / "faults-live-hall.log", "wb")  # noqa: SIM115
        self.outcomes: list[Outcome] = []
        short = args.short
        self.lead, self.outage, self.tail = (1.5, 3.0, 1.0) if short else (4.0, 12.0, 4.0)
        self.pace = 0.8

    # ----- set up -------------------------------------------------------------------------

    def prepare(self) -> None:
        holder: dict = {}

        def laptop():  # seeded and started while the server is prepared
            holder["seed"] = rig.seed_laptop(self.folder, PLAYERS)
            holder["laptop"] = rig.start_laptop(self.folder, LAPTOP, self.laptop_log)

        seeding = threading.Thread(target=laptop)
        seeding.start()
        self.club, token = rig.prepare_server(self.db)
        self.server = rig.start_server(self.db, SERVER, self.server_log)
        seeding.join()
        self.seed, self.laptop = holder["seed"], holder["laptop"]
        self.proxy.start()
        self.director = rig.Director(f"http://127.0.0.1:{LAPTOP}", self.seed)
        outcome = Outcome("pairing and the first push")
        self.director.phase = self.proxy.label = outcome.name
        status = self.director.pair(f"http://127.0.0.1:{PROXY}", token)
        if status != 302:
            outcome.failures.append(f"pairing on the live page answered {status}")
        outcome.restored = time.monotonic()
        self.check(outcome, time.monotonic())

    def close(self) -> None:
        self.proxy.stop()
        rig.stop(self.laptop, group=True)
        rig.stop(self.server)
        self.server_log.close()
        self.laptop_log.close()
        self.cluster.ensure()  # a failed phase c may have left it stopped
        rig.drop_db(self.db)
        self.cluster.ctl("stop")

    # ----- a phase ------------------------------------------------------------------------

    def phase(self, key: str, fault) -> Outcome:
        outcome = Outcome(PHASES[key])
        self.director.phase = self.proxy.label = outcome.name
        stop = threading.Event()
        threads = self.director.busy(stop, self.pace)
        time.sleep(self.lead)
        fault(outcome)
        outcome.restored = outcome.restored or time.monotonic()
        time.sleep(self.tail)
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
        self.check(outcome, time.monotonic())
        return outcome

    def check(self, outcome: Outcome, since: float) -> None:
        seconds = 90 if self.args.short else 300
        took = rig.wait_converged(self.folder, self.db, self.seed["event"], seconds)
        # From the end of the fault (the restart of the laptop), not from the director's stop.
        outcome.converged = None if took is None else time.monotonic() - outcome.restored
        outcome.numbers = rig.state(self.folder, self.db, self.seed["event"])
        if took is None:
            outcome.failures.append(f"not converged in {seconds} s: {outcome.numbers}")
        else:
            diffs, mine, theirs = rig.compare_archives(self.folder, self.db, self.seed["event"])
            for _again in range(2):
                if not diffs:
                    break
                # A change made after the wait (the lots seed drawn by the hall's standings
                # prerender, or by the laptop's own archive read just now) is sent by the
                # worker without anyone's help: wait for it, then compare again.
                rig.wait_converged(self.folder, self.db, self.seed["event"], 30)
                diffs, mine, theirs = rig.compare_archives(self.folder, self.db, self.seed["event"])
            outcome.diffs, outcome.versions = diffs, (mine, theirs)
            outcome.failures += [f"archives differ: {d}" for d in diffs]
        pages = [p for p in self.director.pages if p.phase == self.director.phase]
        bad = Counter(p.status for p in pages if not 200 <= p.status < 400)
        if bad:
            outcome.failures.append(f"laptop pages answered {dict(bad)}")
        self.outcomes.append(outcome)
        converged = "never" if outcome.converged is None else f"{outcome.converged:.1f} s"
        print(f"  {outcome.name}: converged after {converged}; {outcome.failures or 'ok'}",
              flush=True)  # fmt: skip

    # ----- the faults ---------------------------------------------------------------------

    def cut(self, outcome: Outcome) -> None:
        if not self.proxy.cut_next_batch().wait(60):
            outcome.failures.append("no batch passed the proxy to cut")
        time.sleep(self.outage)
        self.proxy.start()

    def restart_gunicorn(self, outcome: Outcome) -> None:
        rig.stop(self.server)
        time.sleep(self.outage / 2)
        self.server = rig.start_server(self.db, SERVER, self.server_log)

    def restart_postgres(self, outcome: Outcome) -> None:
        self.cluster.ctl("restart", "-m", "fast")
        time.sleep(self.outage / 2)
        self.cluster.ctl("stop", "-m", "immediate")
        time.sleep(self.outage / 2)
        self.cluster.ctl("start")

    def duplicate(self, outcome: Outcome) -> None:
        if not self.proxy.duplicate_next_batch().wait(60):
            outcome.failures.append("no batch passed the proxy to deliver twice")
            return
        first, again = self.proxy.deliveries[-2:]
        outcome.notes.append(
            f"{PHASES['d']}: changes {first.from_seq}-{first.to_seq} answered {first.status} "
            f"(holds {first.last_seq}), again {again.status} (holds {again.last_seq})"
        )
        if again.how != "duplicate" or again.status != 200 or again.last_seq != first.last_seq:
            outcome.failures.append(f"the batch delivered twice: {first} / {again}")

    def revoke(self, outcome: Outcome) -> None:
        self.proxy.stop()
        time.sleep(self.outage / 2)  # changes wait
        rig.revoke_tokens(self.db)
        self.proxy.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if rig.laptop_link(self.folder, self.seed["event"]).get("refused"):
                break
            time.sleep(0.2)
        seen = self.director.look()
        outcome.notes.append(f"{PHASES['g']}: the laptop's pages said " + " | ".join(
            f"{p.path} {p.status} „{p.text}“" for p in seen))  # fmt: skip
        if any(p.status != 200 or REFUSED not in p.text for p in seen):
            outcome.failures.append("the refusal was not shown on the event and live pages")
        token = rig.new_token(self.db, self.club)
        status = self.director.pair(f"http://127.0.0.1:{PROXY}", token)
        if status != 302:
            outcome.failures.append(f"pairing the new token answered {status}")

    def kill(self) -> Outcome:
        """Not a `phase`: the director stops first, so that exactly one push is under way."""
        import psutil

        outcome = Outcome(PHASES["e"])
        self.director.phase = self.proxy.label = outcome.name
        worker = next(p for p in psutil.Process(self.laptop.pid).children(recursive=True)
                      if "--child live" in " ".join(p.cmdline()))  # fmt: skip
        worker.send_signal(signal.SIGSTOP)
        self.director.play()  # committed: the sheet entered and confirmed
        held = self.proxy.hold_next_batch()
        worker.send_signal(signal.SIGCONT)
        if not held.wait(60):
            outcome.failures.append("the worker's push never reached the proxy")
        tasks = rig.waiting_tasks(self.folder)
        rig.kill_group(self.laptop)
        self.proxy.release()
        last, acked, server = rig.state(self.folder, self.db, self.seed["event"])
        outcome.notes.append(
            f"{PHASES['e']}: killed with changes {acked + 1}-{last} unsent (server holds "
            f"{server}), push tasks {tasks} (a running one is never run again)"
        )
        self.laptop = rig.start_laptop(self.folder, LAPTOP, self.laptop_log)
        outcome.restored = time.monotonic()
        self.check(outcome, outcome.restored)  # nobody opens a page until it converged
        return outcome

    def slow_clock(self) -> None:
        """The director restarts the hall with its clock two hours slow (before the phase:
        a restart the director makes is not a fault of the pages)."""
        rig.stop(self.laptop, group=True)
        self.laptop = rig.start_laptop(self.folder, LAPTOP, self.laptop_log, clock="-2h")

    def stand(self) -> str:
        """What the server's public page says ("Stand hh:mm"), against its clock."""
        server_event = rig.server_received(self.db, self.seed["event"])[0]
        url = f"http://127.0.0.1:{SERVER}/public/events/{server_event}/"
        request = urllib.request.Request(url, headers={"Accept-Language": "de"})
        with urllib.request.urlopen(request, timeout=30) as response:
            page = response.read().decode()
        found = re.search(r"live aus dem Saal, Stand (\d\d:\d\d)", page)
        now = datetime.now(ZoneInfo("Europe/Berlin")).strftime("%H:%M")
        laptop = next((p.text for p in reversed(self.director.pages) if p.text), "")
        return f"server's public page: Stand {found[1] if found else '?'} (server time {now}); " \
               f"laptop's status line: „{laptop}“"  # fmt: skip

    # ----- all of it ----------------------------------------------------------------------

    def run(self) -> None:
        self.prepare()
        self.phase("a", self.cut)
        self.phase("b", self.restart_gunicorn)
        self.phase("c", self.restart_postgres)
        self.phase("d", self.duplicate)
        self.phase("g", self.revoke)
        self.kill()
        self.slow_clock()
        outcome = self.phase("f", lambda _outcome: time.sleep(self.outage))
        self.director.look()
        text = self.stand()
        outcome.notes.append(f"{PHASES['f']}: {text}")
        shown = re.search(r"Stand (\d\d):(\d\d) \(server time (\d\d):(\d\d)", text)
        if not shown or abs(_minutes(shown[1], shown[2]) - _minutes(shown[3], shown[4])) > 3:
            outcome.failures.append(f"the server's Stand is not its time: {text}")


def _minutes(hours: str, minutes: str) -> int:
    return int(hours) * 60 + int(minutes)


def out_of_order(proxy: Proxy) -> int:
    """Answers 200 whose number is below one the server answered before."""
    highest, count = 0, 0
    for delivery in proxy.deliveries:
        if delivery.status == 200 and isinstance(delivery.last_seq, int):
            count += delivery.last_seq < highest
            highest = max(highest, delivery.last_seq)
    return count


def print_table(run: Run) -> None:
    print(f"\nLive replication through faults: laptop python -m romme.hall (SQLite) → TCP proxy → "
          f"gunicorn (2 workers) + PostgreSQL {run.cluster.version} (faults cluster)")  # fmt: skip
    print("| phase | sheets confirmed / corrected | batches 200 / 409 / 5xx / cut, none "
          "| laptop pages 2xx-3xx / other | last change laptop / acked / server "
          "| lost / duplicated | converged after | archives equal |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for o in run.outcomes:
        name = o.name
        codes = Counter(d.status for d in run.proxy.deliveries if d.phase == name)
        pages = [p for p in run.director.pages if p.phase == name]
        good = sum(200 <= p.status < 400 for p in pages)
        sheets = f"{run.director.done[name, 'confirmed']} / {run.director.done[name, 'corrected']}"
        mine_v, theirs_v = o.versions or (0, 0)
        converged = "never" if o.converged is None else f"{o.converged:.1f} s"
        print(f"| {name} | {sheets} | {codes[200]} / {codes[409]} / "
              f"{sum(n for c, n in codes.items() if c >= 500)} / {codes[0]} | {good} / "
              f"{len(pages) - good} | {' / '.join(map(str, o.numbers))} | "
              f"{max(0, mine_v - theirs_v)} / {max(0, theirs_v - mine_v)} | {converged} | "
              f"{'yes' if not o.diffs and o.versions else 'NO'} |")  # fmt: skip


def run_live(args, cluster) -> int:
    # SIGTERM (a CI's timeout) ends the run through the finally below: the hall runs in a
    # session of its own and would outlive this process.
    signal.signal(signal.SIGTERM, lambda *_args: sys.exit("bench.faults.live: terminated"))
    root = Path(tempfile.mkdtemp(prefix="romme-faults-live-"))
    cluster.ensure()
    started = time.monotonic()
    run = Run(args, cluster, root)
    failures: list[str] = []
    try:
        run.run()
    except Exception as error:  # reported with what was measured so far
        failures.append(f"the run stopped: {error!r}")
    finally:
        run.close()
        shutil.rmtree(root, ignore_errors=True)
    print_table(run)
    for outcome in run.outcomes:
        for note in outcome.notes:
            print(note)
        failures += [f"{outcome.name}: {f}" for f in outcome.failures]
    disorder = out_of_order(run.proxy)
    if disorder:
        failures.append(f"{disorder} answers of the server went back in number")
    cuts = Counter(d.how for d in run.proxy.deliveries)
    print(f"batches through the proxy: {dict(cuts)}; acknowledged numbers going back: "
          f"{disorder}; corrections: {run.director.corrections}; {time.monotonic() - started:.0f} "
          f"s in all")  # fmt: skip
    log = (OUT / "faults-live-gunicorn.log").read_text(errors="replace")
    last_lines = [line[:100] for line in log.splitlines() if re.match(r"^\w[\w.]*: ", line)]
    tracebacks = len(re.findall("Traceback", log))
    print(f"server log: {tracebacks} tracebacks; {dict(Counter(last_lines).most_common(4))}")
    return verdict(failures)
