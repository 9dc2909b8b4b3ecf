from importlib import import_module
from importlib.util import find_spec

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "live"
    verbose_name = _("live results")

    def ready(self):
        # The owner's guard: a write to an event a laptop owns is refused inside its own
        # transaction (tournaments.results.results_bumping; nothing below imports live).
        from live.server_services import guard_laptop_events
        from tournaments.results import results_bumping

        results_bumping.connect(guard_laptop_events, dispatch_uid="live-owner-guard")
        # The laptop's receivers (the outbox): live/receivers.py's connect(), once there.
        if find_spec("live.receivers") is not None:
            receivers = import_module("live.receivers")
            if hasattr(receivers, "connect"):
                receivers.connect()
