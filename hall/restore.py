"""Restoring a backup of the hall mode (`manage.py restore_backup`, the page `hall:backups`).

An event archive is imported as an event of its own, never over the event that may still
exist: under its own name when the club has no event of that name on that day any more
(the laptop's database was lost), otherwise as "<name> (Sicherung 14:32)" (the time of the
backup), so that the director compares the two and deletes the wrong one. The import is
the archive import (`scoring.archive`): checked completely, all or nothing, its history
naming the user.

A database copy replaces the data folder's database, but only while the hall is stopped
(the data folder's lock is free, and it is held during the restore so that the hall cannot
start meanwhile), and only after the current database was saved as another copy.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from common import datafolder, limits
from hall import backups
from hall.backup_writer import BackupFailed, snapshot
from hall.services import _require_director
from scoring.archive import jobs
from scoring.archive.load import ImportResult, import_event, loads
from scoring.archive.validate import ArchiveError
from tournaments.models import Event


class RestoreRefused(Exception):
    """A restore that was not done; the message says why, in the reader's language."""


# ----- event archives ------------------------------------------------------------------------


def read_archive(backup: backups.Backup) -> tuple[bytes, dict]:
    """The archive's bytes and its parsed document; ArchiveError when unreadable."""
    try:
        limits.check_size(backup.path.stat().st_size, "archive_bytes")
        content = backup.path.read_bytes()
    except limits.LimitExceeded as error:
        raise ArchiveError("$", str(error)) from None
    except OSError as error:
        raise ArchiveError("$", error.strerror or str(error)) from None
    data = loads(content)
    if not isinstance(data, dict) or not isinstance(data.get("event"), dict):
        raise ArchiveError("$", _("the file holds no event archive (a JSON object is expected)"))
    return content, data


def _taken(moment) -> tuple[str, str]:
    local = timezone.localtime(moment)
    return formats.time_format(local, "H:i"), formats.date_format(local, "SHORT_DATETIME_FORMAT")


def _exists(data: dict, name: str) -> bool:
    event = data["event"]
    club = (event.get("club") or {}).get("short_name")
    return Event.objects.filter(
        club__short_name=club, name=name, start_date=event.get("start_date")
    ).exists()


def restore_name(data: dict, backup: backups.Backup) -> str:
    """The name the restored event gets: its own while free, else "… (Sicherung 14:32)"."""
    original = str(data["event"].get("name") or "")
    if not _exists(data, original):
        return original
    limit = Event._meta.get_field("name").max_length
    short, long = _taken(backup.taken)
    for count in range(1, 100):
        when = short if count == 1 else long if count == 2 else f"{long}, {count - 1}"
        suffix = " " + _("(backup %(time)s)") % {"time": when}
        candidate = original[: limit - len(suffix)].rstrip() + suffix
        if not _exists(data, candidate):
            return candidate
    raise RestoreRefused(_("There are too many restored copies of this event already."))


def restore_archive(backup: backups.Backup, *, actor=None, name: str = "") -> ImportResult:
    """Import the archive now (the command); ArchiveError names what was refused."""
    _content, data = read_archive(backup)
    name = name.strip() or restore_name(data, backup)
    return import_event(data, rename=name, actor=actor)


def queue_restore(actor, backup: backups.Backup):
    """The page's restore: the archive import task (the hall's worker runs it), under the
    name `restore_name` chose. Only the director of the laptop."""
    _require_director(actor)
    if backup.kind != "archive":
        raise RestoreRefused(_("Only an event backup can be restored here."))
    content, data = read_archive(backup)
    return jobs.queue_import(actor, backup.name, content, rename=restore_name(data, backup))


# ----- database copies -----------------------------------------------------------------------


def _check_copy(path: Path) -> None:
    """Refuse anything but a sound SQLite database of this app."""
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as copy:
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
            tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master")}
    except sqlite3.Error as error:
        raise RestoreRefused(
            _("%(file)s is not a readable database copy (%(reason)s); nothing was restored.")
            % {"file": path.name, "reason": error}
        ) from error
    if verdict != "ok" or not {"django_migrations", "tournaments_event"} <= tables:
        raise RestoreRefused(
            _("%(file)s is damaged or no copy of Rommé Ledger's database; nothing was restored.")
            % {"file": path.name}
        )


def _copy_into(copy: Path, live: Path) -> None:
    """The copy's content into the live database file, through SQLite's backup API: the
    file keeps its WAL mode, and no stale -wal file can be replayed over the result."""
    uri = f"{copy.resolve().as_uri()}?mode=ro"
    with (
        contextlib.closing(sqlite3.connect(uri, uri=True)) as origin,
        contextlib.closing(sqlite3.connect(live, timeout=20)) as target,
    ):
        target.execute("PRAGMA synchronous=FULL")
        origin.backup(target)
        target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        verdict = target.execute("PRAGMA quick_check").fetchone()[0]
    if verdict != "ok":
        raise RestoreRefused(_("The restored database fails its check: %(verdict)s") % {
            "verdict": verdict
        })  # fmt: skip


def restore_database(copy: Path, where: Path | None = None) -> Path | None:
    """Replace the data folder's database with `copy` while the hall is stopped. Returns the
    copy of the database as it was before (None when there was none)."""
    from filelock import FileLock, Timeout

    data_dir = Path(settings.HALL_DATA_DIR)
    where = backups.folder() if where is None else where
    _check_copy(copy)
    lock = FileLock(str(datafolder.lock_path(data_dir)), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise RestoreRefused(
            _(
                "Rommé Ledger is running with the data folder %(folder)s. Quit it first "
                "(Ctrl+C in its window), then restore the database copy again."
            )
            % {"folder": data_dir}
        ) from None
    try:
        if not connection.in_atomic_block:
            connection.close()  # nothing of this process may hold the file open
        live = datafolder.database_path(data_dir)
        before = None
        if live.exists() and live.stat().st_size:
            try:
                # not pruned now: that might delete the very copy being restored
                before = snapshot(
                    where, source=str(live), note=backups.BEFORE_RESTORE, prune_old=False
                )
            except BackupFailed as error:
                raise RestoreRefused(
                    _(
                        "The current database could not be saved first (%(reason)s); "
                        "nothing was restored."
                    )
                    % {"reason": error}
                ) from error
        _copy_into(copy, live)
        return before
    finally:
        lock.release()
