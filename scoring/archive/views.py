"""The import page of the event archive and the import's own page with its progress.

The page is open to superusers and organisers of any club; which archive a user may import
is decided from the file (`jobs.check_permission`). A refused upload answers 400 (403 when
the file names a club the user may not import into) with the reason and the place in the
file, and stores nothing. An import's page and status belong to the user who started it
(404 for anyone else).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_GET

from common import limits
from scoring.archive import handoff as handoffs
from scoring.archive import jobs
from scoring.archive.forms import ArchiveUploadForm
from scoring.archive.load import loads
from scoring.archive.validate import ArchiveError
from scoring.models import ArchiveImport

State = ArchiveImport.State
# What `import_event` counts, in the order the page lists it.
CREATED_LABELS = {
    "events": gettext_lazy("events"),
    "clubs": gettext_lazy("clubs"),
    "seasons": gettext_lazy("seasons"),
    "users": gettext_lazy("users (inactive, for the history only)"),
    "players": gettext_lazy("players"),
    "participants": gettext_lazy("participants"),
    "groups": gettext_lazy("pairs and teams"),
    "series": pgettext_lazy("created by an import", "series"),
    "tables": gettext_lazy("tables"),
    "sheets": gettext_lazy("score sheets"),
    "versions": gettext_lazy("versions of score sheets"),
    "hands": gettext_lazy("hands"),
}


def refusal(path: str, message: str) -> str:
    return _("Refused, nothing imported – at %(path)s in the file: %(message)s") % {
        "path": path,
        "message": message,
    }


@login_required
def import_archive(request):
    handoff = handoffs.offered(request.user)
    if not jobs.may_import(request.user) and handoff is None:
        raise PermissionDenied(_("You need the role “organiser” in a club to import events."))
    posted = request.method == "POST"
    files = (request.POST, request.FILES) if posted else ()
    form = ArchiveUploadForm(*files, handoff=handoff)
    status = 200
    if posted:
        status = 400
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                if form.cleaned_data.get("handoff"):
                    return redirect(handoff.take(request.user, _read(upload.read())))
                job = jobs.queue_import(
                    request.user,
                    upload.name,
                    upload.read(),
                    rename=form.cleaned_data["rename"],
                    check_only=form.cleaned_data["check_only"],
                )
            except ArchiveError as error:
                form.add_error("file", refusal(error.path, error.message))
                status = 403 if error.code == jobs.FORBIDDEN else 400
            except PermissionDenied as error:  # may hand over, but not import
                form.add_error(None, str(error))
                status = 403
            else:
                return redirect("archive:import_job", import_id=job.pk)
    context = {"form": form, "imports": jobs.recent_imports(request.user)}
    return render(request, "archive/import.html", context, status=status)


def _read(content: bytes) -> dict:
    """The upload for a handoff, checked as the import checks it in the request."""
    try:
        limits.check_size(len(content), "archive_bytes")
    except limits.LimitExceeded as error:
        raise ArchiveError("$", str(error)) from None
    data = loads(content)
    jobs._check_outline(data)
    return data


def _own(request, import_id) -> ArchiveImport:
    job = jobs.read_import(import_id, request.user)
    if job is None:
        raise Http404
    return job


def status_payload(job: ArchiveImport) -> dict:
    steps = ArchiveImport.STEPS
    result = job.result or {}
    if job.state == State.DONE:
        percent = 100
        if job.check_only:
            message = _("Check only: the archive can be imported as “%(name)s”; nothing was kept.")
        else:
            message = _("Imported as “%(name)s”.")
        message %= {"name": result.get("event_name", "")}
    elif job.state == State.FAILED:
        percent = 0
        message = refusal(job.error_path, job.error) if job.error_path else job.error
    elif job.state == State.QUEUED:
        percent, message = 0, _("Waiting for a free background worker …")
    else:
        percent = int(100 * max(job.step - 1, 0) / steps)
        texts = {
            1: _("Step %(step)d of %(steps)d: reading the file …"),
            2: _("Step %(step)d of %(steps)d: checking every field and every score sheet …"),
            3: _("Step %(step)d of %(steps)d: writing the event …"),
        }
        message = texts.get(job.step, texts[1]) % {"step": max(job.step, 1), "steps": steps}
    event_url = reverse("tournaments:event_detail", args=[job.event_id]) if job.event_id else None
    return {
        "state": job.state,
        "percent": percent,
        "message": message,
        "download_url": None,
        "event_url": event_url,
    }


@login_required
@require_GET
def import_job(request, import_id):
    """The import's page: works without JavaScript (it reloads itself until done)."""
    job = _own(request, import_id)
    result = job.result or {}
    context = {
        "job": job,
        "status": status_payload(job),
        "status_url": reverse("archive:import_status", args=[job.pk]),
        "pending": job.state in jobs.PENDING,
        "created": [
            (label, (result.get("created") or {}).get(key, 0))
            for key, label in CREATED_LABELS.items()
        ],
        "warnings": result.get("warnings") or [],
        "more_warnings": max(0, result.get("warning_count", 0) - len(result.get("warnings") or [])),
    }
    return render(request, "archive/import_job.html", context)


@login_required
@require_GET
def import_status(request, import_id):
    response = JsonResponse(status_payload(_own(request, import_id)))
    response["Cache-Control"] = "no-store"
    return response
