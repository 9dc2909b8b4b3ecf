"""The director's backup page in the hall mode: the list of backups in the backup folder
and the restore of an event backup (with a confirmation step; the import runs as the
archive import task). Laptop only (hall.access), the director only, 404 outside the hall."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from hall import backups
from hall.backup_tables import BackupTable
from hall.restore import RestoreRefused, queue_restore, read_archive, restore_name
from scoring.archive.validate import ArchiveError


def _director(request) -> None:
    if not settings.HALL_MODE:
        raise Http404
    if not getattr(request, "hall_laptop", False):
        raise PermissionDenied(_("This page opens on the tournament director's laptop only."))
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only the tournament director of this laptop may do this."))


@login_required
def backup_list(request):
    _director(request)
    where = backups.folder()
    table = BackupTable(backups.rows(where))
    RequestConfig(request, paginate=False).configure(table)
    context = {
        "table": table,
        "folder": where,
        "status": backups.status(),
        "data_folder": settings.HALL_DATA_DIR,
    }
    return render(request, "hall/backups.html", context)


@login_required
def backup_restore(request):
    """GET: what the restore will do; POST: queue it and follow the import's progress."""
    _director(request)
    source = request.POST if request.method == "POST" else request.GET
    backup = backups.find(source.get("file", ""))
    if backup is None or backup.kind != "archive":
        raise Http404
    context, status = {"backup": backup}, 200
    try:
        if request.method == "POST":
            job = queue_restore(request.user, backup)
            return redirect("archive:import_job", import_id=job.pk)
        _content, data = read_archive(backup)
        context["event_name"] = data["event"].get("name", "")
        context["new_name"] = restore_name(data, backup)
    except ArchiveError as error:
        context["error"] = _("The backup cannot be read – at %(path)s: %(message)s") % {
            "path": error.path,
            "message": error.message,
        }
        status = 400
    except RestoreRefused as error:
        context["error"], status = str(error), 400
    return render(request, "hall/backup_restore.html", context, status=status)
