"""`manage.py restore_backup`: the list, an event backup imported (under a new name while
the event exists), a database copy refused while the hall runs and restored when stopped."""

import sqlite3
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from filelock import FileLock

from common import datafolder
from hall import backup_writer, backups
from tests.archive.test_archive import results
from tournaments.models import Event

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 14, 13, 32, 5, tzinfo=UTC)


def restore(*args) -> str:
    out = StringIO()
    call_command("restore_backup", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def make_database(path, rows):
    """A stand-in for the app's database: its two tables the restore looks for, and rows."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("CREATE TABLE tournaments_event (id INTEGER PRIMARY KEY, name TEXT)")
        db.executemany("INSERT INTO tournaments_event (name) VALUES (?)", [(r,) for r in rows])
    return path


def names_in(path):
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM tournaments_event ORDER BY id")]


@pytest.fixture
def archive(hall, event):
    return backup_writer.write_archive(event.pk, hall / "backups", T0)


def test_without_arguments_it_lists_the_backups_in_german(hall, archive, tmp_path):
    make_database(tmp_path / "db.sqlite3", ["A"])
    backup_writer.snapshot(hall / "backups", source=str(tmp_path / "db.sqlite3"), now=T0)
    text = restore()
    assert f"Sicherungen in {hall / 'backups'}" in text
    assert archive.name in text and "romme_20261114-133205Z.sqlite3" in text
    assert "14.11.2026 14:32" in text  # German date, local time
    assert "Veranstaltung" in text and "Datenbank-Kopie" in text


def test_an_empty_folder_says_so(hall):
    assert "Noch keine Sicherungen" in restore()


def test_an_archive_of_an_existing_event_comes_back_beside_it_with_the_same_standings(
    hall, archive, event, director
):
    text = restore(archive.name)
    restored = Event.objects.exclude(pk=event.pk).get()
    assert restored.name == "Hamelner Saalturnier (Sicherung 14:32)"
    assert f"„{restored.name}“" in text or restored.name in text
    assert results(restored) == results(event)
    # Audited: the import's history names the director (the laptop's only superuser).
    assert restored.history.earliest().history_user == director


def test_an_archive_of_a_lost_event_comes_back_under_its_own_name(hall, archive, event):
    before = results(event)
    event.series.all().delete()
    event.delete()
    restore(str(archive.path), "--language", "en")  # a path works as well as a name
    restored = Event.objects.get()
    assert restored.name == "Hamelner Saalturnier"
    assert results(restored) == before


def test_an_unknown_backup_is_named(hall):
    with pytest.raises(CommandError, match=r"Keine Sicherung e9_x\.json"):
        restore("e9_x.json")


def test_a_database_copy_is_refused_while_the_hall_runs(hall, tmp_path):
    live = make_database(datafolder.database_path(hall), ["jetzt"])
    copy = backup_writer.snapshot(
        hall / "backups", source=str(make_database(tmp_path / "old.sqlite3", ["alt"])), now=T0
    )
    running = FileLock(str(datafolder.lock_path(hall)), timeout=0)
    with running, pytest.raises(CommandError, match="läuft bereits mit dem Datenordner"):
        restore(copy.name)
    assert names_in(live) == ["jetzt"]


def test_a_database_copy_replaces_the_database_after_saving_it(hall, tmp_path):
    live = make_database(datafolder.database_path(hall), ["jetzt"])
    copy = backup_writer.snapshot(
        hall / "backups", source=str(make_database(tmp_path / "old.sqlite3", ["alt"])), now=T0
    )
    text = restore(copy.name)
    assert "wiederhergestellt" in text
    assert names_in(live) == ["alt"]
    with sqlite3.connect(live) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    [before] = [c for c in backups.copies(hall / "backups") if c.label == backups.BEFORE_RESTORE]
    assert before.name in text and names_in(before.path) == ["jetzt"]
    # The lock is free again: the hall can start.
    FileLock(str(datafolder.lock_path(hall)), timeout=0).acquire()


def test_a_damaged_copy_is_refused_and_nothing_changes(hall, tmp_path):
    live = make_database(datafolder.database_path(hall), ["jetzt"])
    broken = hall / "backups" / backups.COPIES / backups.copy_name(T0)
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    with pytest.raises(CommandError, match="nichts wurde wiederhergestellt"):
        restore(broken.name)
    assert names_in(live) == ["jetzt"]


def test_only_in_the_hall_mode(settings):
    settings.HALL_MODE = False
    with pytest.raises(CommandError, match="Nur im Saalmodus"):
        restore()
