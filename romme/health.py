"""`/healthz`: one JSON answer for a monitor (no login, no personal data).

    {"status": "ok", "version": "1.0.0",
     "checks": {"database": {...}, "cache": {...}, "disk": {...}, "jobs": {...}}}

`version` is the app's (common.version). 200 if every check is ok, 503 if one fails.
Checks: the database answers `SELECT 1` and is writable (not a read-only transaction or
file), the cache stores and returns a value, the folders the app writes to (database file,
media, the temporary folder the PDF and upload code spill into) have at least
HEALTH_MIN_FREE_MB free, and the task queue is served: no task has waited longer than ten
minutes (else no worker runs, `manage.py db_worker`). Folder names and errors are reported
by kind only: no paths, no settings, no user data.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Min
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.version import __version__

DEFAULT_MIN_FREE_MB = 200


def _timed(check):
    started = time.perf_counter()
    try:
        result = check()
    except Exception as error:  # a monitor wants the kind of fault, not a 500
        result = {"ok": False, "error": type(error).__name__}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
        read_only = False
        if connection.vendor == "postgresql":
            cursor.execute("SHOW transaction_read_only")
            read_only = cursor.fetchone()[0] == "on"
        elif connection.vendor == "sqlite":
            name = str(connection.settings_dict["NAME"])
            if not name.startswith(("file:", ":memory:")) and os.path.exists(name):
                read_only = not os.access(name, os.W_OK) or not os.access(
                    os.path.dirname(os.path.abspath(name)), os.W_OK
                )
    result = {"ok": not read_only, "vendor": connection.vendor}
    if read_only:
        result["error"] = "read_only"
    return result


def check_cache() -> dict:
    key = f"healthz:{secrets.token_hex(8)}"
    cache.set(key, "1", 10)
    ok = cache.get(key) == "1"
    cache.delete(key)
    backend = settings.CACHES.get("default", {}).get("BACKEND", "").rsplit(".", 1)[-1]
    return {"ok": ok, "backend": backend}


def _folders() -> dict[str, Path]:
    folders = {"temp": Path(tempfile.gettempdir())}
    db_name = str(connection.settings_dict.get("NAME") or "")
    if connection.vendor == "sqlite" and not db_name.startswith(("file:", ":memory:")):
        folders["database"] = Path(db_name).resolve().parent
    media = getattr(settings, "MEDIA_ROOT", "")
    if media and Path(media).is_dir():
        folders["media"] = Path(media)
    return folders


def check_disk() -> dict:
    minimum = int(getattr(settings, "HEALTH_MIN_FREE_MB", DEFAULT_MIN_FREE_MB))
    folders = {}
    for label, folder in _folders().items():
        free_mb = shutil.disk_usage(folder).free // (1024 * 1024)
        folders[label] = {"free_mb": free_mb, "ok": free_mb >= minimum}
    return {"ok": all(f["ok"] for f in folders.values()), "min_free_mb": minimum, **folders}


def check_jobs() -> dict:
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from scoring.exports.jobs import STALE

    waiting = DBTaskResult.objects.filter(status=TaskResultStatus.READY).aggregate(
        count=Count("id"), oldest=Min("enqueued_at")
    )
    age = (timezone.now() - waiting["oldest"]).total_seconds() if waiting["oldest"] else 0
    result = {"ok": age < STALE.total_seconds(), "waiting": waiting["count"]}
    result["oldest_waiting_s"] = round(age)
    if not result["ok"]:
        result["error"] = "no_worker"
    return result


CHECKS = {
    "database": check_database,
    "cache": check_cache,
    "disk": check_disk,
    "jobs": check_jobs,
}


@never_cache
@require_GET
def healthz(request):
    checks = {name: _timed(check) for name, check in CHECKS.items()}
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if ok else "fail", "version": __version__, "checks": checks},
        status=200 if ok else 503,
    )
