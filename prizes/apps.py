from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrizesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "prizes"
    verbose_name = _("prize-giving")

    def ready(self):
        # The entry fee list and the prize list join the exporter registry, the fees and the
        # prize plan travel in the event archive, and the demo tournament gets its fees and
        # prize plan from seed_demo's signal (`make run`): scoring imports nothing of prizes.
        from prizes.demo import seed_prizes
        from prizes.fees import archive, exporters  # noqa: F401
        from prizes.plan import exporters as plan_exporters  # noqa: F401  (the prize list)
        from scoring.demo.seed import demo_seeded

        demo_seeded.connect(seed_prizes, dispatch_uid="prizes-demo")
