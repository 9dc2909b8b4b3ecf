"""What the load runs share (bench.load.sheets, bench.load.phones, and bench.faults): a fresh
database with one seated series and its users, and the killer of gunicorn workers."""

from __future__ import annotations

import os
import random
import signal
import time
import urllib.parse
from pathlib import Path

from bench.rigs.serving import PASSWORD, worker_pids


def prepare(db_url: str, scorers: int, per_scorer: int, pairs: int):
    """Fresh database, migrated, with one seated series of enough tables and the users.
    PostgreSQL: the database is dropped and created; SQLite (bench.faults): the file removed."""
    parsed = urllib.parse.urlparse(db_url)
    if parsed.scheme == "sqlite":
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(parsed.path + suffix).unlink(missing_ok=True)
    else:
        import psycopg

        name = parsed.path.lstrip("/")
        admin = parsed._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')

    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    os.environ["DEBUG"] = "1"  # for this process only; gunicorn runs with production settings
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command

    from bench.rigs.datasets import _clubs, _players
    from clubs.models import ClubRole
    from scoring.demo.generate import Plan, generate_event

    call_command("migrate", verbosity=0)
    tables = scorers * per_scorer + pairs
    clubs = _clubs(4, "LT")
    players = _players(tables * 4, clubs, "LT")
    event = generate_event(
        Plan(name="Lasttest", club=clubs[0], players=players, series=1, rounds=5,
             confirmed_series=0, seed=7)
    )  # fmt: skip
    User = get_user_model()
    hashed = make_password(PASSWORD)  # hashed once: creating users is not what we measure
    names = [f"s{i}" for i in range(scorers)] + [f"c{i}" for i in range(scorers)]
    names += [f"p{i}{side}" for i in range(pairs) for side in "ab"]
    users = User.objects.bulk_create(User(username=n, password=hashed) for n in names)
    ClubRole.objects.bulk_create(
        ClubRole(user=u, club=clubs[0], role=ClubRole.Role.SCORER) for u in users
    )
    return event


def kill_workers(args, server, threads, killed: list[int]) -> None:
    """SIGKILL a busy worker again and again while the clients work; gunicorn respawns it.
    Waits ``args.kill_after`` s, then kills every ``args.kill_every`` s, ``args.kills`` in all."""
    time.sleep(args.kill_after)
    while any(t.is_alive() for t in threads) and len(killed) < args.kills:
        children = worker_pids(server.pid)
        if children:
            victim = int(random.choice(children))
            try:
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)
            except ProcessLookupError:
                pass
        time.sleep(args.kill_every)
