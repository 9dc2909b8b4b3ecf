"""The hall's backup loop (`manage.py hall_backups`, a child process of `python -m romme.hall`).

Every few seconds (HALL_BACKUP_TICK) it asks the database which events changed: an event's
change marker is (results_version, its newest SheetVersion id), so a confirmation (which
bumps the version) and a phone's draft hand (a new SheetVersion only) both count. An event
whose marker differs from the one in the name of its newest archive in the folder gets a new
archive, at most one per HALL_ARCHIVE_SECONDS; the first change after a quiet spell is
written at the next tick. Every HALL_SNAPSHOT_SECONDS, when the database changed, a copy of
it is made with SQLite's backup API (a consistent snapshot while phones keep writing; a file
copy of a database in WAL mode may miss or tear the last commits). The last
HALL_BACKUPS_KEPT archives per event and copies are kept.

Each file is written to a temporary name, synced and renamed, so a folder never holds half
a backup, even after a power cut. A backup that fails (stick pulled, disk full) is logged
and recorded in the state file the start page reads; the loop and the hall go on, and it
is tried again after HALL_ARCHIVE_SECONDS.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max

from common import datafolder
from hall import backups
from scoring.archive.dump import dumps, export_event
from scoring.models import SheetVersion
from tournaments.models import Event

log = logging.getLogger("hall.backups")


class BackupFailed(Exception):
    """A backup could not be written; the message says why (strerror or SQLite's words)."""


# ----- files ---------------------------------------------------------------------------------


def _sync_folder(path: Path) -> None:
    """Make a rename durable (POSIX); Windows cannot open a folder and needs nothing here."""
    if os.name != "posix":
        return
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _temporary(target: Path) -> Path:
    return target.with_name(f".{target.name}.tmp")


def atomic_write(target: Path, content: bytes) -> Path:
    """Write `content` to `target` whole or not at all: temp file, fsync, os.replace."""
    temporary = _temporary(target)
    try:
        with open(temporary, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    _sync_folder(target.parent)
    return target


def prepare(where: Path, part: str) -> Path:
    """The folder's part (events/ or database/), made if missing. The backup folder itself is
    made only where its parent exists: a pulled stick's path must fail, not quietly become a
    folder on the laptop's own disk."""
    default = datafolder.backup_root(Path(settings.HALL_DATA_DIR))
    if where == default:
        where.mkdir(parents=True, exist_ok=True)
    elif not where.is_dir():
        where.mkdir()  # FileNotFoundError when the stick (the parent) is gone
    target = where / part
    target.mkdir(exist_ok=True)
    return target


def prune(kept: list[backups.Backup], keep: int) -> None:
    """Delete all but the first `keep` of `kept` (newest first)."""
    for old in kept[keep:]:
        with contextlib.suppress(OSError):
            old.path.unlink()


def remove_leftovers(where: Path) -> None:
    """Temporary files of a writer that died (a power cut in the middle of a backup)."""
    for part in (backups.ARCHIVES, backups.COPIES):
        with contextlib.suppress(OSError):
            for path in (where / part).glob(".*.tmp"):
                with contextlib.suppress(OSError):
                    path.unlink()


# ----- what changed ----------------------------------------------------------------------------


class ChangeWatch:
    """Each event's change marker. SheetVersion ids only grow (SQLite AUTOINCREMENT, one
    writer at a time), so each tick aggregates only the versions newer than the last seen."""

    def __init__(self):
        self.seen = 0
        self.newest: dict[int, int] = {}

    def markers(self) -> dict[int, tuple[int, int]]:
        rows = (
            SheetVersion.objects.filter(pk__gt=self.seen)
            .values_list("sheet__table__series__event_id")
            .annotate(newest=Max("pk"))
            .order_by()
        )
        for event_id, newest in rows:
            self.newest[event_id] = max(newest, self.newest.get(event_id, 0))
            self.seen = max(self.seen, newest)
        return {
            pk: (version, self.newest.get(pk, 0))
            for pk, version in Event.objects.values_list("pk", "results_version")
        }


@contextlib.contextmanager
def read_snapshot():
    """One read transaction, so the archive is one moment of the event. On SQLite it begins
    DEFERRED: the settings' IMMEDIATE would take the write lock and hold up the phones."""
    if connection.vendor != "sqlite":
        with transaction.atomic():
            yield
        return
    connection.ensure_connection()
    mode = connection.transaction_mode
    connection.transaction_mode = "DEFERRED"
    try:
        with transaction.atomic():
            yield
    finally:
        connection.transaction_mode = mode


# ----- the two kinds of backup -------------------------------------------------------------------


def write_archive(event_id: int, where: Path, now: datetime | None = None) -> backups.Backup:
    """The event's archive into `where`/events, named by its marker as read in the same
    transaction; then the event's oldest archives beyond the kept number are deleted."""
    now = now or datetime.now(UTC)
    try:
        target = prepare(where, backups.ARCHIVES)  # first: a pulled stick costs no export
    except OSError as error:
        raise BackupFailed(error.strerror or str(error)) from error
    with read_snapshot():
        event = Event.objects.get(pk=event_id)
        newest = SheetVersion.objects.filter(sheet__table__series__event=event).aggregate(
            newest=Max("pk")
        )["newest"]
        marker = (event.results_version, newest or 0)
        content = dumps(export_event(event)).encode("utf-8")
    try:
        name = backups.archive_name(event.pk, event.name, now, marker)
        path = atomic_write(target / name, content)
    except OSError as error:
        raise BackupFailed(error.strerror or str(error)) from error
    mine = [b for b in backups.archives(where) if b.event_id == event.pk]
    prune(mine, settings.HALL_BACKUPS_KEPT)
    return backups.parse(path, len(content))


def database_path() -> str:
    return str(settings.DATABASES["default"]["NAME"])


def snapshot(
    where: Path, *, source: str | None = None, note: str = "", now=None, prune_old: bool = True
) -> Path:
    """A consistent copy of the SQLite database `source` (default: the hall's) into
    `where`/database, through SQLite's backup API in one step (a read transaction: the
    phones go on writing), checked and made a plain single file before it is renamed."""
    now = now or datetime.now(UTC)
    source = source or database_path()
    temporary = None
    try:
        target = prepare(where, backups.COPIES) / backups.copy_name(now, note)
        temporary = _temporary(target)
        temporary.unlink(missing_ok=True)
        # mode=rw: a missing database is an error, never a new empty file
        uri = f"{Path(source).resolve().as_uri()}?mode=rw"
        with (
            contextlib.closing(sqlite3.connect(uri, uri=True, timeout=20)) as origin,
            contextlib.closing(sqlite3.connect(temporary)) as copy,
        ):
            origin.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # no -wal beside the copy
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise BackupFailed(f"quick_check: {verdict}")
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, target)
        _sync_folder(target.parent)
    except (OSError, sqlite3.Error) as error:
        if temporary is not None:
            with contextlib.suppress(OSError):
                temporary.unlink()
        raise BackupFailed(getattr(error, "strerror", None) or str(error)) from error
    if prune_old:
        prune(backups.copies(where), settings.HALL_BACKUPS_KEPT)
    return target


def _changed_since(moment: datetime) -> bool:
    """Whether the database file (or its write-ahead log) was written after `moment`."""
    path = Path(database_path())
    times = []
    for candidate in (path, path.with_name(path.name + "-wal")):
        with contextlib.suppress(OSError):
            times.append(candidate.stat().st_mtime)
    return not times or max(times) > moment.timestamp()


# ----- the loop ----------------------------------------------------------------------------------


class BackupLoop:
    def __init__(self):
        self.watch = ChangeWatch()
        self.retry_at: dict[str, float] = {}  # "e<id>" / "database" -> monotonic time
        self.failures: dict[str, dict] = {}
        self.names: dict[int, str] = {}
        self.state_written = 0.0

    def _failed(self, key: str, where: Path, error: Exception, event: str = "") -> None:
        log.error("Backup %s into %s failed: %s", key, where, error)
        self.retry_at[key] = time.monotonic() + settings.HALL_ARCHIVE_SECONDS
        self.failures[key] = {
            "at": datetime.now(UTC).isoformat(),
            "folder": str(where),
            "reason": str(error),
            "event": event,
        }
        self.write_state(force=True)

    def _succeeded(self, key: str) -> None:
        self.retry_at.pop(key, None)
        if self.failures.pop(key, None) is not None:
            self.write_state(force=True)

    def _waiting(self, key: str) -> bool:
        return time.monotonic() < self.retry_at.get(key, 0.0)

    def archive_due(self, where: Path, now: datetime) -> list[int]:
        """Events whose marker differs from their newest archive's, debounced."""
        newest = backups.newest_archives(where)
        due = []
        for event_id, marker in self.watch.markers().items():
            last = newest.get(event_id)
            if last is not None and last.marker == marker:
                continue
            age = (now - last.taken).total_seconds() if last else None
            if age is not None and 0 <= age < settings.HALL_ARCHIVE_SECONDS:
                continue
            due.append(event_id)
        return due

    def tick(self, now: datetime | None = None) -> None:
        now = now or datetime.now(UTC)
        where = backups.folder()
        for event_id in self.archive_due(where, now):
            key = f"e{event_id}"
            if self._waiting(key):
                continue
            try:
                written = write_archive(event_id, where, now)
            except BackupFailed as error:
                name = Event.objects.filter(pk=event_id).values_list("name", flat=True).first()
                self._failed(key, where, error, event=name or str(event_id))
            except Event.DoesNotExist:
                continue  # deleted since the markers were read
            else:
                log.info("Backup %s", written.path)
                self._succeeded(key)
        self.snapshot_if_due(where, now)
        self.write_state()

    def snapshot_if_due(self, where: Path, now: datetime) -> None:
        if self._waiting("database"):
            return
        last = next(iter(backups.copies(where)), None)
        if last is not None:
            age = (now - last.taken).total_seconds()
            if 0 <= age < settings.HALL_SNAPSHOT_SECONDS or not _changed_since(last.taken):
                return
        try:
            path = snapshot(where, now=now)
        except BackupFailed as error:
            self._failed("database", where, error)
        else:
            log.info("Backup %s", path)
            self._succeeded("database")

    def write_state(self, force: bool = False) -> None:
        """The sign of life and the failures, for the start page (hall.backups.status)."""
        if not force and time.monotonic() - self.state_written < backups.STATE_EVERY / 3:
            return
        state = {"alive": datetime.now(UTC).isoformat(), "failures": self.failures}
        try:
            atomic_write(backups.state_path(), json.dumps(state).encode("utf-8"))
        except OSError as error:  # the data folder itself: the hall reports that elsewhere
            log.error("Backup state not written: %s", error)
        self.state_written = time.monotonic()

    def run(self, ticks: int | None = None) -> None:
        """Tick until the process ends (its parent's pipe closes, romme.hall)."""
        try:
            remove_leftovers(backups.folder())
        except Exception:  # the database busy at the start: the next start cleans up
            log.exception("Backup loop: leftovers not removed")
        count = 0
        while ticks is None or count < ticks:
            started = time.monotonic()
            try:
                self.tick()
            except Exception:  # the database busy or gone for a moment: never stop the loop
                log.exception("Backup loop: the tick failed")
                connection.close()
            count += 1
            time.sleep(max(0.0, settings.HALL_BACKUP_TICK - (time.monotonic() - started)))
