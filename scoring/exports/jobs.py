"""Long exports as jobs: a thread renders the file into a temporary folder per job.

    <EXPORTS_JOB_DIR>/<job id>/status.json   {"state", "done", "total", "unit", ...}
    <EXPORTS_JOB_DIR>/<job id>/result        the file, once "state" is "done"

The status lives in files, not in memory, so any process on the same machine can answer
the polling (several gunicorn workers included). Not for several machines behind one
address: they would need a shared folder. Jobs older than an hour are removed when a new
one starts. Setting EXPORTS_RUN_JOBS_INLINE (tests) runs a job before `start_job` returns.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils import translation

from scoring.exports.registry import get_exporter, scope_of

from .rendering import CONTENT_TYPES, render_export

log = logging.getLogger(__name__)

MAX_AGE_SECONDS = 3600
# A running job whose status has not moved for this long died with its process.
STALE_SECONDS = 600
JOB_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_WRITE_INTERVAL = 0.25


def job_root() -> Path:
    root = getattr(settings, "EXPORTS_JOB_DIR", None) or (
        Path(tempfile.gettempdir()) / "romme-exports"
    )
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    return root


def job_dir(job_id: str) -> Path | None:
    if not JOB_ID_RE.match(job_id or ""):
        return None
    path = job_root() / job_id
    return path if path.is_dir() else None


def _write_status(folder: Path, status: dict[str, Any]) -> None:
    status["updated"] = time.time()
    temporary = folder / f".status-{threading.get_ident()}.tmp"
    temporary.write_text(json.dumps(status), encoding="utf-8")
    os.replace(temporary, folder / "status.json")


def read_status(job_id: str) -> dict[str, Any] | None:
    folder = job_dir(job_id)
    if folder is None:
        return None
    try:
        status = json.loads((folder / "status.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        status.get("state") in ("queued", "running")
        and time.time() - status.get("updated", 0) > STALE_SECONDS
    ):
        status["state"] = "failed"
        status["error"] = "interrupted"
    return status


def result_path(job_id: str) -> Path | None:
    folder = job_dir(job_id)
    if folder is None:
        return None
    path = folder / "result"
    return path if path.is_file() else None


def cleanup_old_jobs(max_age: float = MAX_AGE_SECONDS) -> int:
    """Remove job folders not touched for `max_age` seconds; returns how many."""
    removed = 0
    now = time.time()
    for folder in job_root().iterdir():
        if not folder.is_dir() or not JOB_ID_RE.match(folder.name):
            continue
        try:
            status_file = folder / "status.json"
            touched = (status_file if status_file.exists() else folder).stat().st_mtime
        except OSError:
            continue
        if now - touched > max_age:
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


def start_job(
    user,
    exporter_slug: str,
    obj,
    fmt: str,
    *,
    base_url: str = "",
    sync: bool | None = None,
) -> str:
    """Start rendering in a thread (or right here if `sync`); returns the job id."""
    exporter = get_exporter(exporter_slug)
    cleanup_old_jobs()
    job_id = secrets.token_urlsafe(18)
    folder = job_root() / job_id
    folder.mkdir()
    status = {
        "state": "queued",
        "done": 0,
        "total": 0,
        "unit": "page" if fmt == "pdf" else "row",
        "user_id": getattr(user, "pk", None),
        "exporter": exporter.slug,
        "scope": scope_of(obj).name,
        "object_id": obj.pk,
        "fmt": fmt,
        "filename": exporter.filename(obj, fmt),
        "content_type": CONTENT_TYPES[fmt],
        "created": time.time(),
        "error": "",
    }
    _write_status(folder, status)
    language = translation.get_language()
    if sync is None:
        sync = getattr(settings, "EXPORTS_RUN_JOBS_INLINE", False)

    def run():
        last = [0.0]

        def progress(done: int, total: int, unit: str) -> None:
            now = time.monotonic()
            if now - last[0] < _WRITE_INTERVAL and done < total:
                return
            last[0] = now
            status.update(state="running", done=done, total=max(total, done), unit=unit)
            _write_status(folder, status)

        try:
            with translation.override(language):
                content, filename, content_type = render_export(
                    exporter_slug, obj, fmt, progress, base_url=base_url
                )
            (folder / "result").write_bytes(content)
            status.update(
                state="done",
                done=max(status["done"], status["total"], 1),
                total=max(status["total"], 1),
                filename=filename,
                content_type=content_type,
                size=len(content),
            )
        except Exception as error:
            log.exception("export job %s (%s %s) failed", job_id, exporter_slug, fmt)
            status.update(state="failed", error=type(error).__name__)
        finally:
            _write_status(folder, status)
            if not sync:
                connections.close_all()

    if sync:
        run()
    else:
        threading.Thread(target=run, name=f"export-{job_id[:8]}", daemon=True).start()
    return job_id
