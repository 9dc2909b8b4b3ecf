"""Backups in the hall mode: the backup folder and what the start page says about it.

(The writer, the list and the restore follow in this module.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from common import datafolder


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


def status() -> BackupStatus:
    from datetime import UTC, datetime

    where = folder()
    state = BackupStatus(folder=str(where))
    if not where.exists():
        state.problem = _("The backup folder is missing (USB stick pulled out?).")
        return state
    kinds = (("last_archive", "events/*.json"), ("last_snapshot", "database/*.sqlite3"))
    for attribute, pattern in kinds:
        newest = _newest(where.glob(pattern))
        if newest is not None:
            setattr(state, attribute, datetime.fromtimestamp(newest, tz=UTC))
    return state
