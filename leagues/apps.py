from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("league play")

    def ready(self):
        # The demo league joins seed_demo through its signal (scoring imports nothing of
        # leagues); the division table joins the exporter registry; a match day's event
        # taken in from the host club's laptop (federation) reaches the league as a result.
        from leagues import exports  # noqa: F401
        from leagues.demo.seed import seed_league
        from leagues.matchdays.services import on_event_arrived
        from scoring.demo.seed import demo_seeded
        from tournaments.results import event_arrived

        demo_seeded.connect(seed_league, dispatch_uid="leagues-demo")
        event_arrived.connect(on_event_arrived, dispatch_uid="leagues-arrival")
