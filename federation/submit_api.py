"""POST /api/federation/v1/submissions: an event from another installation, sent with a
club token (the live results' token: `live.tokens`; one kind of token for both).

Body: {"origin": <installation key>, "event": <its id there>, "archive": <the event
archive>} or, for an event this server holds as a live copy, {"origin", "event",
"live": true} without the archive. Checks, cheapest first, before anything is stored, as
the live endpoint does (`live.api`): the declared size (413), the token (401 unknown or
revoked), the rate per token (429), the body's size and JSON limits (the archive import's
`common.limits.load_json`: 413 / 400), the fields (400), the archive's club (403 another
club's), the archive's own checks (400), the token's event (403). Every refusal is
{"error": German text, "code": …}; the answer is {"state", "message", "submission",
"event", "open"}. Plain Django JSON: the body must reach the limited reader unparsed.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from common import limits
from common.safety import MAX_ID
from live import tokens
from live.api import ORIGIN, Refusal
from live.models import LiveToken
from live.server_services import moment
from scoring.archive.jobs import _check_outline
from scoring.archive.validate import ArchiveError

from . import submissions
from .models import PlayerMatch, Submission

logger = logging.getLogger(__name__)

TOKEN = "token"
INVALID = "invalid"
TOO_LARGE = "too_large"
RATE = "rate"
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


def _rate_limit(token: LiveToken) -> None:
    """A few submissions a minute per token: each one may be a 20 MB archive."""
    per_minute = getattr(settings, "FEDERATION_SUBMISSIONS_PER_MINUTE", 10)
    retry_after = tokens.over_rate(token, "submit", per_minute)
    if retry_after is not None:
        raise Refusal(
            429,
            _("Too many submissions with this token: at most %(max)d a minute.")
            % {"max": per_minute},
            RATE,
            retry_after=retry_after,
        )


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
        data = limits.load_json(content)
    except limits.LimitExceeded as err:
        raise _invalid(str(err)) from None
    except (ValueError, RecursionError):  # not JSON, not UTF-8
        raise _invalid(_("The submission is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise _invalid(_("The submission must be a JSON object."))
    return data


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


def _body(submission: Submission) -> dict:
    open_rows = submission.matches.filter(state=PlayerMatch.State.OPEN).count()
    return {
        "state": submission.state,
        "message": submission.message,
        "submission": submission.pk,
        "event": submission.event_id,
        "open": open_rows,
    }


def _receive(request) -> JsonResponse:
    token = _authenticate(request)
    _rate_limit(token)
    origin, event, archive = read_submission(_read_body(request))
    tokens.touch(token)
    try:
        if archive is None:
            submission = submissions.receive_live(
                token, token.club, origin=origin, origin_event=event
            )
        else:
            try:
                plans = submissions.check_archive(archive, token.club)
            except ArchiveError as err:
                raise _invalid(err.message, "$.archive" + err.path[1:]) from None
            submission = submissions.receive(
                token, token.club, archive, origin=origin, origin_event=event, plans=plans
            )
    except PermissionDenied as err:
        raise Refusal(403, str(err), TOKEN) from None
    except ValidationError as err:
        raise _invalid("; ".join(err.messages)) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        # Content the checks did not expect: refused like bad content, nothing stored.
        logger.warning("federation: submission refused: %r", err, exc_info=True)
        raise _invalid(_("The archive could not be read.")) from None
    status = 202 if submission.state == Submission.State.MATCHING else 200
    return _answer(_body(submission), status=status)


@csrf_exempt
@never_cache
def submissions_endpoint(request):
    """POST /api/federation/v1/submissions (module docstring)."""
    with translation.override("de"):
        if request.method != "POST":
            response = _answer(
                {"error": _("Send submissions with POST."), "code": INVALID}, status=405
            )
            response["Allow"] = "POST"
            return response
        try:
            return _receive(request)
        except Refusal as refusal:
            return refusal.response()
