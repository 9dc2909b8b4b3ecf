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

        # The ranking list, player card and qualification list join the exporter registry, in
        # that order (federation.championships.exports imports federation.lists.exports).
        from federation.associations.nav import note_login
        from federation.championships import exports as _qualification  # noqa: F401
        from federation.demo.seed import seed_federation
        from federation.lists import exports as _lists  # noqa: F401
        from scoring.demo.seed import demo_seeded

        demo_seeded.connect(seed_federation, dispatch_uid="federation-demo")
        # The import page offers "as a submission to the federation" (scoring imports nothing
        # of federation).
        from federation.submissions.jobs import HANDOFF
        from scoring.archive.handoff import register

        register(HANDOFF)
        user_logged_in.connect(note_login, dispatch_uid="federation-nav")
