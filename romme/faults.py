"""Faults a server meets answer 503 with a German page, never the generic 500.

Database unavailable (PostgreSQL restarting, connection lost), disk full and a read-only
database or folder are not bugs: the request can be sent again once the fault is gone. The
page says what happened and that entries typed into the score-sheet grid are kept in the
browser (the grid keeps an unsaved draft; see static/js/sheet.js).

Three hooks catch them: `ServiceUnavailableMiddleware.process_exception` for exceptions of
a view (with DEBUG on as well: the club laptop runs `make run`), `SessionMiddleware` for
saving the session after the view (Django would answer 400, see there), and `server_error`
(handler500) for exceptions in any other middleware.
"""

from __future__ import annotations

import errno
import logging
import os
import sys
from pathlib import Path

from django import db
from django.contrib.sessions import middleware as sessions
from django.contrib.sessions.exceptions import SessionInterrupted
from django.http import HttpResponse, HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext_lazy

log = logging.getLogger(__name__)

DATABASE_UNAVAILABLE = "database"
DISK_FULL = "disk_full"
READ_ONLY = "read_only"

RETRY_AFTER_SECONDS = 30

# SQLSTATEs: read-only transaction, disk full, out of memory, too many connections,
# cannot connect now (starting up / shutting down), admin shutdown, crash shutdown.
_PG_READ_ONLY = {"25006"}
_PG_DISK_FULL = {"53100"}
_PG_UNAVAILABLE = {"53300", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"}

_SQLITE_MESSAGES = (
    ("database or disk is full", DISK_FULL),
    ("readonly database", READ_ONLY),
    ("read-only", READ_ONLY),
    ("database is locked", DATABASE_UNAVAILABLE),
)
# SQLite does not always name the file system's fault: when it cannot create a journal or the
# WAL index (-shm) on a full or read-only disk it says only this (python -m bench faults, WAL mode).
# The database's folder tells which it is.
_SQLITE_FILE_MESSAGES = ("unable to open database", "disk i/o error")
_FULL_BELOW_BYTES = 1 << 20  # a journal needs room for a few pages at least


def _chain(exc: BaseException | None):
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def _sqlstate(exc: BaseException) -> str | None:
    return getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None)


def _sqlite_folder() -> Path | None:
    """The folder of the SQLite database file (None on PostgreSQL)."""
    settings = db.connection.settings_dict
    if db.connection.vendor != "sqlite" or not str(settings.get("NAME") or "").strip():
        return None
    return Path(settings["NAME"]).parent


def _folder_fault() -> str | None:
    """READ_ONLY or DISK_FULL when the database's folder is read-only or (nearly) full."""
    folder = _sqlite_folder()
    if folder is None:
        return None
    try:
        stat = os.statvfs(folder)
    except OSError:
        return None
    if stat.f_flag & os.ST_RDONLY:
        return READ_ONLY
    if stat.f_bavail * stat.f_frsize < _FULL_BELOW_BYTES:
        return DISK_FULL
    return None


def classify(exc: BaseException | None) -> str | None:
    """DATABASE_UNAVAILABLE, DISK_FULL, READ_ONLY, or None for any other exception."""
    for error in _chain(exc):
        state = _sqlstate(error)
        if state in _PG_READ_ONLY:
            return READ_ONLY
        if state in _PG_DISK_FULL:
            return DISK_FULL
        if isinstance(error, OSError) and not isinstance(error, ConnectionError):
            if error.errno == errno.ENOSPC or error.errno == errno.EDQUOT:
                return DISK_FULL
            if error.errno == errno.EROFS:
                return READ_ONLY
        message = str(error).lower()
        if isinstance(error, db.OperationalError | db.InternalError):
            for text, kind in _SQLITE_MESSAGES:
                if text in message:
                    return kind
            if any(text in message for text in _SQLITE_FILE_MESSAGES):
                return _folder_fault() or DATABASE_UNAVAILABLE
        if "read-only transaction" in message:
            return READ_ONLY
    for error in _chain(exc):
        if (state := _sqlstate(error)) and state in _PG_UNAVAILABLE:
            return DATABASE_UNAVAILABLE
        if isinstance(error, db.OperationalError | db.InterfaceError):
            return DATABASE_UNAVAILABLE
    return None


# What a script shows of a 503 (the phone at the table: static/js/table.js), in German and
# in English, like the page: translations need no database or session to answer. The
# script keeps the entry and sends it again (the page says the same).
_JSON_MESSAGES = {
    DISK_FULL: gettext_lazy("The server's disk is full. Please tell the tournament director."),
    READ_ONLY: gettext_lazy(
        "The database is read-only at the moment. Please tell the tournament director."
    ),
    DATABASE_UNAVAILABLE: gettext_lazy("The database cannot be reached at the moment."),
}
_JSON_KEPT = gettext_lazy("Nothing is lost: the entry stays on this device and is sent again.")


def fault_json(kind: str) -> dict:
    """The JSON body of a 503: the fault and what to show, in German and in English."""
    text = _JSON_MESSAGES.get(kind, _JSON_MESSAGES[DATABASE_UNAVAILABLE])

    def said(language: str) -> str:
        with translation.override(language):
            return f"{text} {_JSON_KEPT}"

    return {
        "error": "service_unavailable",
        "fault": kind,
        "message": said("de"),
        "message_en": said("en"),
    }


def fault_response(request, kind: str) -> HttpResponse:
    """The 503 answer: the German page, or JSON for a script that asked for JSON."""
    accept = request.headers.get("Accept", "") if request is not None else ""
    if "application/json" in accept and "text/html" not in accept:
        response = JsonResponse(fault_json(kind), status=503)
    else:
        html = loader.render_to_string("503.html", {"fault": kind})
        response = HttpResponse(html, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class ServiceUnavailableMiddleware:
    """Turns a fault of the database or the disk raised by a view into a 503."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        kind = classify(exception)
        if kind is None:
            return None
        _log(request, kind, exception)
        return fault_response(request, kind)


class SessionMiddleware(sessions.SessionMiddleware):
    """Django's, except that a fault while saving the session answers the 503 page.

    Django's database session store turns any database error of an update into UpdateError
    and its middleware that into SessionInterrupted: a 400 "Bad request" (with DEBUG on, the
    debug page). python -m bench faults met it for real: PostgreSQL restarted after a sheet save's
    commit, before its answer (the save stores a note in the session). A page whose only
    write is the session (the sheet page dropping that note, a phone naming its seat) met
    it on a full or read-only disk too. The sheet's resend is then answered as saved
    (scoring.sheets.services), so "save again" on the 503 page is right either way.
    """

    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        except (SessionInterrupted, db.DatabaseError) as error:
            kind = classify(error)
            if kind is None:
                raise
            _log(request, kind, error)
            return fault_response(request, kind)


def _log(request, kind: str, exception: BaseException) -> None:
    log.error(
        "503 (%s) for %s %s",
        kind,
        request.method,
        request.path,
        exc_info=(type(exception), exception, exception.__traceback__),
    )


def server_error(request, *args, **kwargs):
    """handler500: a fault of the database or the disk still gets the 503 page."""
    kind = classify(sys.exc_info()[1])
    if kind is not None:
        return fault_response(request, kind)
    try:
        template = loader.get_template("500.html")
    except Exception:
        return HttpResponseServerError("<h1>Server Error (500)</h1>", content_type="text/html")
    return HttpResponseServerError(template.render())
