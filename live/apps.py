from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "live"
    verbose_name = _("live results")

    def ready(self):
        # The outbox and the owner's guard, in the write's own transaction
        # (tournaments.results.results_bumping; nothing below imports live).
        from live import receivers

        receivers.connect()
