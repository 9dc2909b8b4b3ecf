from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self):
        # Registers every built-in exporter; the registry itself imports none (no cycle).
        from .exports import exporters  # noqa: F401
