"""Archive imports as tasks: the upload is checked in the request, a worker imports it.

`queue_import` runs in the request: the upload's limits (`common.limits`: size, depth, list
length, number and text length, control characters) before and while it is parsed, the
document's outer shape, and who may import it (`check_permission`). A file refused there
leaves nothing behind. What passes is stored in an `ArchiveImport` row with the user's
language and enqueued as the task `run_archive_import`; the worker checks the whole
document (schema, then every sheet through the rules) and writes the event in one
transaction (`scoring.archive.load.import_event`). On the large data set (400 players,
10,000 hands, a 15 MB file) the parse took 2.9 s, the checks 10 s and the import 16 s
(`python -m bench archive`): too long for a request.

The row carries the step (1 read, 2 check, 3 write) outside the import's transaction, so
every app server's status poll sees it move; the text is cleared when the task ends.
Rows and finished task results go after an hour, like the other task rows.
"""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from clubs.models import Club
from clubs.permissions import ORGANISER, clubs_with_role, has_role
from common import limits
from scoring.archive.load import import_event, loads
from scoring.archive.validate import (
    FORMAT,
    READABLE_VERSIONS,
    VERSION,
    ArchiveError,
    json_path,
    validate,
)
from scoring.models import JOB_STALE_AFTER, ArchiveImport

State = ArchiveImport.State
PENDING = (State.QUEUED, State.RUNNING)
MAX_AGE = timedelta(hours=1)
IMPORT_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,32}$")
FORBIDDEN = "forbidden"  # ArchiveError.code of a file this user may not import
WARNINGS_KEPT = 200


def may_import(user) -> bool:
    """Who sees the import page: superusers and the organisers of any club."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or clubs_with_role(user, ORGANISER).exists()


def _short_name(data, *path):
    node = data
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, str) and node else None


def check_permission(user, data) -> None:
    """Superusers import any archive. Anyone else must be an organiser of the club the
    archive names (matched by short name, as the import does), and that club and every
    other club the file lists must exist here: an organiser never creates clubs.
    Raises ArchiveError with the code FORBIDDEN and the path of the club concerned."""
    if user.is_superuser:
        return
    path = "$.event.club.short_name"
    short = _short_name(data, "event", "club", "short_name")
    if short is None:
        raise ArchiveError(path, _("the file names no organising club"))
    club = Club.objects.filter(short_name=short).first()
    if club is None:
        raise ArchiveError(
            path,
            _(
                "there is no club with the short name %(club)s here; only an administrator may "
                "import an event whose club does not exist yet"
            )
            % {"club": repr(short)},
            code=FORBIDDEN,
        )
    if not has_role(user, club, ORGANISER):
        raise ArchiveError(
            path,
            _("you need the role “organiser” in the club “%(club)s” to import its events")
            % {"club": club.name},
            code=FORBIDDEN,
        )
    others = data.get("clubs") if isinstance(data, dict) else None
    names = {
        i: _short_name(other, "short_name")
        for i, other in enumerate(others if isinstance(others, list) else [])
    }
    known = set(Club.objects.filter(short_name__in=[n for n in names.values() if n]).values_list(
        "short_name", flat=True
    ))  # fmt: skip
    for i, name in names.items():
        if name and name not in known:
            raise ArchiveError(
                json_path(["clubs", i, "short_name"]),
                _(
                    "there is no club with the short name %(club)s here; only an administrator "
                    "may import an event that would create clubs"
                )
                % {"club": repr(name)},
                code=FORBIDDEN,
            )


def _check_outline(data) -> None:
    """What the request checks of the document itself: an event archive of this version.
    The worker checks the rest (schema, semantics) before anything is written."""
    if not isinstance(data, dict):
        raise ArchiveError("$", _("the file holds no event archive (a JSON object is expected)"))
    if data.get("format") != FORMAT:
        raise ArchiveError(
            "$.format",
            _("%(expected)s was expected; the file is not an event archive")
            % {"expected": repr(FORMAT)},
        )
    if data.get("version") not in READABLE_VERSIONS:
        raise ArchiveError(
            "$.version",
            _("this installation reads version %(version)s of the format") % {"version": VERSION},
        )


def queue_import(
    user, filename: str, content: bytes, *, rename: str = "", check_only: bool = False
) -> ArchiveImport:
    """Check the upload and queue its import; raises ArchiveError (nothing stored) or
    PermissionDenied (the user organises no club)."""
    if not may_import(user):
        raise PermissionDenied(_("You need the role “organiser” in a club to import events."))
    try:
        limits.check_size(len(content), "archive_bytes")
    except limits.LimitExceeded as error:
        raise ArchiveError("$", str(error)) from None
    data = loads(content)
    _check_outline(data)
    check_permission(user, data)
    cleanup_old_imports()
    job = ArchiveImport.objects.create(
        id=secrets.token_urlsafe(18),
        user=user,
        language=translation.get_language() or "de",
        filename=limits.CONTROL_CHARS.sub("", filename or "")[:255],
        size=len(content),
        text=content.decode("utf-8-sig"),
        rename=(rename or "").strip(),
        check_only=check_only,
    )
    result = run_archive_import.enqueue(job.pk)
    ArchiveImport.objects.filter(pk=job.pk).update(task_id=str(result.id))
    return job


def cleanup_old_imports(max_age: timedelta = MAX_AGE) -> int:
    """Delete imports not touched for `max_age` and their finished task results."""
    return ArchiveImport.remove_old(run_archive_import, max_age)


def read_import(import_id: str, user) -> ArchiveImport | None:
    """The user's own import (without its text); a pending one gone quiet reads as failed."""
    if not IMPORT_ID_RE.match(import_id or "") or not user.is_authenticated:
        return None
    job = (
        ArchiveImport.objects.defer("text")
        .select_related("event")
        .filter(pk=import_id, user=user)
        .first()
    )
    if (
        job is not None
        and job.state in PENDING
        and timezone.now() - job.updated_at > JOB_STALE_AFTER
    ):
        job.state, job.error = State.FAILED, _("No background worker answered.")
    return job


def recent_imports(user):
    """The user's imports of the past hour, newest first (the import page lists them)."""
    return (
        ArchiveImport.objects.defer("text")
        .select_related("event")
        .filter(user=user, created_at__gte=timezone.now() - MAX_AGE)
        .order_by("-created_at")[:10]
    )


def _import(job: ArchiveImport, data, plans) -> tuple[dict, int | None]:
    """The import (rolled back for a check only): its summary and the new event's id."""
    result = import_event(
        data, rename=job.rename or None, actor=job.user, plans=plans, check_only=job.check_only
    )
    summary = {
        "event_name": result.event.name,
        "created": result.created,
        "warnings": result.warnings[:WARNINGS_KEPT],
        "warning_count": len(result.warnings),
    }
    return summary, None if job.check_only else result.event.pk


@task()
def run_archive_import(import_id: str) -> dict:
    """Import one uploaded archive (in a worker); returns what was created."""
    rows = ArchiveImport.objects.filter(pk=import_id)
    job = rows.select_related("user").first()
    if job is None:  # deleted while it waited
        return {}

    def step(number: int) -> None:
        rows.update(state=State.RUNNING, step=number, updated_at=timezone.now())

    def failed(message: str, path: str = "") -> dict:
        rows.update(
            state=State.FAILED,
            error=message[:2000],
            error_path=path[:300],
            text="",
            updated_at=timezone.now(),
        )
        return {}

    with translation.override(job.language):
        try:
            step(1)
            data = loads(job.text)
            _check_outline(data)
            check_permission(job.user, data)  # the role may have gone since the upload
            step(2)
            plans = validate(data)
            step(3)
            summary, event_id = _import(job, data, plans)
        except ArchiveError as error:
            return failed(error.message, error.path)
        except (ValidationError, DatabaseError, ValueError, OverflowError) as error:
            # What the checks missed still ends as a message, never a traceback on the page.
            text = "; ".join(error.messages) if isinstance(error, ValidationError) else str(error)
            return failed(_("a value could not be stored: %(error)s") % {"error": text[:500]})
        except Exception as error:
            failed(
                _(
                    "The import stopped in the background worker (%(error)s); nothing was "
                    "imported. Try again or tell an administrator."
                )
                % {"error": type(error).__name__}
            )
            raise  # the task result keeps the traceback for the operator
    rows.update(
        state=State.DONE,
        step=ArchiveImport.STEPS,
        result=summary,
        event_id=event_id,
        text="",
        updated_at=timezone.now(),
    )
    return summary.get("created", {})
