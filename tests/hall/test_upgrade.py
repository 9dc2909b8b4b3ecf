"""Safe upgrades of the hall's data folder (romme.upgrade, issue 36), on the data folders kept
in tests/hall/fixtures (made by `tests.hall.fixtures.make_folder` with the schema of their
version): each is started by this version with every event, sheet, payment and backup
intact; a later version's update copies first and then migrates; a newer folder is refused;
a migration failing halfway, a full disk during the copy and a folder of another
application leave the folder as it was, with a German message and exit status 2.

Each start is a process of its own (`tests.hall.upgrade_script`): the hall's settings."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from common.version import __version__

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("data-*"))
# Written by any start (the lock, SQLite's side files, the log): not the folder's content.
RUNTIME = ("hall.lock", "hall.log", "romme.sqlite3-wal", "romme.sqlite3-shm")
# What a migration itself writes (its row, the row's id counter).
MIGRATION_BOOKS = ("django_migrations", "sqlite_sequence")
# Django's registers of models and their permissions: a later version's new app adds rows
# (after every migration); the rows already there stay as they were.
REGISTERS = ("django_content_type", "auth_permission")


def kept_intact(before: dict, after: dict) -> None:
    """Every row of every table of `before` is in `after`, unchanged in every column it had
    (a column a later migration adds is not compared); only the migrations' books change,
    and Django's registers only grow."""
    for name, rows in before.items():
        if name in MIGRATION_BOOKS:
            continue
        columns = {column for row in rows for column, _value in row}
        kept = [tuple(pair for pair in row if pair[0] in columns) for row in after[name]]
        if name in REGISTERS:
            assert set(rows) <= set(kept), name
        else:
            assert kept == rows, name


def start(folder: Path, mode: str, *extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    for name in ("DATABASE_URL", "DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    command = [sys.executable, "-m", "tests.hall.upgrade_script", str(folder), mode, *extra]
    return subprocess.run(
        command, cwd=ROOT, env={**env, "CI": "true"}, capture_output=True, text=True, timeout=300
    )


def tables(database: Path) -> dict[str, list]:
    """Every table's rows, each a tuple of (column, value) pairs."""
    with closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        found = {}
        for name in names:
            cursor = db.execute(f'SELECT * FROM "{name}" ORDER BY rowid')
            columns = [d[0] for d in cursor.description]
            found[name] = [tuple(zip(columns, row, strict=True)) for row in cursor.fetchall()]
        return found


def files(folder: Path) -> dict[str, str]:
    """Every file's SHA-256 but the runtime's and the database (compared by its content)."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in folder.rglob("*")
        if path.is_file() and path.name not in RUNTIME and path.name != "romme.sqlite3"
    }


def state(folder: Path) -> tuple:
    return files(folder), tables(folder / "romme.sqlite3")


@pytest.fixture(params=FIXTURES, ids=lambda p: p.name)
def kept(request, tmp_path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(request.param, folder)
    return folder


def test_fixtures_are_kept():
    assert FIXTURES, "no kept data folder in tests/hall/fixtures"
    for folder in FIXTURES:
        assert (folder / "romme.sqlite3").is_file() and (folder / "version.json").is_file()
        assert list(folder.glob("backups/events/*.json"))
        assert list(folder.glob("backups/database/*.sqlite3"))


def test_this_version_starts_every_kept_folder_with_everything_intact(kept):
    before_files, before = state(kept)
    old = json.loads((kept / "version.json").read_text())["version"]
    done = start(kept, "today", "--archives")
    assert done.returncode == 0, done.stderr
    events = len(list(kept.glob("backups/events/*.json")))
    assert f"ARCHIVES {events} {events}" in done.stdout  # every event as its backup says
    after_files, after = state(kept)
    kept_intact(before, after)  # events, sheets, payments, links: every row
    after_files.pop("version.json"), before_files.pop("version.json")
    # A migration of this version the folder has not had yet is applied after a copy of the
    # database named with the folder's version: that copy holds the database as it was.
    copies = sorted(set(after_files) - set(before_files))
    for name in copies:
        assert name.startswith("backups/database/romme_"), name
        assert name.endswith(f"_vor-update-{old}.sqlite3"), name
        assert tables(kept / name) == before
    assert len(copies) <= 1
    assert {k: v for k, v in after_files.items() if k not in copies} == before_files  # backups
    assert json.loads((kept / "version.json").read_text())["version"] == __version__


def test_a_later_version_copies_the_database_then_migrates_and_says_so(kept):
    before_files, before = state(kept)
    old = json.loads((kept / "version.json").read_text())["version"]
    done = start(kept, "later", "--archives")
    assert done.returncode == 0, done.stderr
    assert "Update der Daten von Version" in done.stdout and "Sicherungskopie" in done.stdout
    events = len(list(kept.glob("backups/events/*.json")))
    assert f"ARCHIVES {events} {events}" in done.stdout
    copies = list(kept.glob(f"backups/database/romme_*_vor-update-{old}.sqlite3"))
    assert len(copies) == 1
    assert tables(copies[0]) == before  # the copy is the old state, whole
    after = tables(kept / "romme.sqlite3")
    assert after["hall_upgrade_probe"] == [(("id", 1), ("v", "1.1.0"))]
    kept_intact(before, after)
    assert set(after["django_migrations"]) > set(before["django_migrations"])
    stamp = json.loads((kept / "version.json").read_text())
    assert stamp["version"] == "1.1.0" and stamp["previous"] == old
    assert stamp["copy"] == copies[0].name
    after_files = files(kept)
    for name, digest in before_files.items():  # the backups that were there
        if name != "version.json":
            assert after_files[name] == digest, name

    # Back to this (older) version: the folder is refused and left as it is.
    updated = state(kept)
    refused = start(kept, "today")
    assert refused.returncode == 2
    assert "von einer neueren Version von Rommé Ledger" in refused.stderr
    assert "nichts verändert" in refused.stderr
    assert state(kept) == updated


def test_a_folder_of_a_newer_version_is_refused_untouched(kept):
    stamp = json.loads((kept / "version.json").read_text())
    (kept / "version.json").write_text(json.dumps({**stamp, "version": "99.0.0"}))
    before = state(kept)
    done = start(kept, "today")
    assert done.returncode == 2
    assert "neueren Version" in done.stderr and "(99.0.0)" in done.stderr
    assert state(kept) == before


def test_a_migration_that_fails_halfway_leaves_the_folder_as_it_was(kept):
    before = state(kept)
    done = start(kept, "later-fails")
    assert done.returncode == 2
    assert "ist fehlgeschlagen" in done.stderr and "Testfehler mitten im Update" in done.stderr
    assert "Der alte Stand ist wiederhergestellt" in done.stderr
    assert state(kept) == before


def test_a_full_disk_during_the_copy_changes_nothing(kept):
    before = state(kept)
    done = start(kept, "later-full-disk")
    assert done.returncode == 2
    assert "Sicherungskopie vor dem Update konnte nicht geschrieben werden" in done.stderr
    assert "Datenträger voll" in done.stderr and "nichts verändert" in done.stderr
    assert state(kept) == before
    assert not list(kept.glob("backups/database/.*.tmp"))


def test_a_folder_of_another_application_is_refused_untouched(tmp_path):
    other = tmp_path / "Fotos"
    other.mkdir()
    (other / "urlaub.jpg").write_bytes(b"\xff\xd8 not ours")
    done = start(other, "today")
    assert done.returncode == 2
    assert "kein Datenordner von Rommé Ledger" in done.stderr and "urlaub.jpg" in done.stderr
    assert sorted(p.name for p in other.iterdir()) == ["urlaub.jpg"]


def test_a_database_of_another_application_is_refused_untouched(tmp_path):
    other = tmp_path / "data"
    other.mkdir()
    with closing(sqlite3.connect(other / "romme.sqlite3")) as db:
        db.execute("CREATE TABLE kunden (id integer PRIMARY KEY, name text)")
        db.commit()
    before = (other / "romme.sqlite3").read_bytes()
    done = start(other, "today")
    assert done.returncode == 2
    assert "keine Tabellen von Rommé Ledger" in done.stderr
    assert sorted(p.name for p in other.iterdir()) == ["romme.sqlite3"]
    assert (other / "romme.sqlite3").read_bytes() == before


def test_a_first_start_cut_short_goes_on_as_a_first_start(tmp_path):
    """Ctrl+C or a power cut during the first start's migrations: Django's own apps are
    migrated, none of ours yet. The folder is this app's (its version.json says so), so the
    next start migrates the rest as a first start: no refusal, no copy (before, such a
    folder was refused as another application's database)."""
    folder = tmp_path / "daten"
    folder.mkdir()
    (folder / "version.json").write_text(json.dumps({"first_start": "2026-11-30T09:40:00+00:00"}))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    env.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "contenttypes", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**env, "HALL_MODE": "1", "ROMME_DATA": str(folder)},
        check=True,
        timeout=300,
    )
    assert "clubs_club" not in tables(folder / "romme.sqlite3")

    done = start(folder, "today")

    assert done.returncode == 0, done.stderr
    assert "Update" not in done.stdout and "Sicherungskopie" not in done.stdout
    assert "clubs_club" in tables(folder / "romme.sqlite3")
    assert not list(folder.glob("backups/database/*"))
    stamp = json.loads((folder / "version.json").read_text())
    assert stamp["version"] == __version__ and "first_start" not in stamp
