from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "federation"
    verbose_name = _("federation")

    def ready(self):
        # The demo federation joins seed_demo through its signal (scoring imports nothing of
        # federation), and a login notes whether the navigation shows "Verbände".
        from django.contrib.auth.signals import user_logged_in

        # The ranking list, player card and qualification list join the exporter registry.
        from federation import exports  # noqa: F401
        from federation.demo import seed_federation
        from federation.nav import note_login
        from scoring.demo.seed import demo_seeded

        demo_seeded.connect(seed_federation, dispatch_uid="federation-demo")
        # The import page offers "as a submission to the federation" (scoring imports nothing
        # of federation).
        from federation.submit_jobs import HANDOFF
        from scoring.archive.handoff import register

        register(HANDOFF)
        user_logged_in.connect(note_login, dispatch_uid="federation-nav")
