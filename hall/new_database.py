"""A new SQLite database's tables made from the models in one step, instead of replaying
every migration.

Django's `migrate` on an empty database spends 90 % of its time re-rendering the migration
state (every `CreateModel` renders the models related to it, and through the user model that
is nearly all of them): 14-25 s on a laptop, on every first start of the hall. The models
are the migrations' end state, so a new database gets the same tables from them at once,
with every migration recorded as applied, the way Django's own `migrate --run-syncdb`
creates an app without migrations. SQLite's DDL is transactional: a start cut short leaves
an empty file, and the next start does it again.

Only for a database without a single table and only on SQLite (the hall, the laptop); an
existing database is migrated by `migrate` as before, so updates keep Django's way. What
the migrations hold beyond the models' schema must be nothing on an empty database: their
`RunPython` steps fill columns of existing rows only. `tests/hall/test_new_database.py` compares
the schema and the rows of both ways, so a migration that seeds rows or creates something
the models do not describe fails there; `make test` runs `makemigrations --check`, so the
models never hold a change no migration has.
"""

from __future__ import annotations

from django.apps import apps
from django.core.management.sql import emit_post_migrate_signal
from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.migrations.executor import MigrationExecutor


def create(using: str = DEFAULT_DB_ALIAS) -> int:
    """Create every table of a new, empty SQLite database and record every migration as
    applied; the number of migrations recorded. 0 (nothing done) for another database or one
    that has any table."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return 0
    with connection.cursor() as cursor:
        if connection.introspection.table_names(cursor):
            return 0
    executor = MigrationExecutor(connection)
    if executor.loader.detect_conflicts():
        return 0  # (Django's migrate says which migrations conflict)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes(), clean_start=True)
    # One transaction: the schema editor turns foreign key checks off before it begins.
    with connection.schema_editor(atomic=True) as editor:
        editor.create_model(executor.recorder.Migration)
        for app_config in apps.get_app_configs():
            for model in router.get_migratable_models(app_config, using):
                if model._meta.can_migrate(connection):
                    editor.create_model(model)
        for migration, _backwards in plan:
            executor.record_migration(migration)
    # Content types and permissions, as after `migrate` (from the models themselves).
    emit_post_migrate_signal(0, False, using, apps=apps, plan=plan)
    return len(plan)
