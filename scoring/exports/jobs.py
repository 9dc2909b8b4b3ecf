"""Long exports as tasks: a worker renders, every app server answers the polling.

`start_job` writes an `ExportJob` row and enqueues the task `run_export_job` (django-tasks,
`TASKS` in settings: the database backend, so the queue is a table too). A worker
(`manage.py db_worker`: `make run` starts one, a server runs `deploy/romme-worker.service`)
takes it, writes progress (done/total) to the row every half second and finally the file's
bytes. Status and file are read from the database, so any gunicorn process on any machine
answers, whichever machine's worker rendered the file; no shared folder is needed.

Jobs not touched for an hour are deleted (with their finished task results) when a new one
starts. A job waiting or running whose row has not moved for ten minutes counts as failed:
its worker died or none runs.
"""

from __future__ import annotations

import re
import secrets
import time
from datetime import timedelta

from django.utils import timezone, translation
from django_tasks import task

from scoring.exports.registry import SCOPES, get_exporter, scope_of
from scoring.models import JOB_STALE_AFTER, ExportJob

from .rendering import CONTENT_TYPES, render_export

MAX_AGE = timedelta(hours=1)
STALE = JOB_STALE_AFTER
JOB_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,32}$")
_WRITE_INTERVAL = 0.5
INTERRUPTED = "interrupted"


def cleanup_old_jobs(max_age: timedelta = MAX_AGE) -> int:
    """Delete jobs (and their files) not touched for `max_age`; returns how many."""
    return ExportJob.remove_old(run_export_job, max_age)


def start_job(user, exporter_slug: str, obj, fmt: str, *, base_url: str = "") -> str:
    """Queue `obj`'s export as `fmt`, rendered in the active language; returns the job id."""
    exporter = get_exporter(exporter_slug)
    cleanup_old_jobs()
    job = ExportJob.objects.create(
        id=secrets.token_urlsafe(18),
        user=user,
        exporter=exporter.slug,
        scope=scope_of(obj).name,
        object_id=obj.pk,
        fmt=fmt,
        language=translation.get_language() or "de",
        base_url=base_url,
        unit={"pdf": "page", "json": "step"}.get(fmt, "row"),
        filename=exporter.filename(obj, fmt),
        content_type=CONTENT_TYPES[fmt],
    )
    result = run_export_job.enqueue(job.pk)
    ExportJob.objects.filter(pk=job.pk).update(task_id=str(result.id))
    return job.pk


def read_job(job_id: str) -> ExportJob | None:
    """The job without its file; a waiting or running job gone quiet reads as failed."""
    if not JOB_ID_RE.match(job_id or ""):
        return None
    job = ExportJob.objects.defer("content").filter(pk=job_id).first()
    if (
        job is not None
        and job.state in (ExportJob.State.QUEUED, ExportJob.State.RUNNING)
        and timezone.now() - job.updated_at > STALE
    ):
        job.state, job.error = ExportJob.State.FAILED, INTERRUPTED
    return job


def job_content(job_id: str) -> bytes | None:
    content = (
        ExportJob.objects.filter(pk=job_id, state=ExportJob.State.DONE)
        .values_list("content", flat=True)
        .first()
    )
    return None if content is None else bytes(content)


@task()
def run_export_job(job_id: str) -> int:
    """Render one queued job (in a worker); returns the file's size in bytes."""
    rows = ExportJob.objects.filter(pk=job_id)
    job = rows.defer("content").first()
    if job is None:  # deleted while it waited
        return 0
    seen = {"done": 0, "total": 0, "unit": job.unit, "written": 0.0}

    def progress(done: int, total: int, unit: str) -> None:
        seen.update(done=done, total=max(total, done), unit=unit)
        now = time.monotonic()
        if now - seen["written"] < _WRITE_INTERVAL and done < total:
            return
        seen["written"] = now
        rows.update(
            state=ExportJob.State.RUNNING,
            done=seen["done"],
            total=seen["total"],
            unit=unit,
            updated_at=timezone.now(),
        )

    rows.update(state=ExportJob.State.RUNNING, updated_at=timezone.now())
    try:
        obj = SCOPES[job.scope].queryset().get(pk=job.object_id)
        with translation.override(job.language):
            content, filename, content_type = render_export(
                job.exporter, obj, job.fmt, progress, base_url=job.base_url
            )
    except Exception as error:
        rows.update(
            state=ExportJob.State.FAILED,
            error=type(error).__name__[:100],
            updated_at=timezone.now(),
        )
        raise  # the task result keeps the traceback for the operator
    rows.update(
        state=ExportJob.State.DONE,
        done=max(seen["done"], seen["total"], 1),
        total=max(seen["total"], 1),
        unit=seen["unit"],
        filename=filename,
        content_type=content_type,
        content=content,
        size=len(content),
        updated_at=timezone.now(),
    )
    return len(content)
