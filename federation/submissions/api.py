"""The submissions endpoint of the federation's installation (issue 27, point 4): an event
from another installation, sent with a club token (the live results' token: `live.server.tokens`;
one kind of token for both).

POST /api/federation/v1/submissions. Body: {"origin": <installation key>, "event": <its id
there>, "archive": <the event archive>} or, for an event this server holds as a live copy,
{"origin", "event", "live": true} without the archive. Checked at once, cheapest first, as
the live endpoint does (`live.server.api`): the declared size (413), the token (401 unknown or
revoked), the rate per token (429), the body's size (413) and JSON with the number limits
(400; the other archive limits of `common.limits` are the worker's: they take 1.5 s for a
15 MB archive), the fields (400), the archive's outline (400), its club (403 another
club's), its other clubs known here (400), the token's event (403). Then the arrival is
stored as "received" and the worker reads it (`federation.submissions.jobs`): 202 with
{"state", "message", "submission", "event", "open", "status_url"}. A live copy is
submitted in the request (no archive to check): 200. Every refusal is {"error": German
text, "code": …, "path"}, and nothing is stored.

GET /api/federation/v1/submissions/<id> with a token of the same club: the same body
(404 for a submission of another club), rate-limited per token like the sending.
Plain Django JSON: the body must reach the limited reader unparsed.
"""

from __future__ import annotations

import codecs

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from common import limits
from common.safety import MAX_ID
from federation.submissions import checks
from federation.submissions import jobs as submit_jobs
from federation.submissions import services as submissions
from federation.submissions.models import PlayerMatch, Submission
from live.models import LiveToken
from live.server import tokens
from live.server.api import ORIGIN, Refusal
from live.server.services import moment
from scoring.archive.jobs import _check_outline
from scoring.archive.validate import ArchiveError

TOKEN = "token"
INVALID = "invalid"
TOO_LARGE = "too_large"
RATE = "rate"
NOT_FOUND = "not_found"
FIELDS = {"origin", "event", "archive", "live"}


def _answer(body: dict, status: int = 200) -> JsonResponse:
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


def _invalid(message: str, path: str = "$") -> Refusal:
    return Refusal(400, str(message)[:500], INVALID, path=str(path)[:200])


def _authenticate(request) -> LiveToken:
    token = tokens.find_token(tokens.bearer(request))
    if token is None:
        raise Refusal(401, _("The club token is unknown to this server."), TOKEN)
    if token.revoked_at is not None:
        raise Refusal(
            401,
            _("The club token was revoked on %(when)s; ask for a new one.")
            % {"when": moment(token.revoked_at)},
            TOKEN,
        )
    return token


def _rate_limit(token: LiveToken, kind: str, per_minute: int, message: str) -> None:
    """At most `per_minute` requests of a kind per token (429 with the German `message`)."""
    retry_after = tokens.over_rate(token, kind, per_minute)
    if retry_after is not None:
        raise Refusal(429, message % {"max": per_minute}, RATE, retry_after=retry_after)


def _read_body(request) -> dict:
    maximum = limits.limit("archive_bytes")
    too_large = Refusal(
        413,
        _("The submission is larger than %(max)d MB.") % {"max": maximum // (1024 * 1024)},
        TOO_LARGE,
    )
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > maximum:
        raise too_large
    content = request.read(maximum + 1)
    if len(content) > maximum:
        raise too_large
    try:
        data = _parse(content)
    except limits.LimitExceeded as err:
        raise _invalid(str(err)) from None
    except RecursionError:
        raise _invalid(
            _("The data are nested deeper than %(max)d levels.")
            % {"max": limits.limit("archive_depth")}
        ) from None
    except ValueError:  # not JSON, not UTF-8
        raise _invalid(_("The submission is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise _invalid(_("The submission must be a JSON object."))
    return data


def _parse(content: bytes):
    """The number limits and storable text now; the worker applies every archive limit."""
    return limits.parse_json_numbers(codecs.decode(content, "utf-8-sig"))


def read_submission(data: dict) -> tuple[str, int, dict | None]:
    """(origin, event, archive or None for a live copy); raises Refusal."""
    extra = sorted(str(name)[:20] for name in set(data) - FIELDS)
    if extra:
        raise _invalid(
            _("Fields that a submission does not have: %(names)s")
            % {"names": ", ".join(extra)[:80]}
        )
    origin = data.get("origin")
    if not isinstance(origin, str) or not ORIGIN.fullmatch(origin):
        raise _invalid(_("“origin” must name the sending installation."), "$.origin")
    event = data.get("event")
    if isinstance(event, bool) or not isinstance(event, int) or not 1 <= event <= MAX_ID:
        raise _invalid(_("“event” must be the event's id on the sending installation."), "$.event")
    live = data.get("live", False)
    if not isinstance(live, bool):
        raise _invalid(_("“live” must be true or false."), "$.live")
    if live:
        if "archive" in data:
            raise _invalid(_("A live copy is submitted without an archive."), "$.archive")
        return origin, event, None
    archive = data.get("archive")
    if archive is None:
        raise _invalid(_("The submission carries no archive."), "$.archive")
    try:
        _check_outline(archive)
    except ArchiveError as err:
        raise _invalid(err.message, "$.archive" + err.path[1:]) from None
    return origin, event, archive


def _body(request, submission: Submission) -> dict:
    open_rows = submission.matches.filter(state=PlayerMatch.State.OPEN).count()
    path = reverse("federation_submit:submission_status", args=[submission.pk])
    return {
        "state": submission.state,
        "message": submission.message,
        "submission": submission.pk,
        "event": submission.event_id,
        "open": open_rows,
        "status_url": request.build_absolute_uri(path),
    }


def _receive(request) -> JsonResponse:
    token = _authenticate(request)
    # A few submissions a minute per token: each one may be a 20 MB archive.
    per_minute = getattr(settings, "FEDERATION_SUBMISSIONS_PER_MINUTE", 10)
    too_many = _("Too many submissions with this token: at most %(max)d a minute.")
    _rate_limit(token, "submit", per_minute, too_many)
    origin, event, archive = read_submission(_read_body(request))
    tokens.touch(token)
    try:
        if archive is None:
            # No archive to check: only the versions are read (0.3 s for 400 players).
            submission = submissions.receive_live(
                token, token.club, origin=origin, origin_event=event
            )
            return _answer(_body(request, submission), status=200)
        try:
            checks.check_sender(token, token.club, archive, origin=origin, origin_event=event)
        except ArchiveError as err:
            raise _invalid(err.message, "$.archive" + err.path[1:]) from None
        submission = submissions.store(
            token, token.club, archive, origin=origin, origin_event=event
        )
    except PermissionDenied as err:
        raise Refusal(403, str(err), TOKEN) from None
    except ValidationError as err:
        raise _invalid("; ".join(err.messages)) from None
    submit_jobs.enqueue(submission)
    # Read again: a worker (or the tests' immediate backend) may be done already.
    submission = Submission.objects.defer("data").get(pk=submission.pk)
    return _answer(_body(request, submission), status=202)


def _status(request, pk: int) -> JsonResponse:
    token = _authenticate(request)
    per_minute = getattr(settings, "FEDERATION_STATUS_PER_MINUTE", 120)
    too_many = _("Too many status requests with this token: at most %(max)d a minute.")
    _rate_limit(token, "submit-status", per_minute, too_many)
    submission = Submission.objects.defer("data").filter(pk=pk, club=token.club_id).first()
    if submission is None:
        raise Refusal(
            404, _("This club has no submission number %(id)d here.") % {"id": pk}, NOT_FOUND
        )
    return _answer(_body(request, submission))


def _refused_method(allowed: str) -> JsonResponse:
    text = _("Send submissions with POST.") if allowed == "POST" else _("Ask with GET.")
    response = _answer({"error": text, "code": INVALID}, status=405)
    response["Allow"] = allowed
    return response


@csrf_exempt
@never_cache
def submissions_endpoint(request):
    """POST /api/federation/v1/submissions (module docstring)."""
    with translation.override("de"):
        if request.method != "POST":
            return _refused_method("POST")
        try:
            return _receive(request)
        except Refusal as refusal:
            return refusal.response()


@csrf_exempt
@never_cache
def submission_status(request, pk: int):
    """GET /api/federation/v1/submissions/<id> (module docstring)."""
    with translation.override("de"):
        if request.method != "GET":
            return _refused_method("GET")
        try:
            return _status(request, pk)
        except Refusal as refusal:
            return refusal.response()
