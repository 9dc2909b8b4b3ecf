from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrizesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "prizes"
    verbose_name = _("prize-giving")

    def ready(self):
        # The entry fee list joins the exporter registry, and the fees and the prize plan
        # travel in the event archive (scoring imports nothing of prizes).
        from prizes.fees import archive, exporters  # noqa: F401
        from prizes.plan import exporters as plan_exporters  # noqa: F401  (the prize list)
