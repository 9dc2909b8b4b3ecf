"""The server's live endpoint (protocol: ``live.shared.protocol``): a laptop's batches in, the
number of the last change held out.

Plain Django JSON views, not django-ninja: the body must be read by the archive import's own
limited reader (``common.limits.load_json``: size, depth, list length, digits, string
length, control characters) before anything builds it, and every refusal has the protocol's
shape ({"error": German text, "code": …}); the parts are archive fragments that the apply
checks against the archive's own schema. A typed layer would have parsed the body first.

Checks, cheapest first, before anything is stored: the declared size (413), the token
(401 unknown or revoked), the rate per token (429), the body's size and JSON limits (413 /
400), the batch's shape and protocol version (400), the token's scope (403 another club's
or another event), then under the received event's row lock the owner (409 taken_over) and
the numbers (200 unchanged for a batch already held, 409 gap). The apply runs in the same
transaction; a refusal of its content (``live.server.apply.ApplyError``) rolls it all back.
"""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import JsonResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from common.limits import LimitExceeded, load_json
from common.safety import MAX_ID
from live.models import LiveToken, ReceivedEvent
from live.server import handback, tokens
from live.server.services import applying_live, moment, taken_over_message
from live.shared import protocol

logger = logging.getLogger(__name__)

ORIGIN = re.compile(r"[A-Za-z0-9_-]{1,32}")
RATE_LIMITED = "rate"
TOO_LARGE = "too_large"
PROTOCOL_CODE = "protocol"
MAX_PARTS = 100_000


class Refusal(Exception):
    def __init__(self, status: int, message: str, code: str, **extra):
        super().__init__(message)
        self.status, self.message, self.code, self.extra = status, message, code, extra

    def response(self) -> JsonResponse:
        body = {"error": self.message, "code": self.code, **self.extra}
        response = JsonResponse(body, status=self.status, json_dumps_params={"ensure_ascii": False})
        if "retry_after" in self.extra:
            response["Retry-After"] = str(self.extra["retry_after"])
        return response


def apply_module():
    """L3's apply (``live.server.apply``): create_event, apply_batch, ApplyError."""
    from live.server import apply

    return apply


def _answer(body: dict, status: int = 200) -> JsonResponse:
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


def _invalid(message: str, path: str = "$") -> Refusal:
    return Refusal(400, message, protocol.INVALID, path=path)


# ----- the token and its rate ------------------------------------------------------------


def _authenticate(request) -> LiveToken:
    token = tokens.find_token(tokens.bearer(request))
    if token is None:
        raise Refusal(401, _("The live token is unknown to this server."), protocol.TOKEN)
    if token.revoked_at is not None:
        raise Refusal(
            401,
            _("The live token was revoked on %(when)s; ask the club's organiser for a new one.")
            % {"when": moment(token.revoked_at)},
            protocol.TOKEN,
        )
    return token


def _rate_limit(token: LiveToken) -> None:
    per_minute = getattr(settings, "LIVE_BATCHES_PER_MINUTE", 120)
    retry_after = tokens.over_rate(token, "live", per_minute)
    if retry_after is not None:
        raise Refusal(
            429,
            _("Too many requests with this token: at most %(max)d a minute.") % {"max": per_minute},
            RATE_LIMITED,
            retry_after=retry_after,
        )


# ----- the body ----------------------------------------------------------------------------


def _read_body(request) -> dict:
    maximum = protocol.MAX_BATCH_BYTES
    too_large = Refusal(
        413,
        _("The batch is larger than %(max)d MB; send it in smaller batches.")
        % {"max": maximum // (1024 * 1024)},
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
        data = load_json(content)
    except LimitExceeded as err:
        raise _invalid(str(err)) from None
    except (ValueError, RecursionError):  # not JSON, not UTF-8
        raise _invalid(_("The batch is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise _invalid(_("The batch must be a JSON object."))
    return data


def _whole(data: dict, name: str, minimum: int = 0) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_ID:
        raise _invalid(
            _("“%(name)s” must be a whole number of at least %(min)d.")
            % {"name": name, "min": minimum},
            f"$.{name}",
        )
    return value


def _origin(value) -> str:
    if not isinstance(value, str) or not ORIGIN.fullmatch(value):
        raise _invalid(_("“origin” must name the sending installation."), "$.origin")
    return value


def _check_protocol(data: dict) -> None:
    if data.get("protocol") != protocol.PROTOCOL:
        raise Refusal(
            400,
            _("This is not a batch of live results (“protocol” must be “%(name)s”).")
            % {"name": protocol.PROTOCOL},
            PROTOCOL_CODE,
            path="$.protocol",
        )
    if data.get("version") != protocol.VERSION:
        raise Refusal(
            400,
            _("The laptop speaks another version of the live protocol; this server reads %(v)d.")
            % {"v": protocol.VERSION},
            PROTOCOL_CODE,
            path="$.version",
        )


def _check_keys(items, path: str, *, parts: bool) -> None:
    if not isinstance(items, list) or len(items) > MAX_PARTS:
        raise _invalid(_("“%(name)s” must be a list.") % {"name": path[2:]}, path)
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        if parts:
            if not isinstance(item, dict) or set(item) != {"key", "data"}:
                raise _invalid(_("A part is an object with “key” and “data”."), where)
            key, where = item["key"], f"{where}.key"
        else:
            key = item
        try:
            protocol.parse_key(key)
        except ValueError:
            raise _invalid(
                _("“%(key)s” is not a part of an event.") % {"key": str(key)[:40]}, where
            ) from None


def read_batch(data: dict) -> dict:
    """The batch's fields checked (types, ranges, part keys); raises Refusal."""
    _check_protocol(data)
    known = {"protocol", "version", "origin", "event", "from_seq", "to_seq", "final", "parts"}
    extra = sorted(set(data) - known - {"removed"})
    if extra:
        raise _invalid(
            _("Fields that a batch does not have: %(names)s") % {"names": ", ".join(extra)[:80]}
        )
    _origin(data.get("origin"))
    _whole(data, "event", 1)
    from_seq, to_seq = _whole(data, "from_seq", 1), _whole(data, "to_seq", 1)
    if to_seq < from_seq:
        raise _invalid(_("“to_seq” must not be smaller than “from_seq”."), "$.to_seq")
    if not isinstance(data.get("final"), bool):
        raise _invalid(_("“final” must be true or false."), "$.final")
    data.setdefault("removed", [])
    _check_keys(data.get("parts"), "$.parts", parts=True)
    _check_keys(data["removed"], "$.removed", parts=False)
    return data


# ----- the scope and the numbers -----------------------------------------------------------


def _check_scope(token: LiveToken, received: ReceivedEvent | None) -> None:
    """403 unless the token may write this received event (or create a new one)."""
    if received is None:
        if token.event_id is not None:
            raise Refusal(
                403,
                _("This token writes only the event “%(event)s”, not another one.")
                % {"event": token.event.name},
                protocol.TOKEN,
            )
        return
    if received.event.club_id != token.club_id:
        raise Refusal(
            403, _("This event belongs to another club than the token's."), protocol.TOKEN
        )
    if token.event_id is not None and token.event_id != received.event_id:
        raise Refusal(
            403,
            _("This token writes only the event “%(event)s”, not another one.")
            % {"event": token.event.name},
            protocol.TOKEN,
        )


def _taken_over(received: ReceivedEvent) -> Refusal:
    by = received.taken_over_by
    return Refusal(
        409,
        taken_over_message(received),
        protocol.TAKEN_OVER,
        taken_over_at=received.taken_over_at.isoformat() if received.taken_over_at else None,
        by=(by.get_full_name() or by.get_username()) if by is not None else "",
    )


def _gap(last_seq: int) -> Refusal:
    return Refusal(
        409,
        _("Changes are missing: this server holds up to change %(n)d; send from %(next)d.")
        % {"n": last_seq, "next": last_seq + 1},
        protocol.GAP,
        last_seq=last_seq,
    )


def _locked(origin: str, event: int) -> ReceivedEvent | None:
    return (
        # Only this row is locked: PostgreSQL refuses FOR UPDATE on a nullable outer join.
        ReceivedEvent.objects.select_for_update(of=("self",))
        .select_related("event", "token", "taken_over_by")
        .filter(origin=origin, origin_event=event)
        .first()
    )


def _create(token: LiveToken, batch: dict) -> ReceivedEvent:
    """The first batch of an event: it must start at 1 and carry the event and roster."""
    if batch["from_seq"] != 1:
        raise _gap(0)
    keys = {part["key"] for part in batch["parts"]}
    if not {protocol.EVENT, protocol.ROSTER} <= keys:
        raise _invalid(
            _("The first batch of an event must carry its parts “event” and “roster”."), "$.parts"
        )
    with applying_live():
        received = apply_module().create_event(token, batch)
    if received.event.club_id != token.club_id:
        raise Refusal(
            403, _("This event belongs to another club than the token's."), protocol.TOKEN
        )
    if token.event_id is None:
        LiveToken.objects.filter(pk=token.pk).update(event=received.event)
        token.event = received.event
    return received


def _apply(token: LiveToken, batch: dict) -> int:
    """Apply the batch under the received event's row lock; the number held after it."""
    received = _locked(batch["origin"], batch["event"])
    if received is None:  # the first push after a hand-back re-binds the event (or None)
        received = handback.claim(token, batch)
    _check_scope(token, received)
    if received is None:
        # The import behind create_event brings in every part of the first batch.
        received = _create(token, batch)
    elif received.owner == ReceivedEvent.Owner.SERVER:
        raise _taken_over(received)
    elif (refused := handback.refusal(token, received)) is not None:
        raise refused
    elif batch["to_seq"] <= received.last_seq:
        return received.last_seq  # a batch already held: nothing changes
    elif batch["from_seq"] > received.last_seq + 1:
        raise _gap(received.last_seq)
    else:
        if received.last_seq == 0:  # maybe the first range after a hand-back
            handback.first_range(received, batch)
        with applying_live():
            apply_module().apply_batch(received, batch)
    now = timezone.now()
    fields = {"last_push_at": now}
    if batch["final"]:
        fields["last_seq"] = max(batch["to_seq"], received.last_seq)
    ReceivedEvent.objects.filter(pk=received.pk).update(**fields)
    return fields.get("last_seq", received.last_seq)


def _content_refusal(err: Exception) -> Refusal:
    message = getattr(err, "message", None) or str(err)
    path = getattr(err, "path", "") or "$"
    if isinstance(err, ValidationError):
        message = "; ".join(err.messages)
    return _invalid(str(message)[:300], str(path)[:200])


def _receive(request) -> JsonResponse:
    token = _authenticate(request)
    _rate_limit(token)
    batch = read_batch(_read_body(request))
    tokens.touch(token)
    apply_error = getattr(apply_module(), "ApplyError", ())
    try:
        with transaction.atomic():
            last_seq = _apply(token, batch)
    except Refusal:
        raise
    except handback.Refused as err:
        raise Refusal(err.status, err.message, err.code) from None
    except apply_error as err:
        raise _content_refusal(err) from None
    except IntegrityError:
        # Two first batches of one event at once: the other made it; send again.
        logger.info("live: concurrent first batch for %s/%s", batch["origin"], batch["event"])
        raise _gap(0) from None
    except PermissionDenied as err:
        raise Refusal(403, str(err), protocol.TOKEN) from None
    except (ValidationError, KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        # Content the apply did not expect: refused like bad content, nothing stored.
        logger.warning("live: batch refused: %r", err, exc_info=True)
        raise _content_refusal(err) from None
    return _answer({"last_seq": last_seq})


@csrf_exempt
@never_cache
def batches(request):
    """POST /api/live/v1/batches: one batch of a laptop's changes (live.shared.protocol)."""
    with translation.override("de"):
        if request.method != "POST":
            response = _answer(
                {"error": _("Send batches with POST."), "code": PROTOCOL_CODE}, status=405
            )
            response["Allow"] = "POST"
            return response
        try:
            return _receive(request)
        except Refusal as refusal:
            return refusal.response()


@csrf_exempt
@never_cache
def status(request):
    """GET /api/live/v1/status?origin=…&event=…: the number of the last change held."""
    with translation.override("de"):
        if request.method not in ("GET", "HEAD"):
            response = _answer(
                {"error": _("Ask for the state with GET."), "code": PROTOCOL_CODE}, status=405
            )
            response["Allow"] = "GET, HEAD"
            return response
        try:
            token = _authenticate(request)
            _rate_limit(token)
            query = {"origin": request.GET.get("origin"), "event": request.GET.get("event", "")}
            origin = _origin(query["origin"])
            text = query["event"]
            if not text.isdigit() or len(text) > 18 or int(text) < 1:
                raise _invalid(_("“event” must be the event's number on the laptop."), "$.event")
            received = (
                ReceivedEvent.objects.select_related("event", "taken_over_by")
                .filter(origin=origin, origin_event=int(text))
                .first()
            )
            if received is None and handback.accepts(token):
                tokens.touch(token)  # a hand-back's token before its first push
                return _answer({"last_seq": 0, "owner": None})
            _check_scope(token, received)
            refused = handback.refusal(token, received) if received is not None else None
            tokens.touch(token)
        except Refusal as refusal:
            return refusal.response()
        if received is None:
            return _answer({"last_seq": 0, "owner": None})
        body = {"last_seq": received.last_seq, "owner": received.owner}
        if received.owner == ReceivedEvent.Owner.SERVER:
            body["taken_over"] = taken_over_message(received)
        elif refused is not None:
            body.update(owner=ReceivedEvent.Owner.SERVER, taken_over=refused.message)
        return _answer(body)
