"""The package's figures (issue 36): the wheel's size, `romme-ledger hall` from a fresh install
to serving, and the upgrade of a 400-player season's data folder.

    python -m bench install [--dist DIR] [--port 8731] [--skip-upgrade] [--keep]

1. The wheel and the sdist built (`python -m build`, or taken from --dist): their sizes.
2. A fresh virtual environment in a temporary folder, the wheel installed with pip (its time
   is reported, it depends on the package cache), then `romme-ledger hall` on a new data
   folder, listening on 127.0.0.1 only: the seconds from the command to the first answer of
   its start page (migrations and collectstatic included); then a second start on the same
   folder. Ctrl+C ends each.
3. A data folder with a season of a 400-player tournament (five series of five rounds, all
   confirmed, 100 pairs, 25 teams; made with this checkout in a process of its own), then
   the start of a later version on it (`tests.hall.upgrade_script ... later`: one more
   migration): the seconds of the whole start to "up to date", the copy included.

Loopback only; nothing is sent elsewhere but pip's own look-ups of the dependencies.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    for name in ("DATABASE_URL", "DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    return {**env, "CI": "true", **extra}


def build(out: Path) -> tuple[Path, Path]:
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True)  # fmt: skip
    return next(out.glob("*.whl")), next(out.glob("*.tar.gz"))


def wait_serving(process: subprocess.Popen, port: int, limit: float = 300) -> float:
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if process.poll() is not None:
            raise SystemExit(f"the hall exited with {process.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
            return time.monotonic() - started
        except urllib.error.HTTPError:  # an answer (the first start's redirect)
            return time.monotonic() - started
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the hall did not answer")


def hall_start(command: Path, folder: Path, port: int, log: Path) -> float:
    with log.open("ab") as out:
        process = subprocess.Popen(
            [str(command), "hall", "--data", str(folder), "--port", str(port),
             "--listen", "127.0.0.1", "--no-browser"],
            cwd=log.parent, env=_clean_env(), stdin=subprocess.DEVNULL, stdout=out, stderr=out,
        )  # fmt: skip
        try:
            return wait_serving(process, port)
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def make_season(folder: Path) -> None:
    """(In a process of its own, with the hall's settings on ``folder``.)"""
    os.environ.update(_clean_env(HALL_MODE="1", ROMME_DATA=str(folder)))
    os.environ["DJANGO_SETTINGS_MODULE"] = "romme.settings"
    import django

    django.setup()
    from django.core.management import call_command

    from clubs.models import Club, Membership, Player, make_name_key, make_sort_key
    from romme import upgrade
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Season

    upgrade.bring_up_to_date(folder, lambda: call_command("migrate", verbosity=0), print)
    clubs = Club.objects.bulk_create(
        Club(name=f"Rommé-Club {i}", short_name=f"RC{i}", town="Kassel") for i in range(20)
    )
    players = Player.objects.bulk_create(
        Player(given_name=f"Vorname{i}", family_name=f"Nachname{i:04d}",
               player_number=f"L{i:05d}", name_key=make_name_key(f"Vorname{i}", f"Nachname{i:04d}"),
               sort_key=make_sort_key(f"Vorname{i}", f"Nachname{i:04d}", f"L{i:05d}"),
               birth_year=1940 + i % 60)
        for i in range(400)
    )  # fmt: skip
    Membership.objects.bulk_create(
        Membership(player=p, club=clubs[i % 20], valid_from=dt.date(2020, 1, 1))
        for i, p in enumerate(players)
    )
    season = Season.objects.create(
        club=clubs[0], name="2026", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 12, 31)
    )
    generate_event(
        Plan(name="Deutsche Meisterschaft", club=clubs[0], players=players, series=5, rounds=5,
             pairs=100, teams=25, seed=400, season=season)
    )  # fmt: skip


def upgrade_figure(work: Path) -> tuple[float, int]:
    folder = work / "season"
    subprocess.run([sys.executable, "-m", "bench", "install", "--make-season", str(folder)],
                   cwd=ROOT, env=_clean_env(), check=True, capture_output=True)  # fmt: skip
    size = (folder / "romme.sqlite3").stat().st_size
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "tests.hall.upgrade_script", str(folder), "later"],
        cwd=ROOT, env=_clean_env(), capture_output=True, text=True,
    )  # fmt: skip
    seconds = time.monotonic() - started
    if done.returncode or "vor-update" not in done.stdout:
        raise SystemExit(f"the upgrade failed: {done.stdout}{done.stderr}")
    return seconds, size


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", help="a folder with the built wheel and sdist")
    parser.add_argument("--port", type=int, default=8731)
    parser.add_argument("--skip-upgrade", action="store_true")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--make-season", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.make_season:
        make_season(Path(args.make_season))
        return 0
    work = Path(tempfile.mkdtemp(prefix="romme-install-bench-"))
    try:
        if args.dist:
            wheel = next(Path(args.dist).glob("*.whl"))
            sdist = next(Path(args.dist).glob("*.tar.gz"))
        else:
            wheel, sdist = build(work / "dist")
        print(f"wheel {wheel.name}: {wheel.stat().st_size / 1024:.0f} KiB; "
              f"sdist {sdist.stat().st_size / 1024:.0f} KiB", flush=True)  # fmt: skip
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
        subprocess.run([str(work / "venv/bin/pip"), "install", "-q", str(wheel)], check=True,
                       capture_output=True)  # fmt: skip
        print(f"fresh venv + pip install of the wheel: {time.monotonic() - started:.1f} s")
        command = work / "venv/bin/romme-ledger"
        first = hall_start(command, work / "data", args.port, work / "hall.log")
        print(f"romme-ledger hall, fresh install and data folder, to serving: {first:.1f} s")
        again = hall_start(command, work / "data", args.port, work / "hall.log")
        print(f"romme-ledger hall, second start: {again:.1f} s", flush=True)
        if not args.skip_upgrade:
            seconds, size = upgrade_figure(work)
            print(f"upgrade of a 400-player season ({size / 2**20:.1f} MB database), copy "
                  f"and migration included: {seconds:.1f} s")  # fmt: skip
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0
