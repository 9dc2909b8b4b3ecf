from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self):
        from tournaments.results import results_changed

        # The event archive's section of the event's categories (scoring.archive.sections).
        from .archive import categories  # noqa: F401

        # `exporters` registers every built-in exporter (the registry itself imports none: no
        # cycle); `prerender` renders the standings PDF ahead once the results settle:
        # tournaments sends the signal and knows nothing of exports.
        from .exports import exporters, prerender  # noqa: F401

        results_changed.connect(prerender.on_results_changed, dispatch_uid="prerender-standings")
