"""Giving an event back to a laptop (issue 28, item 4; docs/live.md "Hand-back").

A director took the event over on the server (``ReceivedEvent.owner == "server"``). To run
it in the hall again, :func:`hand_back` makes a token bound to the event (shown once) and
the director downloads the event archive; from then the server's copy is read-only again
(the owner is "laptop", and the owner's guard names the hand-back). On the laptop the
director imports the archive and pairs the imported event with the server and that token.
Its first push (:func:`claim`, called by ``live.server.api`` when no received event matches the
batch) re-binds the received event to the new laptop: its installation and event id, the
numbers from 1 again, the laptop's participant ids matched by player number; the push is
then laid over the server's copy with every part (:func:`first_range` removes what the
laptop no longer has). The old laptop's pushes stay refused (:func:`refusal`).
:func:`cancel` revokes the token and gives the server the event back.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, has_role, require_role
from common.history import history_user, save_with_history
from live.models import HandBack, LiveToken, ReceivedEvent
from live.server import tokens
from live.server.services import handed_back_message, moment, waiting_handback
from live.shared import protocol
from live.shared.parts import event_parts
from tournaments.models import Participant
from tournaments.results import bump_results_version

# The history's reason column holds 100 characters.
MAX_REASON_CHARS = 100
# Refs of participants only this server has: far above any laptop's ids, still an exact
# number in every JSON reader.
APART = 2**52


class Refused(Exception):
    """A push the hand-back refuses; ``live.server.api`` answers it in the protocol's shape."""

    def __init__(self, status: int, message: str, code: str):
        super().__init__(message)
        self.status, self.message, self.code = status, message, code


def can_hand_back(user, received: ReceivedEvent) -> bool:
    return received.owner == ReceivedEvent.Owner.SERVER and has_role(
        user, received.event.club_id, ORGANISER
    )


def _reason(text: str, example: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ValidationError(_("Give a reason (e.g. “%(example)s”).") % {"example": example})
    if len(text) > MAX_REASON_CHARS:
        raise ValidationError(
            _("The reason is longer than %(max)d characters.") % {"max": MAX_REASON_CHARS}
        )
    return text


def _locked(received: ReceivedEvent) -> ReceivedEvent:
    return (
        ReceivedEvent.objects.select_for_update(of=("self",))
        .select_related("event__club")
        .get(pk=received.pk)
    )


@transaction.atomic
def hand_back(actor, received: ReceivedEvent, reason: str, label: str = ""):
    """The director gives the event (held by this server) back to a laptop: a token bound
    to it (the secret is returned, never stored) and the server's copy read-only until the
    laptop's first push. Returns (HandBack, secret). Audited with the reason."""
    received = _locked(received)
    require_role(actor, received.event.club, ORGANISER)
    reason = _reason(reason, _("the hall's network works again"))
    if received.owner != ReceivedEvent.Owner.SERVER:
        waiting = waiting_handback(received)
        if waiting is not None:
            raise ValidationError(handed_back_message(waiting))
        raise ValidationError(
            _("Only an event this server holds (taken over) can be given back to a laptop.")
        )
    label = (label or "").strip()[:100]
    label = label or _("Hand-back %(when)s") % {"when": moment(timezone.now())}
    token, secret = tokens.issue_token(
        received.event.club, event=received.event, label=label, created_by=actor
    )
    handback = HandBack(
        received=received,
        token=token,
        reason=reason,
        created_by=history_user(actor),
        from_origin=received.origin,
        from_origin_event=received.origin_event,
    )
    save_with_history(handback, actor, reason, clean=False)
    # The public pages follow the new version; bumped while the server still owns the
    # event (the owner's guard refuses every write, this one too, once the laptop does).
    bump_results_version(received.event_id)
    received.owner = ReceivedEvent.Owner.LAPTOP
    save_with_history(received, actor, reason, clean=False)
    return handback, secret


@transaction.atomic
def cancel(actor, received: ReceivedEvent, reason: str) -> HandBack:
    """The director cancels a hand-back no laptop has answered yet: its token is revoked
    and the server holds the event again."""
    received = _locked(received)
    require_role(actor, received.event.club, ORGANISER)
    reason = _reason(reason, _("the laptop does not start"))
    handback = waiting_handback(received)
    if handback is None:
        raise ValidationError(_("No hand-back of this event waits for a laptop."))
    tokens.revoke_token(actor, handback.token, reason)
    handback.state = HandBack.State.CANCELLED
    handback.cancelled_at = timezone.now()
    handback.cancelled_by = history_user(actor)
    save_with_history(handback, actor, reason, clean=False)
    received.owner = ReceivedEvent.Owner.SERVER
    save_with_history(received, actor, reason, clean=False)
    bump_results_version(received.event_id)
    return handback


# ----- the pushes (inside live.server.api's transaction) ----------------------------------


def _given_away(origin: str, origin_event: int) -> HandBack | None:
    return (
        HandBack.objects.select_related("created_by")
        .filter(from_origin=origin, from_origin_event=origin_event)
        .exclude(state=HandBack.State.CANCELLED)
        .order_by("-created_at")
        .first()
    )


def _gone_message(handback: HandBack) -> str:
    by = handback.created_by
    return _(
        "Handed back on %(when)s by %(who)s to another laptop: this copy of the event no "
        "longer sends. Import the server's event archive to go on."
    ) % {
        "when": moment(handback.created_at),
        "who": (by.get_full_name() or by.get_username()) if by is not None else "–",
    }


def _same_event(received: ReceivedEvent, data) -> bool:
    """Whether the laptop's "event" part is the archive of this event: the same club and
    the same creation time (the archive import keeps it), whatever its name now."""
    if not isinstance(data, dict) or not isinstance(data.get("club"), dict):
        return False
    created = data.get("created_at")
    created = parse_datetime(created) if isinstance(created, str) else None
    event = received.event
    return data["club"].get("short_name") == event.club.short_name and created == event.created_at


def _participant_refs(received: ReceivedEvent, roster) -> dict[str, int]:
    """The new laptop's participant ids -> this server's, matched by player number (one
    participant per player and event); a participant here the laptop no longer has gets a
    ref of its own (above any laptop's id), so the apply removes it."""
    numbers = {}
    if isinstance(roster, dict) and isinstance(roster.get("participants"), list):
        for item in roster["participants"]:
            if isinstance(item, dict) and isinstance(item.get("ref"), int):
                numbers[str(item.get("player_number"))] = item["ref"]
    mapping = {}
    here = Participant.objects.filter(event_id=received.event_id).values_list(
        "pk", "player__player_number"
    )
    for pk, number in here:
        ref = numbers.get(number)
        mapping[str(ref if ref is not None else APART + pk)] = pk
    return mapping


def claim(token: LiveToken, batch: dict) -> ReceivedEvent | None:
    """The first push of a laptop after a hand-back with this token: the received event
    re-bound to the laptop (locked), or None when the token has no hand-back waiting.
    Raises Refused for a copy given away earlier, or another event than the one given back."""
    handback = (
        HandBack.objects.select_for_update(of=("self",))
        .filter(token=token, state=HandBack.State.PENDING)
        .first()
    )
    earlier = _given_away(batch["origin"], batch["event"])
    if handback is None:
        if earlier is not None:
            raise Refused(409, _gone_message(earlier), protocol.TAKEN_OVER)
        return None
    received = (
        ReceivedEvent.objects.select_for_update(of=("self",))
        .select_related("event__club", "token", "taken_over_by")
        .get(pk=handback.received_id)
    )
    parts = {p["key"]: p["data"] for p in batch["parts"]}
    if earlier is not None or not _same_event(received, parts.get(protocol.EVENT)):
        raise Refused(
            403,
            _(
                "This token gives back the event “%(event)s”, but the laptop sends another "
                "one. Import this server's event archive of it on the laptop and publish "
                "the imported event."
            )
            % {"event": received.event.name},
            protocol.TOKEN,
        )
    if batch["from_seq"] != 1:
        raise Refused(
            409,
            _("Changes are missing: this server holds up to change %(n)d; send from %(next)d.")
            % {"n": 0, "next": 1},
            protocol.GAP,
        )
    actor = token.created_by
    why = _("Handed back to a laptop: its first push arrived")
    refs = dict(received.refs or {})
    # Without the roster in this batch (a large first push), :func:`first_range` maps the
    # participants when it comes; until then every one here has a ref of its own.
    refs["participant"] = _participant_refs(received, parts.get(protocol.ROSTER))
    received.origin, received.origin_event = batch["origin"], batch["event"]
    received.token, received.refs, received.last_seq = token, refs, 0
    received.taken_over_at = received.taken_over_by = None
    save_with_history(received, actor, why, clean=False)
    handback.state = HandBack.State.DONE
    handback.completed_at = timezone.now()
    handback.to_origin, handback.to_origin_event = batch["origin"], batch["event"]
    handback.receiving_keys = []
    save_with_history(handback, actor, why, clean=False)
    return received


def first_range(received: ReceivedEvent, batch: dict) -> None:
    """Before a batch of the first range after a hand-back is applied: match the laptop's
    participants when it brings the roster, note its parts, and with the range's last
    batch remove what the server holds beyond them (the laptop sent every part it has).
    Other batches cost one query."""
    handback = (
        HandBack.objects.filter(
            received=received, state=HandBack.State.DONE, receiving_keys__isnull=False
        )
        .order_by("-created_at")
        .first()
    )
    if handback is None:
        return
    roster = next((p["data"] for p in batch["parts"] if p["key"] == protocol.ROSTER), None)
    if roster is not None:  # the participants matched again (the same, or now at last)
        refs = dict(received.refs or {})
        refs["participant"] = _participant_refs(received, roster)
        ReceivedEvent.objects.filter(pk=received.pk).update(refs=refs)
        received.refs = refs
    keys = set(handback.receiving_keys) | {p["key"] for p in batch["parts"]}
    if batch["final"]:
        extra = set(event_parts(received.event)) - keys - {protocol.EVENT, protocol.ROSTER}
        batch["removed"] = sorted(set(batch["removed"]) | extra)
        HandBack.objects.filter(pk=handback.pk).update(receiving_keys=None)
    else:
        HandBack.objects.filter(pk=handback.pk).update(receiving_keys=sorted(keys))


def refusal(token: LiveToken, received: ReceivedEvent) -> Refused | None:
    """Why a push to a received event the laptop owns is refused after a hand-back: the
    hand-back waits (the old laptop; or its token on the old copy), or the token was made
    before the event was given to another laptop. None: go on."""
    handback = (
        HandBack.objects.select_related("created_by")
        .filter(received=received)
        .exclude(state=HandBack.State.CANCELLED)
        .order_by("-created_at")
        .first()
    )
    if handback is None:
        return None
    if handback.state == HandBack.State.PENDING:
        if handback.token_id == token.pk:
            return Refused(
                403,
                _(
                    "This copy of the event was taken over on the server. Import the "
                    "server's event archive on the laptop and publish the imported event "
                    "with this token."
                ),
                protocol.TOKEN,
            )
        return Refused(409, handed_back_message(handback), protocol.TAKEN_OVER)
    if token.pk != handback.token_id and token.created_at < handback.created_at:
        return Refused(409, _gone_message(handback), protocol.TAKEN_OVER)
    return None


def accepts(token: LiveToken) -> bool:
    """Whether the token waits for its first push after a hand-back (the laptop's
    "test the connection" asks before it has sent anything)."""
    return HandBack.objects.filter(token=token, state=HandBack.State.PENDING).exists()
