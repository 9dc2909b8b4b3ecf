"""The hall's start on a data folder as a later version of the app would do it, in a process
of its own (the hall's settings need a fresh Django): `python -m tests.hall.upgrade_script
FOLDER MODE`, then `romme.hall --upgrade-only` (what `romme-ledger hall` does before it
serves). Modes:

- ``today``: this code as it is;
- ``later``: version 1.1.0 with one more migration (a table made and filled);
- ``later-fails``: 1.1.0 with that migration and a second one that changes every club's
  name and then fails (halfway: the first is applied and committed);
- ``later-full-disk``: 1.1.0, and the pre-update copy fails with ENOSPC (os.replace of
  the finished copy, as a disk filling up during the copy).

With ``--archives`` the event archives in the folder's backups are compared afterwards with
the events' archives as this code writes them now (`ARCHIVES <equal> <total>`)."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

LATER = "1.1.0"


def _boom(apps, schema_editor):
    raise RuntimeError("Testfehler mitten im Update")


def add_migrations(fail: bool) -> None:
    from django.db import migrations
    from django.db.migrations.loader import MigrationLoader

    original = MigrationLoader.load_disk

    def load_disk(self):
        original(self)
        leaf = max(name for app, name in self.disk_migrations if app == "hall")
        ops = [
            migrations.RunSQL("CREATE TABLE hall_upgrade_probe (id integer PRIMARY KEY, v text)"),
            migrations.RunSQL(f"INSERT INTO hall_upgrade_probe (v) VALUES ('{LATER}')"),
        ]
        first = type(
            "Migration",
            (migrations.Migration,),
            {"operations": ops, "dependencies": [("hall", leaf)]},
        )
        self.disk_migrations[("hall", "9001_probe")] = first("9001_probe", "hall")
        if fail:
            ops = [
                migrations.RunSQL("UPDATE clubs_club SET name = name || ' (halb)'"),
                migrations.RunPython(_boom),
            ]
            depends = [("hall", "9001_probe")]
            second = type(
                "Migration", (migrations.Migration,), {"operations": ops, "dependencies": depends}
            )
            self.disk_migrations[("hall", "9002_fails")] = second("9002_fails", "hall")

    MigrationLoader.load_disk = load_disk


def compare_archives(folder: Path) -> None:
    from hall import backups
    from scoring.archive.dump import export_event
    from tournaments.models import Event

    kept = backups.newest_archives(folder / "backups")
    same = 0
    for event_id, backup in kept.items():
        then = json.loads(backup.path.read_text(encoding="utf-8"))
        now = json.loads(json.dumps(export_event(Event.objects.get(pk=event_id)), default=str))
        for data in (then, now):
            data.pop("exported_at"), data.pop("exported_from")
        same += then == now
    print(f"ARCHIVES {same} {len(kept)}", flush=True)


def main() -> int:
    folder, mode = Path(sys.argv[1]), sys.argv[2]
    if mode != "today":
        import common.version

        common.version.__version__ = LATER
        add_migrations(fail=mode == "later-fails")
    if mode == "later-full-disk":

        def full(*args, **kwargs):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        os.replace = full
    from romme import hall

    status = hall.main(["--data", str(folder), "--upgrade-only", "--no-browser"])
    if status == 0 and "--archives" in sys.argv:
        compare_archives(folder)
    return status


if __name__ == "__main__":
    sys.exit(main())
