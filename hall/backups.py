"""Backups in the hall mode: the backup folder, its layout and what the start page says.

The folder is the truth (a USB stick may be swapped while the hall runs): every backup's
kind, time and version are read from its file name alone, never from the database.

    <folder>/events/e<event id>_<UTC time>Z_r<results version>-s<newest sheet version>_<name>.json
    <folder>/database/romme_<UTC time>Z[_<note>].sqlite3

`hall.backup_writer` writes them (the loop `manage.py hall_backups`), `hall.restore` reads
them back. The loop reports its last failure and a sign of life in a small state file in
the data folder (never in the backup folder, which may be the stick that was pulled), so
that the start page can say what went wrong.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.utils import formats, timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from common import datafolder

ARCHIVES = "events"
COPIES = "database"
STATE_FILE = "backup-state.json"
STAMP = "%Y%m%d-%H%M%S"
ARCHIVE_RE = re.compile(r"^e(\d+)_(\d{8}-\d{6})Z_r(\d+)-s(\d+)(?:_([a-z0-9-]*))?\.json$")
# (dots: the version in the name of the copy made before an update, romme.upgrade)
COPY_RE = re.compile(r"^romme_(\d{8}-\d{6})Z(?:_([a-z0-9.-]+))?\.sqlite3$")
BEFORE_RESTORE = "vor-wiederherstellung"
BEFORE_UPDATE = "vor-update-"
# The loop writes its state at least this often; older means it does not run.
STATE_EVERY = 30.0


def check_folder(path: str) -> str | None:
    """None when backups can be written to `path`, otherwise the reason in German."""
    candidate = Path(path).expanduser()
    if not candidate.is_absolute():
        return _("Give the full path of the backup folder, e.g. E:\\Backups or /media/usb.")
    problem = datafolder.check_writable(candidate)
    if problem:
        return _("Backups cannot be written to %(path)s: %(reason)s") % {
            "path": candidate,
            "reason": problem,
        }
    return None


def folder() -> Path:
    from hall.models import HallSettings

    chosen = HallSettings.objects.filter(pk=1).values_list("backup_folder", flat=True).first()
    if chosen:
        return Path(chosen).expanduser()
    return datafolder.backup_root(Path(settings.HALL_DATA_DIR))


# ----- names -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Backup:
    kind: str  # "archive" or "database"
    path: Path
    taken: datetime  # aware, UTC
    size: int = 0
    event_id: int | None = None
    marker: tuple[int, int] | None = None  # (results version, newest sheet version id)
    label: str = ""  # the event's name as a slug, or the copy's note

    @property
    def name(self) -> str:
        return self.path.name


def _stamp(taken: datetime) -> str:
    return taken.astimezone(UTC).strftime(STAMP)


def archive_name(event_id: int, event_name: str, taken: datetime, marker) -> str:
    slug = slugify(event_name)[:40].strip("-")
    name = f"e{event_id}_{_stamp(taken)}Z_r{marker[0]}-s{marker[1]}"
    return f"{name}_{slug}.json" if slug else f"{name}.json"


def copy_name(taken: datetime, note: str = "") -> str:
    return f"romme_{_stamp(taken)}Z{'_' + note if note else ''}.sqlite3"


def _when(text: str) -> datetime:
    return datetime.strptime(text, STAMP).replace(tzinfo=UTC)


def parse(path: Path, size: int = 0) -> Backup | None:
    """The backup a file name describes, None for anything else (temporary files too)."""
    if match := ARCHIVE_RE.match(path.name):
        event_id, stamp, results, version, slug = match.groups()
        marker = (int(results), int(version))
        return Backup(
            "archive", path, _when(stamp), size, int(event_id), marker, slug or ""
        )  # fmt: skip
    if match := COPY_RE.match(path.name):
        return Backup("database", path, _when(match.group(1)), size, label=match.group(2) or "")
    return None


def _scan(directory: Path) -> list[Backup]:
    found = []
    try:
        entries = list(os.scandir(directory))
    except OSError:  # missing (stick pulled) or unreadable: nothing there for us
        return []
    for entry in entries:
        try:
            size = entry.stat().st_size if entry.is_file() else -1
        except OSError:
            continue
        backup = parse(Path(entry.path), size) if size >= 0 else None
        if backup is not None:
            found.append(backup)
    return found


def archives(where: Path) -> list[Backup]:
    """The event archives in the folder, newest first."""
    return sorted(_scan(where / ARCHIVES), key=lambda b: (b.taken, b.name), reverse=True)


def copies(where: Path) -> list[Backup]:
    """The database copies in the folder, newest first."""
    return sorted(_scan(where / COPIES), key=lambda b: (b.taken, b.name), reverse=True)


def list_backups(where: Path | None = None) -> list[Backup]:
    where = folder() if where is None else where
    return sorted(
        archives(where) + copies(where), key=lambda b: (b.taken, b.name), reverse=True
    )  # fmt: skip


def newest_archives(where: Path) -> dict[int, Backup]:
    """The newest archive of each event in the folder."""
    newest: dict[int, Backup] = {}
    for backup in archives(where):
        newest.setdefault(backup.event_id, backup)
    return newest


def find(name: str, where: Path | None = None) -> Backup | None:
    """The backup of that file name in the folder; None for any other name (no paths)."""
    if not name or name != Path(name).name:
        return None
    where = folder() if where is None else where
    candidate = parse(Path(name))
    if candidate is None:
        return None
    path = where / (ARCHIVES if candidate.kind == "archive" else COPIES) / name
    try:
        size = path.stat().st_size
    except OSError:
        return None
    return parse(path, size)


def rows(where: Path) -> list[dict]:
    """The backup page's rows. An archive shows its event's name from this database only
    when it matches the file's (the ids of another laptop's database are other events)."""
    from django.template.defaultfilters import filesizeformat

    from tournaments.models import Event

    found = list_backups(where)
    ids = {b.event_id for b in found if b.event_id}
    names = dict(Event.objects.filter(pk__in=ids).values_list("pk", "name"))
    result = []
    for b in found:
        row = {"taken": timezone.localtime(b.taken), "size": filesizeformat(b.size)}
        row.update(name=b.name, restorable=b.kind == "archive")
        if b.kind == "archive":
            known = names.get(b.event_id, "")
            row["kind"] = _("event")
            row["event"] = known if known and slugify(known)[:40].strip("-") == b.label else b.label
            row["version"] = f"{b.marker[0]} / {b.marker[1]}"
        elif b.label == BEFORE_RESTORE:
            row["kind"] = _("database copy (before a restore)")
        elif b.label.startswith(BEFORE_UPDATE):
            row["kind"] = _("database copy (before the update from version %(version)s)") % {
                "version": b.label.removeprefix(BEFORE_UPDATE)
            }
        else:
            row["kind"] = _("database copy")
        result.append(row)
    return result


# ----- the loop's state and the start page ----------------------------------------------------


def state_path() -> Path:
    return Path(settings.HALL_DATA_DIR) / STATE_FILE


def read_state() -> dict:
    try:
        data = json.loads(state_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass
class BackupStatus:
    folder: str
    last_archive: object = None  # aware datetime or None
    last_snapshot: object = None
    problem: str = ""


def _newest(paths) -> float | None:
    times = []
    for path in paths:
        try:
            times.append(os.stat(path).st_mtime)
        except OSError:
            continue
    return max(times) if times else None


def _shown(moment: datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def failure_text(failure: dict) -> str:
    """What the loop's last failure was, in the reader's language."""
    try:
        at = datetime.fromisoformat(failure["at"])
    except (KeyError, TypeError, ValueError):
        return ""
    if failure.get("event"):
        what = _("the archive of the event “%(event)s”") % {"event": failure["event"]}
    else:
        what = _("the copy of the database")
    return _(
        "The backup at %(time)s failed: %(what)s could not be written to %(folder)s "
        "(%(reason)s). The hall goes on; the backup is tried again every minute."
    ) % {
        "time": _shown(at),
        "what": what,
        "folder": failure.get("folder", ""),
        "reason": failure.get("reason", ""),
    }


def hall_started() -> datetime:
    """When this process (the hall's web server, which starts the loop) started."""
    import psutil

    return datetime.fromtimestamp(psutil.Process().create_time(), tz=UTC)


def _loop_problem(state: dict) -> str:
    if os.environ.get("HALL_BACKUPS") == "0":
        return _("Automatic backups are turned off (HALL_BACKUPS=0).")
    try:
        alive = datetime.fromisoformat(state["alive"])
    except (KeyError, TypeError, ValueError):
        alive = None
    stale = timedelta(seconds=4 * STATE_EVERY)
    now = timezone.now()
    if alive is None or now - alive > stale:
        if now - hall_started() < stale:
            return ""  # the loop is still starting beside the hall
        return _(
            "The automatic backup is not running. Quit Rommé Ledger (Ctrl+C) and start it again."
        )
    return ""


def _data_folder_problem() -> str:
    """The data folder full or read-only. Nothing is saved then, not even the loop's report
    of its own failure (its state file lies there): so the page asks the folder itself."""
    data = Path(settings.HALL_DATA_DIR)
    reason = datafolder.check_writable(data)
    if not reason:
        return ""
    return _(
        "The data folder %(folder)s cannot be written (%(reason)s): entries and backups are "
        "not saved now. Free space on its disk or make it writable; then everything goes on "
        "by itself."
    ) % {"folder": data, "reason": reason}


def status() -> BackupStatus:
    where = folder()
    state = BackupStatus(folder=str(where))
    loop = read_state()
    failures = [failure_text(f) for f in (loop.get("failures") or {}).values()]
    # With the data folder unwritable the loop cannot report that it is alive either.
    first = _data_folder_problem() or _loop_problem(loop)
    problems = [text for text in (first, *failures) if text]
    default = datafolder.backup_root(Path(settings.HALL_DATA_DIR))
    if not where.exists() and where != default:  # the default one the loop makes itself
        problems.insert(0, _("The backup folder is missing (USB stick pulled out?)."))
    state.problem = " ".join(problems)
    kinds = (("last_archive", f"{ARCHIVES}/*.json"), ("last_snapshot", f"{COPIES}/*.sqlite3"))
    for attribute, pattern in kinds:
        newest = _newest(where.glob(pattern)) if where.exists() else None
        if newest is not None:
            setattr(state, attribute, datetime.fromtimestamp(newest, tz=UTC))
    return state
