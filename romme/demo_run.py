"""`romme-ledger run`: the app to try on this computer with demo data (what `make run` is
for developers): DEBUG on, published demo passwords, 127.0.0.1 only, Django's development
server and a task worker beside it. Its own folder (never the hall's data): the user's
data folder "RommeLedger-Demo", or --data."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs


def demo_folder(chosen: str | None) -> Path:
    if chosen:
        return Path(chosen).expanduser().resolve()
    return Path(platformdirs.user_data_dir("RommeLedger-Demo", appauthor=False, roaming=False))


def start_worker(env: dict) -> subprocess.Popen:
    """The task worker beside the server: this Python, this command line."""
    command = [sys.executable, "-m", "romme.cli", "manage", "db_worker", "--no-reload",
               "--queue-name", "*"]  # fmt: skip
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)


def main(argv: list[str]) -> int:
    from romme.arguments import GermanParser

    parser = GermanParser(
        prog="romme-ledger run",
        description="Rommé Ledger ausprobieren: Beispieldaten, nur an diesem Computer.",
    )
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data", help="Ordner der Beispieldaten (sonst RommeLedger-Demo)")
    args = parser.parse_args(argv)
    folder = demo_folder(args.data)
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("HALL_MODE", "ROMME_DATA", "DATABASE_URL"):
        os.environ.pop(name, None)
    os.environ.update(
        DEBUG="1",
        DJANGO_SETTINGS_MODULE="romme.settings",
        DATABASE_URL=f"sqlite:///{folder / 'demo.sqlite3'}",
        STATIC_ROOT=str(folder / "static"),
    )
    import django

    django.setup()
    from django.core.management import call_command

    print(f"Beispieldaten: {folder}", flush=True)
    call_command("migrate", interactive=False, verbosity=0)
    call_command("seed_demo", if_empty=True)
    print(f"Rommé Ledger (Beispieldaten): http://127.0.0.1:{args.port}/  (Strg+C beendet)")
    worker = start_worker(dict(os.environ))
    try:
        call_command("runserver", f"127.0.0.1:{args.port}", use_reloader=False)
    except KeyboardInterrupt:
        pass
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    return 0
