"""A new SQLite database made in a process of its own (its settings name the file):
`python -m tests.hall.new_database_script FILE MODE`, MODE one of

- ``django``: Django's own `migrate`, every migration replayed;
- ``ours``: `manage.py migrate` as the project has it (hall.new_database on a new file);
- ``fails``: ours, with the 40th migration's record failing halfway: prints the tables left.
"""

from __future__ import annotations

import os
import sqlite3
import sys


def main(path: str, mode: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    import django

    django.setup()
    from django.core.management import call_command

    if mode == "django":
        from django.core.management.commands.migrate import Command

        call_command(Command(), verbosity=0, interactive=False)
        return
    if mode == "fails":
        from django.db.migrations.executor import MigrationExecutor

        original = MigrationExecutor.record_migration
        seen = []

        def record_migration(self, migration):
            seen.append(migration)
            if len(seen) == 40:
                raise RuntimeError("Testfehler mitten in der ersten Migration")
            original(self, migration)

        MigrationExecutor.record_migration = record_migration
        try:
            call_command("migrate", verbosity=0, interactive=False)
        except RuntimeError as error:
            print("FAILED", error)
        with sqlite3.connect(path) as db:
            tables = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
            print("TABLES", tables.fetchone()[0])
        return
    call_command("migrate", verbosity=1, interactive=False)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
