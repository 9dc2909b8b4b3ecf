from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HallConfig(AppConfig):
    """The hall mode: the director's laptop as the server for the phones in the hall."""

    name = "hall"
    verbose_name = _("Hall")
    default_auto_field = "django.db.models.BigAutoField"
