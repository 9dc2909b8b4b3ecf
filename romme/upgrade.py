"""Safe upgrades of the hall's data folder: on every start `romme.hall` compares the folder's
database with this version of the code before anything is written.

- a new folder (no database, or no migration applied): migrated, nothing to keep; a first
  start cut short (Ctrl+C, a power cut: `version.json` says "first_start" and nothing was
  migrated to the end) goes on as a first start, never taken for another app's database;
- up to date: nothing to do;
- migrations of this code not applied yet (an update of the app): first a copy of the
  database through SQLite's backup API, `backups/database/romme_<time>Z_vor-update-<old
  version>.sqlite3` in the data folder (never the USB stick, which may be missing), then the
  migration; the start page says so (`version.json`'s "previous", read by hall.selectors);
- written by a newer version (migrations applied that this code does not know, or a newer
  version recorded in `version.json`): refused, the folder left as it is;
- a migration that fails: the copy is written back, the reason given, exit 2;
- a database of another application (no Django migrations of this app): refused.

`version.json` records the version that last migrated the folder (common.datafolder). The
messages are German: they go to the director's console window, before any page exists.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from common import datafolder
from common.version import __version__, parse

# Apps whose migrations mark a database as this app's (any one of them applied).
OWN_APPS = ("clubs", "tournaments", "scoring", "hall")
# Room for the copy beyond the database's own size (SQLite's pages, the file system).
COPY_MARGIN = 16 * 1024 * 1024


class UpgradeRefused(Exception):
    """The folder is left as it was; the message says why and what to do (German)."""


@dataclass
class SchemaState:
    database: Path
    exists: bool
    applied: set[tuple[str, str]] = field(default_factory=set)
    pending: list[tuple[str, str]] = field(default_factory=list)
    unknown: list[tuple[str, str]] = field(default_factory=list)
    recorded: str = ""  # the version in version.json, "" when none
    foreign: str = ""
    unfinished: bool = False  # a first start cut short

    @property
    def fresh(self) -> bool:
        return not self.applied or self.unfinished

    @property
    def newer(self) -> bool:
        return bool(self.unknown) or (
            bool(self.recorded) and parse(self.recorded) > parse(__version__)
        )

    def summary(self) -> str:
        """One German line for the doctor and the console."""
        if self.foreign:
            return f"fremde Datenbank ({self.foreign})"
        if not self.exists or self.fresh:
            return "neu: wird beim ersten Start angelegt"
        if self.newer:
            return f"von einer neueren Version geschrieben ({self.recorded or 'unbekannt'})"
        if self.pending:
            return f"Migrationen ausstehend: {len(self.pending)} (beim Start, mit Kopie vorher)"
        return "aktuell"


def applied_migrations(database: Path) -> set[tuple[str, str]] | None:
    """The migrations recorded in the database, read without writing anything (read-only
    connection); None when it has no migration table (not a Django database)."""
    uri = f"{database.resolve().as_uri()}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=20)) as connection:
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
        if not tables:
            return set()
        if ("django_migrations",) not in tables:
            return None
        return set(connection.execute("SELECT app, name FROM django_migrations").fetchall())


def foreign_database(folder: Path) -> str | None:
    """Why the folder's database is not this app's (German), None when it is or when there
    is none yet. Plain SQLite, read-only: it runs before Django and writes nothing."""
    database = datafolder.database_path(folder)
    if not database.is_file() or database.stat().st_size == 0:
        return None
    try:
        applied = applied_migrations(database)
    except sqlite3.DatabaseError as error:
        return f"keine lesbare SQLite-Datenbank: {error}"
    if first_start_unfinished(folder):  # (Django's own apps migrated first, not ours yet)
        return None
    if applied is None or (applied and not {app for app, _ in applied} & set(OWN_APPS)):
        return "sie enthält keine Tabellen von Rommé Ledger"
    return None


def first_start_unfinished(folder: Path) -> bool:
    """This app's first start began migrating the folder and did not get to the end."""
    stamp = datafolder.read_stamp(folder)
    return "first_start" in stamp and "migrated_at" not in stamp


def _graph():
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.graph.nodes)
    for key, migration in loader.replacements.items():
        known.add(key)
        known.update(migration.replaces)
    return loader.graph, known


def inspect(folder: Path) -> SchemaState:
    """The data folder's schema against this code (Django must be set up)."""
    database = datafolder.database_path(folder)
    state = SchemaState(database, database.is_file() and database.stat().st_size > 0)
    state.recorded = str(datafolder.read_stamp(folder).get("version", ""))
    state.unfinished = first_start_unfinished(folder)
    graph, known = _graph()
    if state.exists:
        state.foreign = foreign_database(folder) or ""
        if state.foreign:
            return state
        state.applied = applied_migrations(database) or set()
    state.unknown = sorted(state.applied - known)
    state.pending = [
        node
        for leaf in graph.leaf_nodes()
        for node in graph.forwards_plan(leaf)
        if node not in state.applied
    ]
    state.pending = list(dict.fromkeys(state.pending))
    return state


def copy_name_version(recorded: str) -> str:
    """The note in the copy's name: the version it was written by ("alt": before 1.0)."""
    return f"vor-update-{recorded or 'alt'}"


def _copy(folder: Path, state: SchemaState) -> Path:
    """The pre-update copy (hall.backup_writer.snapshot: backup API, fsync, rename)."""
    from hall import backup_writer

    where = datafolder.backup_root(folder)
    needed = sum(
        path.stat().st_size
        for path in (state.database, state.database.with_name(state.database.name + "-wal"))
        if path.exists()
    )
    where.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(where).free
    if free < needed + COPY_MARGIN:
        raise UpgradeRefused(
            f"Für die Sicherungskopie vor dem Update fehlt Platz in {where}: nötig sind etwa "
            f"{(needed + COPY_MARGIN) // 2**20} MB, frei {free // 2**20} MB. Bitte Platz "
            "schaffen und neu starten. An den Daten wurde nichts verändert."
        )
    try:
        return backup_writer.snapshot(
            where,
            source=str(state.database),
            note=copy_name_version(state.recorded),
            prune_old=False,
        )
    except backup_writer.BackupFailed as error:
        raise UpgradeRefused(
            f"Die Sicherungskopie vor dem Update konnte nicht geschrieben werden ({error}). "
            "Ist der Datenträger voll? Bitte Platz schaffen und neu starten. An den Daten "
            "wurde nichts verändert."
        ) from error


def _restore(state: SchemaState, copy: Path) -> None:
    """The copy written back over the database (backup API: the -wal is taken along)."""
    from django.db import connections

    connections.close_all()
    with (
        contextlib.closing(sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)) as src,
        contextlib.closing(sqlite3.connect(state.database, timeout=20)) as target,
    ):
        src.backup(target)
        target.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def bring_up_to_date(folder: Path, migrate, say, on_fresh=None) -> SchemaState:
    """Refuse, migrate, or copy-migrate-(restore) as the module's docstring says. `migrate`
    runs Django's migrate; `say` prints a line; `on_fresh` is called before a new folder's
    first migration. Raises UpgradeRefused: nothing changed."""
    state = inspect(folder)
    if state.foreign:
        raise UpgradeRefused(
            f"Die Datenbank im Datenordner {folder} gehört nicht zu Rommé Ledger "
            f"({state.foreign}). Bitte einen anderen Datenordner wählen (--data). "
            "Nichts wurde verändert."
        )
    if state.newer:
        raise UpgradeRefused(
            f"Der Datenordner {folder} wurde von einer neueren Version von Rommé Ledger "
            f"geschrieben ({state.recorded or 'unbekannt'}); diese ist {__version__}. Bitte "
            "die neuere Version installieren (pipx install --force <neue .whl-Datei>). "
            "Am Datenordner wurde nichts verändert."
        )
    stamp = datafolder.read_stamp(folder)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    if state.fresh:
        if on_fresh is not None:
            on_fresh()
        datafolder.write_stamp(folder, {"first_start": now})  # (see `first_start_unfinished`)
        migrate()
        datafolder.write_stamp(folder, {"version": __version__, "migrated_at": now})
        return state
    if not state.pending:
        if stamp.get("version") != __version__:
            datafolder.write_stamp(folder, {**stamp, "version": __version__})
        return state
    old = state.recorded or "alt"
    say(f"Update der Daten von Version {old} auf {__version__}: Sicherungskopie …")
    copy = _copy(folder, state)
    say(f"  Kopie des alten Stands: {copy}")
    try:
        migrate()
    except Exception as error:
        _restore(state, copy)
        after = applied_migrations(state.database)
        if after == state.applied:
            copy.unlink(missing_ok=True)  # the folder is as it was: the copy is the database
            kept = "Der alte Stand ist wiederhergestellt"
        else:
            kept = f"Der alte Stand liegt in {copy}"
        raise UpgradeRefused(
            f"Das Update der Daten auf Version {__version__} ist fehlgeschlagen: "
            f"{type(error).__name__}: {error}. {kept}; bitte die bisherige Version "
            f"({old}) weiter benutzen und den Fehler melden."
        ) from error
    datafolder.write_stamp(
        folder,
        {"version": __version__, "migrated_at": now, "previous": old, "copy": copy.name},
    )
    say(f"  Migrationen angewendet: {len(state.pending)}; Daten auf Version {__version__}.")
    return state
