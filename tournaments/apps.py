from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self):
        # The registry (clubs) sits below tournaments and announces renames by a signal.
        from clubs.signals import public_names_changed

        from .results import bump_for_names

        public_names_changed.connect(bump_for_names, dispatch_uid="tournaments.bump_for_names")
