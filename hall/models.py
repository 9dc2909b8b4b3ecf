"""What the director sets for the laptop in the hall (one row, with its history)."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class HallSettings(models.Model):
    """The hall mode's settings; there is only ever the row with pk 1 (`hall.services.load`)."""

    remote_direction = models.BooleanField(
        _("Tournament direction from other devices too"),
        default=False,
        help_text=_(
            "Lets a second director log in on a tablet or another laptop in the hall. "
            "Off: the director's pages open on this laptop only; phones reach the table "
            "links, the public results and the hall display."
        ),
    )
    backup_folder = models.CharField(
        _("Backup folder"),
        max_length=500,
        blank=True,
        help_text=_(
            "For example a USB stick (E:\\Backups or /media/usb/backups). Empty: the folder "
            "“backups” in the data folder."
        ),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("hall settings")
        verbose_name_plural = _("hall settings")

    def __str__(self):
        return str(self._meta.verbose_name)
