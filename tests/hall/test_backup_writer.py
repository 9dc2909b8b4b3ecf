"""The backup loop of the hall mode (hall.backup_writer): event archives after changes,
debounced and kept to the last 20, written atomically under names that say what they hold,
SQLite copies through the backup API, and failures that never stop the loop."""

import json
import os
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from hall import backup_writer, backups
from hall.backup_writer import BackupLoop
from hall.models import HallSettings
from scoring.archive.dump import export_event
from scoring.models import Sheet, SheetVersion
from tournaments.models import Event

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 14, 13, 32, 5, tzinfo=UTC)


def later(seconds):
    return T0 + timedelta(seconds=seconds)


def files(where, part=backups.ARCHIVES):
    return sorted(p.name for p in (where / part).iterdir())


def draft_hand(event):
    """A phone's draft save: a new SheetVersion, no change of the results version."""
    sheet = Sheet.objects.get(table__series__event=event, status=Sheet.Status.DRAFT)
    latest = sheet.versions.order_by("-number").first()
    SheetVersion.objects.create(
        sheet=sheet, number=latest.number + 1, kind=latest.kind,
        created_by=latest.created_by, grid=latest.grid,
    )  # fmt: skip
    Sheet.objects.filter(pk=sheet.pk).update(version=latest.number + 1)


def confirmation(event):
    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)
    event.refresh_from_db()


def marker(event):
    newest = SheetVersion.objects.filter(sheet__table__series__event=event).order_by("-pk")[0]
    return (Event.objects.get(pk=event.pk).results_version, newest.pk)


@pytest.fixture
def loop(hall, monkeypatch, tmp_path):
    """The loop, copying a small SQLite file as "the database" (the test database is in
    memory or PostgreSQL)."""
    path = tmp_path / "hall.sqlite3"
    with sqlite3.connect(path) as setup:
        setup.execute("CREATE TABLE t (x INTEGER)")
    monkeypatch.setattr(backup_writer, "database_path", lambda: str(path))
    return BackupLoop()


def test_an_event_is_archived_at_the_next_tick_under_a_name_that_says_what_it_holds(
    hall, loop, event
):
    loop.tick(T0)
    where = hall / "backups"
    [name] = files(where)
    assert name == f"e{event.pk}_20261114-133205Z_r{marker(event)[0]}-s{marker(event)[1]}" \
        "_hamelner-saalturnier.json"  # fmt: skip
    found = backups.parse(where / backups.ARCHIVES / name)
    assert (found.kind, found.event_id, found.taken, found.marker) == (
        "archive", event.pk, T0, marker(event)
    )  # fmt: skip
    written = json.loads((where / backups.ARCHIVES / name).read_text(encoding="utf-8"))
    expected = export_event(event)
    for document in (written, expected):
        document.pop("exported_at")
    assert written == json.loads(json.dumps(expected))
    # Nothing else in the folder: no temporary file left behind.
    assert files(where) == [name] and not list(where.rglob(".*"))


def test_changes_are_debounced_to_one_archive_a_minute_and_drafts_count_too(hall, loop, event):
    where = hall / "backups"
    loop.tick(T0)
    draft_hand(event)
    loop.tick(later(10))
    loop.tick(later(59))
    assert len(files(where)) == 1  # the draft waits for the minute
    loop.tick(later(61))
    assert len(files(where)) == 2
    assert backups.newest_archives(where)[event.pk].marker == marker(event)
    loop.tick(later(200))
    assert len(files(where)) == 2  # nothing changed: nothing written
    confirmation(event)
    loop.tick(later(201))  # the first change after a quiet minute: at once
    assert len(files(where)) == 3
    assert backups.newest_archives(where)[event.pk].marker[0] == event.results_version


def test_the_folder_is_the_truth_a_fresh_stick_gets_every_event_at_once(hall, loop, event):
    loop.tick(T0)
    stick = hall.parent / "stick"
    stick.mkdir()
    HallSettings.objects.create(pk=1, backup_folder=str(stick / "backups"))
    loop.tick(later(5))  # within the minute, but the new folder has no archive of the event
    assert len(files(stick / "backups")) == 1


def test_the_last_20_archives_of_each_event_are_kept(hall, loop, event, settings):
    where = hall / "backups"
    for minute in range(25):
        confirmation(event)
        loop.tick(later(60 * minute))
    kept = backups.archives(where)
    assert len(kept) == 20
    assert kept[0].taken == later(60 * 24) and kept[-1].taken == later(60 * 5)


def test_a_write_that_fails_half_way_leaves_no_file(hall, event, monkeypatch):
    def power_cut(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(backup_writer.BackupFailed, match="No space left"):
        backup_writer.write_archive(event.pk, hall / "backups", T0)
    assert list((hall / "backups" / backups.ARCHIVES).iterdir()) == []


def test_names_are_read_back_and_nothing_else_counts(tmp_path):
    name = backups.archive_name(12, "Kasseler Herbstturnier 2026 – Finale", T0, (37, 1234))
    assert name == "e12_20261114-133205Z_r37-s1234_kasseler-herbstturnier-2026-finale.json"
    assert backups.parse(tmp_path / name).marker == (37, 1234)
    copy = backups.copy_name(T0, backups.BEFORE_RESTORE)
    assert copy == "romme_20261114-133205Z_vor-wiederherstellung.sqlite3"
    assert backups.parse(tmp_path / copy).label == backups.BEFORE_RESTORE
    for other in (f".{name}.tmp", "notes.json", "romme.sqlite3", "e1_x.json"):
        assert backups.parse(tmp_path / other) is None
    assert backups.find("../" + name, tmp_path) is None


@pytest.mark.parametrize("broken", ["stick pulled", "disk full"])
def test_a_failing_backup_never_stops_the_loop_and_the_start_page_says_so(
    hall, loop, event, monkeypatch, broken
):
    stick = hall.parent / "stick"
    HallSettings.objects.create(pk=1, backup_folder=str(stick / "backups"))
    write = backup_writer.atomic_write

    def full(target, content):
        if stick in target.parents:
            raise OSError(28, "No space left on device")
        return write(target, content)

    with monkeypatch.context() as broken_disk:
        if broken == "disk full":
            stick.mkdir()
            broken_disk.setattr(backup_writer, "atomic_write", full)
        loop.tick(T0)  # no exception: the hall goes on
    with translation.override("de"):
        problem = backups.status().problem
    assert "Hamelner Saalturnier" in problem and "fehlgeschlagen" in problem
    if broken == "stick pulled":
        assert "Sicherungsordner fehlt" in problem
    else:
        assert "No space left" in problem
    # Back in order: the next try (after the retry pause) writes and the problem is gone.
    stick.mkdir(exist_ok=True)
    loop.retry_at.clear()
    loop.tick(later(1))
    assert len(files(stick / "backups")) == 1
    assert backups.status().problem == ""


def test_the_start_page_says_when_the_loop_does_not_run(hall, loop, event, monkeypatch):
    monkeypatch.setattr(backups, "hall_started", lambda: datetime.now(UTC))
    assert backups.status().problem == ""  # the hall just started: the loop starts with it
    monkeypatch.setattr(backups, "hall_started", lambda: later(-3600))
    with translation.override("de"):
        assert "läuft nicht" in backups.status().problem
        loop.tick(T0)
        assert backups.status().problem == ""
        monkeypatch.setenv("HALL_BACKUPS", "0")
        assert "ausgeschaltet" in backups.status().problem


# ----- database copies --------------------------------------------------------------------


@pytest.fixture
def database(tmp_path):
    """A SQLite database in WAL mode with 500 committed rows, and a writer in the middle
    of a transaction that is never committed."""
    path = tmp_path / "live.sqlite3"
    with sqlite3.connect(path) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE hand (id INTEGER PRIMARY KEY, points INTEGER)")
        setup.executemany("INSERT INTO hand (points) VALUES (?)", [(i,) for i in range(500)])
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO hand (points) VALUES (-1)")
    yield path
    writer.execute("ROLLBACK")
    writer.close()


def test_a_copy_is_a_valid_single_file_database_with_the_committed_rows(hall, database):
    path = backup_writer.snapshot(hall / "backups", source=str(database), now=T0)
    assert path.name == "romme_20261114-133205Z.sqlite3"
    assert not path.with_name(path.name + "-wal").exists()
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = copy.execute("SELECT id, points FROM hand ORDER BY id").fetchall()
    with sqlite3.connect(database) as live:
        assert rows == live.execute("SELECT id, points FROM hand ORDER BY id").fetchall()
    assert len(rows) == 500  # the uncommitted row is not in it


def test_a_copy_every_10_minutes_while_the_database_changes_and_the_last_20_kept(
    hall, loop, database, monkeypatch
):
    monkeypatch.setattr(backup_writer, "database_path", lambda: str(database))  # over loop's
    where = hall / "backups"
    loop.snapshot_if_due(where, T0)
    loop.snapshot_if_due(where, later(300))
    assert len(files(where, backups.COPIES)) == 1
    old = later(-3600).timestamp()  # the database unchanged since long before
    for suffix in ("", "-wal"):
        os.utime(f"{database}{suffix}", (old, old))
    loop.snapshot_if_due(where, later(601))
    assert len(files(where, backups.COPIES)) == 1
    for step in range(1, 25):
        os.utime(database, None)  # written just now
        loop.snapshot_if_due(where, later(601 * step))
    copies = backups.copies(where)
    assert len(copies) == 20 and copies[0].taken == later(601 * 24)


def test_a_missing_database_is_an_error_not_a_new_empty_copy(hall, tmp_path):
    with pytest.raises(backup_writer.BackupFailed):
        backup_writer.snapshot(hall / "backups", source=str(tmp_path / "gone.sqlite3"))
    assert not (tmp_path / "gone.sqlite3").exists()
