"""The hall's live worker commits without syncing (its task rows and acknowledgements are
sent again if a power cut loses them), all but the change it numbers itself; every other
process of the hall syncs every commit."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from live.laptop import outbox

ROOT = Path(__file__).resolve().parents[3]


def _init_command(tmp_path, **env) -> str:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default']['OPTIONS']['init_command'])"
    )
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "HALL_SQLITE_SYNC")}
    clean.update(HALL_MODE="1", ROMME_DATA=str(tmp_path), DJANGO_SETTINGS_MODULE="romme.settings")
    clean.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_only_the_live_worker_asks_for_normal(tmp_path):
    assert "synchronous=FULL" in _init_command(tmp_path)
    assert "synchronous=NORMAL" in _init_command(tmp_path, HALL_SQLITE_SYNC="NORMAL")
    assert "synchronous=FULL" in _init_command(tmp_path, HALL_SQLITE_SYNC="OFF")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="a pragma of SQLite")
def test_the_worker_numbers_a_change_with_a_synced_commit(monkeypatch):
    def level():
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous")
            return cursor.fetchone()[0]

    seen = []
    monkeypatch.setattr(outbox, "add_change", lambda event_id: seen.append(level()) or True)
    monkeypatch.setattr(outbox, "last_number", lambda event_id: 7)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA synchronous=NORMAL")
    assert outbox.allocate_change(1) == 7
    assert seen == [2] and level() == 1  # FULL while numbering, NORMAL again after
