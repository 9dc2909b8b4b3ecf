"""The hall mode: `python -m romme.hall` (or `make hall`) makes the director's laptop the
server for the phones in the hall.

This module is the hall's whole process handling, kept small and free of anything only
POSIX has (no fork, no POSIX signals, no shell, no Unix paths; the signal mask only where
there is one), so that it starts the same from a desktop shortcut on Windows, from the
Terminal on macOS and from make on Linux:

- the data folder (`common.datafolder`): refused with a German message when it cannot be
  written, and locked (filelock) so that a second hall mode on the same folder stops
  before it touches anything;
- a folder of another application, or one written by a newer version, refused before
  anything is written; an update of the app migrates the database after a copy of it
  (`romme.upgrade`: a failed migration writes the copy back and exits 2);
- the secret key made on the first start, the database migrated, the static files
  collected (production settings: DEBUG off, whitenoise, CSP enforced);
- three child processes started with the same Python: the task worker (long exports,
  prints, archive imports) and the live results' worker (its pushes only, so a long print
  never holds one up), both below the web server's priority, and the backup loop
  (`hall_backups`). Each watches its standard input and ends when the pipe closes, so that
  a hall killed hard leaves no orphans on any system; a child that dies is started again;
- the web server in this process: waitress (threads, pure Python, runs on Windows and
  macOS), on all IPv4 addresses, never Django's runserver.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import os
import signal
import sys
import threading
import time
import webbrowser
from pathlib import Path

from common.gc_tuning import freeze_startup_heap

BASE_DIR = Path(__file__).resolve().parent.parent
CHILDREN = ("worker", "live", "backups")
RESTART_SECONDS = 5.0
# The two workers run below the web server's priority: the director's saves and the phones
# win the laptop's CPU (bench.live_bench, issue 28). The backup loop keeps its priority (a
# backup is due every few minutes whatever the load).
CHILD_NICENESS = 10


# Set by Ctrl+C (`_on_ctrl_c`): a KeyboardInterrupt raised inside a finalizer or a callback
# is swallowed ("Exception ignored in …"; seen during a first start's migrations, and the
# hall went on starting), so the start looks at this between its steps (`_go_on`).
_interrupted = threading.Event()


def _on_ctrl_c(signum, frame) -> None:
    _interrupted.set()
    raise KeyboardInterrupt


def _go_on() -> None:
    if _interrupted.is_set():
        raise KeyboardInterrupt


def _say(text: str) -> None:
    print(text, flush=True)


def _fail(text: str) -> int:
    print(text, file=sys.stderr, flush=True)
    return 2


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    from romme.arguments import GermanParser

    parser = GermanParser(
        prog="romme-ledger hall",
        description="Rommé Ledger im Saal: der Laptop als Server für die Handys.",
    )
    parser.add_argument("--data", help="Datenordner (sonst ROMME_DATA oder der Benutzerordner)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("HALL_PORT", "8000")))
    parser.add_argument(
        "--listen", default=os.environ.get("HALL_LISTEN", "0.0.0.0"), help="Adresse zum Lauschen"
    )
    parser.add_argument("--threads", type=int, default=int(os.environ.get("HALL_THREADS", "8")))
    parser.add_argument("--no-browser", action="store_true", help="keinen Browser öffnen")
    parser.add_argument(
        "--upgrade-only",
        action="store_true",
        help="nur die Daten auf diese Version bringen (mit Sicherungskopie), nicht starten",
    )
    parser.add_argument("--child", choices=(*CHILDREN, "static"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def _environment(args: argparse.Namespace, folder: Path) -> None:
    os.environ["HALL_MODE"] = "1"
    os.environ["ROMME_DATA"] = str(folder)
    os.environ["HALL_PORT"] = str(args.port)
    os.environ["HALL_LISTEN"] = args.listen
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    os.environ.pop("DEBUG", None)
    os.environ.pop("DATABASE_URL", None)  # the hall's database is the data folder's SQLite


def _django():
    sys.path.insert(0, str(BASE_DIR))
    import django

    django.setup()
    from django.core.management import call_command

    return call_command


# ----- children -----------------------------------------------------------------------------


def _watch_parent() -> None:
    """End this child when the hall's pipe closes: the parent ended, however it ended.

    Reads the descriptor, not ``sys.stdin``: a thread blocked in ``sys.stdin.buffer.read``
    holds the reader's lock, and a process forked meanwhile (the PDF workers of a long
    print, `scoring.exports.formats.pdf_parts`) hangs for ever when multiprocessing closes
    its inherited ``sys.stdin`` (the standings prerender never finished in the hall)."""
    try:
        while os.read(sys.stdin.fileno(), 1024):
            pass
    except (OSError, ValueError):
        pass
    os._exit(0)


def _resume_live() -> None:
    """Changes numbered for the live server before a crash get their push now, not when
    the director next opens a page (live.laptop.resume). A database fault here must not keep
    the worker from starting: the page's nudge still sends them later."""
    from django.db import DatabaseError

    from live.laptop.resume import resume_pushes

    try:
        resume_pushes()
    except DatabaseError as error:
        _say(f"Live: ausstehende Änderungen nicht eingeplant ({error}).")


def run_child(name: str) -> int:
    # Ctrl+C in the console reaches the hall's whole process group: the child ends by its
    # pipe when the hall has stopped, not with a traceback of its own (the task workers'
    # db_worker sets its own handler and stops quietly). It started with Ctrl+C blocked
    # (`Child.start`); one that came since is dropped here, as ignored.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_watch_parent, name="parent-watch", daemon=True).start()
    if name not in ("backups", "static") and hasattr(os, "nice"):  # (Windows has no nice)
        os.nice(CHILD_NICENESS)
    if name == "live":  # its commits unsynced but one (romme/settings.py)
        os.environ["HALL_SQLITE_SYNC"] = "NORMAL"
    call_command = _django()
    if name == "static":  # a first start's collectstatic, beside the migrations
        _collect_static(call_command)
        return 0
    freeze_startup_heap()  # as the web server does (romme/wsgi.py)
    if name == "worker":  # exports, prints, imports
        call_command("db_worker", reload=False, queue_name="default")  # (reload=False: none)
    elif name == "live":  # live results' pushes: never behind a long print (issue 28)
        _resume_live()
        call_command("db_worker", reload=False, queue_name="live")
    else:
        call_command("hall_backups")
    return 0


class Child:
    def __init__(self, name: str, folder: Path, port: int):
        self.name = name
        self.command = [
            sys.executable,
            "-m",
            "romme.hall",
            "--child",
            name,
            "--data",
            str(folder),
            "--port",
            str(port),
        ]
        self.process = None
        self.stopping = False

    def start(self) -> None:
        import subprocess

        # The child inherits the blocked Ctrl+C through fork and exec and unblocks it once it
        # ignores it (`run_child`): a Ctrl+C in its first moments, before Python has read a
        # line of it, is not a KeyboardInterrupt either. (Windows has no signal mask.)
        with _sigint_blocked():
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, cwd=BASE_DIR)

    def keep_alive(self) -> None:
        while not self.stopping:
            if self.process is not None and self.process.poll() is not None:
                _say(f"Hintergrundprozess „{self.name}“ beendet, wird neu gestartet.")
                time.sleep(RESTART_SECONDS)
                if not self.stopping:
                    self.start()
            time.sleep(1.0)

    def stop(self) -> None:
        stop_children([self])


@contextlib.contextmanager
def _sigint_blocked():
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # (This thread's mask only: a Ctrl+C meanwhile waits and reaches the hall at the end.)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def stop_children(children: list[Child], seconds: float = 10.0) -> None:
    """Every child's pipe closed at once (each child's watcher ends it), then one wait for
    all of them: Ctrl+C ends the hall within `seconds` however many children there are and
    whatever one of them is doing; a child still running then is terminated."""
    import subprocess

    running = []
    for child in children:
        child.stopping = True
        process = child.process
        if process is None or process.poll() is not None:
            continue
        process.stdin.close()
        running.append(child)
    deadline = time.monotonic() + seconds
    for child in running:
        try:
            child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _say(f"Hintergrundprozess „{child.name}“ reagiert nicht, wird beendet.")
            child.process.terminate()  # TerminateProcess on Windows
            child.process.wait(timeout=10)


# ----- the hall -----------------------------------------------------------------------------


def _banner(laptop: str, listen: str) -> None:
    from common import lan

    found = lan.hall_address(fresh=True)
    _say("")
    from common.version import __version__

    _say(f"Rommé Ledger {__version__} im Saal")
    _say(f"  Am Laptop:   {laptop}")
    if found.url:
        _say(f"  Handys:      {found.url}")
        for other in found.others:
            _say(f"               {other}")
    else:
        _say("  Handys:      kein Netzwerk gefunden. Laptop mit dem WLAN des Saals (Reiserouter)")
        _say("               verbinden oder den Hotspot des Laptops einschalten.")
    if listen not in ("0.0.0.0", ""):
        _say(f"  (lauscht nur auf {listen})")
    _say("  Beenden:     Strg+C in diesem Fenster")
    _say("")


def _first_start_hint(laptop: str) -> None:
    from django.contrib.auth import get_user_model

    if not get_user_model().objects.exists():
        _say(
            f"Erster Start: Öffnen Sie {laptop} an diesem Laptop und legen Sie das Konto der "
            "Turnierleitung und den Verein an."
        )


def _collect_static(call_command) -> None:
    """collectstatic, hashed for whitenoise, only when the app's static files changed since
    the last start (it takes seconds: most of a start on an older laptop)."""
    import hashlib

    from django.conf import settings
    from django.contrib.staticfiles import finders

    digest = hashlib.sha256()
    for finder in finders.get_finders():
        for path, storage in sorted(finder.list([]), key=lambda item: item[0]):
            stat = os.stat(storage.path(path))
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    root = Path(settings.STATIC_ROOT)
    stamp = root / ".collected"
    fingerprint = digest.hexdigest()
    manifest = root / "staticfiles.json"
    if manifest.exists() and stamp.exists() and stamp.read_text() == fingerprint:
        return
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(fingerprint)


def run(args: argparse.Namespace) -> int:
    from common import datafolder

    # "Strg+C" ends the hall however it was started: a start in the background of a script
    # (a CI job, a desktop launcher's shell) inherits Ctrl+C ignored, and Python then never
    # raises KeyboardInterrupt (waitress ran on after SIGINT).
    signal.signal(signal.SIGINT, _on_ctrl_c)
    folder = datafolder.resolve(args.data)
    from romme.upgrade import foreign_database

    foreign = datafolder.foreign_reason(folder) or foreign_database(folder)
    if foreign:
        return _fail(
            f"Der Ordner {folder} ist kein Datenordner von Rommé Ledger ({foreign}). Bitte "
            "einen leeren oder den bisherigen Datenordner wählen (--data). Nichts wurde "
            "verändert."
        )
    problem = datafolder.check_writable(folder)
    if problem:
        return _fail(
            f"Der Datenordner {folder} kann nicht beschrieben werden ({problem}). "
            "Ist der Datenträger voll oder schreibgeschützt? Nichts wurde gestartet."
        )
    from filelock import FileLock, Timeout

    lock = FileLock(str(datafolder.lock_path(folder)), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return _fail(
            f"Rommé Ledger läuft bereits mit dem Datenordner {folder}. Ein zweiter Start mit "
            "demselben Ordner ist nicht möglich: Bitte das offene Fenster benutzen oder dort "
            "mit Strg+C beenden."
        )
    try:
        return _serve(args, folder)
    except KeyboardInterrupt:  # during the start (the running hall ends in `_serve`)
        _say(
            "Start abgebrochen (Strg+C). Gespeicherte Daten bleiben erhalten; der nächste "
            "Start macht dort weiter."
        )
        return 130
    finally:
        lock.release()


def _serve(args: argparse.Namespace, folder: Path) -> int:
    _environment(args, folder)
    call_command = _django()
    _say(f"Datenordner: {folder}")
    from romme import upgrade

    static = Child("static", folder, args.port)

    def first_start() -> None:
        # A new folder has nothing to protect: its static files are collected by a child
        # while this process migrates (each takes seconds; the laptop has two cores or more).
        if not args.upgrade_only:
            static.start()

    try:
        upgrade.bring_up_to_date(
            folder,
            lambda: call_command("migrate", interactive=False, verbosity=0),
            _say,
            on_fresh=first_start,
        )
        _go_on()
    except upgrade.UpgradeRefused as refused:
        static.stop()
        return _fail(str(refused))
    except KeyboardInterrupt:
        static.stop()
        raise
    if static.process is not None:
        static.process.wait()  # its collectstatic done (then its pipe may close)
        static.process.stdin.close()
    if args.upgrade_only:
        _say(f"Daten auf dem Stand von Version {upgrade.__version__}.")
        return 0
    _collect_static(call_command)  # (nothing to do when the child collected them)
    from hall.services import load

    load()
    _go_on()
    # HALL_BACKUPS=0 leaves the backup loop out (the capacity bench compares both ways).
    names = [n for n in CHILDREN if n != "backups" or os.environ.get("HALL_BACKUPS") != "0"]
    children = [Child(name, folder, args.port) for name in names]
    try:
        for child in children:
            child.start()
            name = f"keep-{child.name}"
            threading.Thread(target=child.keep_alive, name=name, daemon=True).start()
        from waitress import create_server

        from romme.wsgi import application

        try:
            server = create_server(
                application,
                host=args.listen,
                port=args.port,
                threads=args.threads,
                ident="",  # no Server header naming the software
                channel_timeout=120,
                connection_limit=400,  # 100 phones, their spectators and the display
            )
        except OSError as error:
            return _fail(
                f"Port {args.port} ist belegt ({error.strerror}). Läuft Rommé Ledger schon? "
                f"Sonst einen anderen Port wählen: romme-ledger hall --port 8001"
            )
        from common import lan

        # The director's own browser: where this hall answers on this laptop.
        laptop = lan.laptop_url(args.port, args.listen)
        _banner(laptop, args.listen)
        _first_start_hint(laptop)
        if not args.no_browser and not os.environ.get("CI"):
            webbrowser.open(laptop)
        try:
            _go_on()
            server.run()  # returns on Ctrl+C (waitress takes the KeyboardInterrupt)
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
        _say("Rommé Ledger wird beendet …")
    finally:
        stop_children(children)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if hasattr(signal, "SIGUSR1"):  # `kill -USR1 <pid>`: every thread's stack to the console
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    if args.child:
        from common import datafolder

        _environment(args, datafolder.resolve(args.data))
        return run_child(args.child)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
