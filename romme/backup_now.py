"""`romme-ledger backup`: a backup of the hall's data folder now, as the backup loop writes
them (hall.backup_writer): a copy of the database and every event's archive, in the backup
folder of the hall settings (a USB stick) or backups/ in the data folder. Safe while the hall
runs (SQLite's backup API reads in one transaction). German messages, exit status 2 when
there is nothing to back up or the folder is not this version's, 1 when writing failed."""

from __future__ import annotations

import os
import sys


def _say(text: str) -> None:
    print(text, flush=True)


def _fail(text: str, status: int = 2) -> int:
    print(text, file=sys.stderr, flush=True)
    return status


def backup_now() -> int:
    from common import datafolder

    if os.environ.get("DATABASE_URL"):
        return _fail(
            "romme-ledger backup sichert den Datenordner des Saalbetriebs; ein Server sichert "
            "seine Datenbank mit deren eigenen Mitteln (pg_dump)."
        )
    folder = datafolder.resolve()
    if not datafolder.database_path(folder).is_file():
        return _fail(f"Im Datenordner {folder} sind noch keine Daten: nichts zu sichern.")
    import django

    django.setup()
    from romme import upgrade

    state = upgrade.inspect(folder)
    if state.foreign or state.newer:
        return _fail(f"Datenordner {folder}: {state.summary()}. Nichts wurde gesichert.")
    from hall import backup_writer, backups
    from tournaments.models import Event

    # Before the update's migration the settings row may not be readable: the data folder.
    where = datafolder.backup_root(folder) if state.pending else backups.folder()
    try:
        copy = backup_writer.snapshot(where)
        _say(f"Datenbank gesichert: {copy}")
        if state.pending:
            _say("Veranstaltungen nicht einzeln gesichert: erst romme-ledger hall starten.")
            return 0
        for event_id, name in Event.objects.order_by("pk").values_list("pk", "name"):
            written = backup_writer.write_archive(event_id, where)
            _say(f"Veranstaltung „{name}“ gesichert: {written.path}")
    except backup_writer.BackupFailed as error:
        return _fail(f"Die Sicherung nach {where} ist fehlgeschlagen: {error}", status=1)
    return 0
