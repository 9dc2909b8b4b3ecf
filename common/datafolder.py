"""The hall mode's data folder: the database, the secret key, the backups and the lock.

Standard library and platformdirs only, so that the settings and the hall's process module
(`romme.hall`) can both read it before Django is set up. Paths are `pathlib` paths: the
folder works the same on Windows, macOS and Linux.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

import platformdirs

DATA_ENV = "ROMME_DATA"
SECRET_FILE = "secret_key.txt"
DATABASE_FILE = "romme.sqlite3"
LOCK_FILE = "hall.lock"
# The version of the app that last migrated the folder's database, and its last update.
VERSION_FILE = "version.json"
# A folder holding none of these (and not empty) belongs to something else.
OWN_FILES = (DATABASE_FILE, SECRET_FILE, VERSION_FILE)


def default_folder() -> Path:
    """Where a director's data lives when nothing says otherwise: the user's data folder
    (Windows: %LOCALAPPDATA%\\RommeLedger, macOS: ~/Library/Application Support/RommeLedger,
    Linux: ~/.local/share/RommeLedger), so that an updated copy of the app finds it again."""
    return Path(platformdirs.user_data_dir("RommeLedger", appauthor=False, roaming=False))


def resolve(folder: str | os.PathLike | None = None) -> Path:
    chosen = folder or os.environ.get(DATA_ENV)
    return Path(chosen).expanduser().resolve() if chosen else default_folder()


def database_path(folder: Path) -> Path:
    return folder / DATABASE_FILE


def static_root(folder: Path) -> Path:
    return folder / "static"


def backup_root(folder: Path) -> Path:
    return folder / "backups"


def log_path(folder: Path) -> Path:
    return folder / "hall.log"


def lock_path(folder: Path) -> Path:
    return folder / LOCK_FILE


def secret_key(folder: Path) -> str:
    """The installation's own SECRET_KEY: made on the first start, then read.

    Created with mode 0600 in one step (never readable by others, even for a moment); on
    Windows the file lies in the user's own profile, which other users cannot read.
    """
    path = folder / SECRET_FILE
    folder.mkdir(parents=True, exist_ok=True)  # `HALL_MODE=1 manage.py …` before a first start
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key
    key = secrets.token_urlsafe(50)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags, 0o600)
    except FileExistsError:  # another process made it a moment ago: use theirs
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(key)
        handle.flush()
        os.fsync(handle.fileno())
    return key


def check_writable(folder: Path) -> str | None:
    """None when the folder can be written, otherwise the reason (read-only, full, missing)."""
    probe = folder / ".write-probe"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(probe, "wb") as handle:
            handle.write(b"x" * 4096)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        return error.strerror or str(error)
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


def read_stamp(folder: Path) -> dict:
    """version.json: {"version", "migrated_at"} and, after an update, {"previous",
    "copy"}; {} when there is none (a new folder, or one from before version 1.0)."""
    try:
        data = json.loads((folder / VERSION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_stamp(folder: Path, data: dict) -> None:
    """Whole or not at all: a temporary file, fsync, os.replace."""
    path = folder / VERSION_FILE
    temporary = path.with_name(f".{VERSION_FILE}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def foreign_reason(folder: Path) -> str | None:
    """Why the folder is not a data folder of this app (German, for the console), None when
    it is one or can become one: missing, empty, or holding the app's own files."""
    if not folder.exists():
        return None
    if not folder.is_dir():
        return "das ist eine Datei, kein Ordner"
    try:
        names = {entry.name for entry in folder.iterdir()} - {".write-probe", LOCK_FILE}
    except OSError as error:
        return error.strerror or str(error)
    if names and not names & set(OWN_FILES):
        shown = ", ".join(sorted(names)[:3]) + (" …" if len(names) > 3 else "")
        return f"er enthält fremde Dateien ({shown}) und keine Daten von Rommé Ledger"
    return None
