"""A server as production runs it, for the benches that start one (bench.live, bench.federation):
its environment (production settings on 127.0.0.1), its throw-away PostgreSQL database
(created and dropped, only under a bench's own name) and ``manage.py`` run in it."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.parse

from bench.rigs.serving import ROOT


def production_env(db_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("HALL_MODE", "ROMME_DATA")}
    env.update(
        DATABASE_URL=db_url,
        DJANGO_SETTINGS_MODULE="romme.settings",
        DEBUG="0",
        SECRET_KEY="live-bench-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
    )
    return env


def _admin_url(db_url: str, prefix: str | tuple[str, ...]) -> tuple[str, str]:
    """The maintenance database's URL and the bench's database name, which must start with
    ``prefix`` (or one of them): a bench drops it, so never a real one."""
    parsed = urllib.parse.urlparse(db_url)
    name = parsed.path.lstrip("/")
    if not name.startswith(prefix):
        names = " or ".join(f"{p}*" for p in ((prefix,) if isinstance(prefix, str) else prefix))
        raise SystemExit(f"the bench's database must be called {names}")
    return parsed._replace(path="/postgres").geturl(), name


def create_server_db(db_url: str, prefix: str | tuple = "bench_live_", *, own_disk=False) -> None:
    """``own_disk``: the database's commits do not wait for the WAL's flush
    (synchronous_commit=off), standing in for a server's own disk: on this machine its
    flushes queue with the laptop's SQLite syncs (docs/performance-log.md, 2026-11-26)."""
    import psycopg

    admin, name = _admin_url(db_url, prefix)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
        if own_disk:
            conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')


def drop_server_db(db_url: str, prefix: str | tuple = "bench_live_") -> None:
    import psycopg

    admin, name = _admin_url(db_url, prefix)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args[:2])}: {done.stderr[-2000:]}")
    return done.stdout.strip()
