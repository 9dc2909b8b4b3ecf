"""Django's `migrate`, with a new SQLite database's tables made from the models at once
(`hall.new_database`: 1 s instead of 14-25 s on a laptop's first start). Everything else,
an update of an existing database above all, is Django's own command unchanged."""

from importlib import import_module

from django.apps import apps
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.utils.module_loading import module_has_submodule

from hall import new_database

# Options that ask for something other than "every migration of every app, for real".
PARTIAL = ("app_label", "migration_name", "fake", "plan", "check_unapplied", "prune")


class Command(DjangoMigrate):
    def handle(self, *args, **options):
        if not any(options.get(name) for name in PARTIAL):
            # The post_migrate receivers of the apps' management modules, as Django's does.
            for app_config in apps.get_app_configs():
                if module_has_submodule(app_config.module, "management"):
                    import_module(".management", app_config.name)
            recorded = new_database.create(options["database"])
            if recorded:
                if options["verbosity"] >= 1:
                    self.stdout.write(
                        f"New database: tables made from the models, {recorded} migrations "
                        "recorded as applied."
                    )
                return
        super().handle(*args, **options)
