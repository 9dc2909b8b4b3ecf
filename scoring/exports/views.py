"""Export pages: the menu per object, direct downloads, and jobs with a progress bar.

Reading an export needs the exporter's role (viewer at least) in the club that owns the
object; anonymous users are sent to the login page. Jobs belong to the user who started
them and are checked again at every request: anyone else, or the owner after losing the
role, gets a 404 for their page, status and file.
"""

from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.permissions import VIEWER, has_role, require_role
from common.lan import phone_base_url
from scoring.exports.registry import EXPORTERS, SCOPES, exporters_for, get_exporter
from scoring.models import ExportJob
from scoring.sheets.codes import parse_sheet_code, sheet_entry_path
from scoring.visibility import require_sheet_reader
from tournaments.models import Series

from . import jobs, prerender
from .rendering import ATTACHMENTS, render_export

FORMAT_LABELS = {"xlsx": "Excel (XLSX)", "pdf": "PDF", "html": None, "json": "JSON"}


def _object(scope: str, pk: int):
    if scope not in SCOPES:
        raise Http404
    scope_obj = SCOPES[scope]
    return scope_obj, get_object_or_404(scope_obj.queryset(), pk=pk)


def _exporter(slug: str, scope: str, fmt: str):
    exporters_for(scope)  # loads the registry
    exporter = EXPORTERS.get(slug)
    if exporter is None or exporter.scope != scope or fmt not in exporter.formats:
        raise Http404
    return exporter


def _ready(slug: str, obj, fmt: str) -> prerender.StoredFile | None:
    """The file rendered ahead from the object's current results in the reader's language
    (the standings PDF; `scoring.exports.prerender`), or None."""
    if (slug, fmt) not in prerender.PRERENDERED:
        return None
    return prerender.fresh_file_soon(slug, obj, fmt, translation.get_language())


def _base_url(request) -> str:
    # In the hall the laptop's LAN address, never the address of the director's browser.
    return phone_base_url(request)


def _unit_message(job: ExportJob) -> str:
    done, total, unit = job.done, job.total, job.unit
    if job.state == ExportJob.State.DONE:
        return _("Ready.")
    if job.state == ExportJob.State.FAILED:
        if job.error == jobs.INTERRUPTED:
            return _("The export was interrupted: no background worker answered. Try again.")
        return _("The export failed. Please try again or tell the organiser.")
    if job.state == ExportJob.State.QUEUED:
        return _("Waiting for a free background worker …")
    if not done:
        return _("Preparing …")
    params = {"done": done, "total": total}
    if unit == "page":
        return _("Page %(done)d of %(total)d") % params
    if unit == "row":
        return _("Row %(done)d of %(total)d") % params
    return _("Step %(done)d of %(total)d") % params


@login_required
@require_GET
def menu(request, scope, pk):
    scope_obj, obj = _object(scope, pk)
    club = scope_obj.club_of(obj)
    require_role(request.user, club, VIEWER)
    entries = []
    for exporter in exporters_for(scope):
        if not has_role(request.user, club, exporter.permission):
            continue
        formats = []
        for fmt in exporter.formats:
            formats.append(
                {
                    "fmt": fmt,
                    "label": FORMAT_LABELS[fmt] or _("Print page"),
                    "url": reverse("exports:export", args=[scope, obj.pk, exporter.slug, fmt]),
                    "job_url": reverse(
                        "exports:job_start", args=[scope, obj.pk, exporter.slug, fmt]
                    )
                    if exporter.is_long(obj, fmt) and not _ready(exporter.slug, obj, fmt)
                    else "",
                }
            )
        entries.append({"exporter": exporter, "formats": formats})
    series, categories = [], []
    if scope == "event":
        series = list(obj.series.order_by("number"))
        categories = list(obj.categories.order_by("order", "name"))
    context = {"obj": obj, "scope": scope, "club": club, "entries": entries}
    context.update({"series_list": series, "category_list": categories})
    return render(request, "exports/menu.html", context)


@login_required
@require_GET
def export(request, scope, pk, slug, fmt):
    scope_obj, obj = _object(scope, pk)
    exporter = _exporter(slug, scope, fmt)
    require_role(request.user, scope_obj.club_of(obj), exporter.permission)
    stored = _ready(exporter.slug, obj, fmt)
    if stored is not None:  # rendered ahead from these very results (prerender)
        content, filename, content_type = stored.content, stored.filename, stored.content_type
    else:
        content, filename, content_type = prerender.render_at_click(
            exporter.slug,
            obj,
            fmt,
            lambda: render_export(
                exporter.slug,
                obj,
                fmt,
                base_url=_base_url(request),
                csp_nonce=request.csp_nonce if fmt == "html" else "",
            ),
        )
    if fmt == "html":
        return HttpResponse(content, content_type=content_type)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = _disposition(filename, attachment=fmt in ATTACHMENTS)
    return response


def _disposition(filename: str, *, attachment: bool) -> str:
    from django.utils.http import content_disposition_header

    return content_disposition_header(attachment, filename)


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def job_start(request, scope, pk, slug, fmt):
    scope_obj, obj = _object(scope, pk)
    exporter = _exporter(slug, scope, fmt)
    require_role(request.user, scope_obj.club_of(obj), exporter.permission)
    stored = _ready(exporter.slug, obj, fmt)
    if stored is not None:  # rendered ahead: the job is done before it starts
        language = translation.get_language()
        job_id = prerender.finished_job(request.user, exporter.slug, obj, fmt, language, stored)
    else:
        job_id = jobs.start_job(request.user, exporter.slug, obj, fmt, base_url=_base_url(request))
    if _wants_json(request):
        return JsonResponse(
            {
                "id": job_id,
                "status_url": reverse("exports:job_status", args=[job_id]),
                "page_url": reverse("exports:job", args=[job_id]),
            },
            status=202,
        )
    return redirect("exports:job", job_id=job_id)


def _own_job(request, job_id) -> ExportJob:
    """The user's own job, if they still hold the exporter's role for its object."""
    job = jobs.read_job(job_id)
    if job is None or job.user_id != request.user.pk or job.scope not in SCOPES:
        raise Http404
    scope_obj = SCOPES[job.scope]
    obj = scope_obj.queryset().filter(pk=job.object_id).first()
    exporter = EXPORTERS.get(job.exporter) or get_exporter(job.exporter)
    if obj is None or not has_role(request.user, scope_obj.club_of(obj), exporter.permission):
        raise Http404
    return job


def _status_payload(job: ExportJob) -> dict:
    done, total = job.done, job.total
    done_state = job.state == ExportJob.State.DONE
    percent = 100 if done_state else (int(100 * done / total) if total else 0)
    return {
        "state": job.state,
        "done": done,
        "total": total,
        "unit": job.unit,
        "percent": min(100, percent),
        "message": _unit_message(job),
        "filename": job.filename,
        "download_url": reverse("exports:job_download", args=[job.pk]) if done_state else None,
    }


@login_required
@require_GET
def job_status(request, job_id):
    response = JsonResponse(_status_payload(_own_job(request, job_id)))
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def job(request, job_id):
    """The job's own page: works without JavaScript (it reloads itself until done)."""
    job = _own_job(request, job_id)
    context = {
        "job_id": job.pk,
        "status": _status_payload(job),
        "exporter": get_exporter(job.exporter),
        "menu_url": reverse("exports:menu", args=[job.scope, job.object_id]),
        "status_url": reverse("exports:job_status", args=[job.pk]),
    }
    return render(request, "exports/job.html", context)


@login_required
@require_GET
def job_download(request, job_id):
    job = _own_job(request, job_id)
    content = jobs.job_content(job.pk) if job.state == ExportJob.State.DONE else None
    if content is None:
        raise Http404
    response = FileResponse(
        io.BytesIO(content),
        as_attachment=job.fmt in ATTACHMENTS,
        filename=job.filename,
        content_type=job.content_type,
    )
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def sheet_code(request, code):
    """The short code printed on a score sheet leads to that sheet's entry page."""
    parsed = parse_sheet_code(code)
    if parsed is None:
        raise Http404
    series = get_object_or_404(Series.objects.select_related("event__club"), pk=parsed[0])
    # Only members of the event's club learn where a code leads (the page checks again).
    require_sheet_reader(request.user, series.event, None, published=series.published)
    return redirect(sheet_entry_path(*parsed))
