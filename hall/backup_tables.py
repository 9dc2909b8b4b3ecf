import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


class BackupTable(tables.Table):
    """The backups in the folder; sorted by time (newest first unless the director turns it)."""

    taken = tables.DateTimeColumn(verbose_name=_("time"), format="SHORT_DATETIME_FORMAT")
    kind = tables.Column(verbose_name=_("kind"), orderable=False)
    event = tables.Column(verbose_name=_("event"), orderable=False, default="–")
    version = tables.Column(verbose_name=_("version"), orderable=False, default="–")
    size = tables.Column(verbose_name=_("size"), orderable=False)
    name = tables.Column(verbose_name=_("file"), orderable=False)
    restore = tables.TemplateColumn(
        template_name="hall/backup_restore_cell.html", verbose_name="", orderable=False
    )

    class Meta:
        order_by = ("-taken",)
        attrs = {"class": "data-table compact"}
        empty_text = _("No backups in this folder yet.")
