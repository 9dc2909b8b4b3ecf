"""The server's side of a received event: who owns it, the owner's guard, the hand-over.

While the laptop in the hall owns an event (``ReceivedEvent.owner == "laptop"``), the
server's copy is read-only: :func:`guard` (called by `live.receivers.on_change`) answers
``tournaments.results.results_bumping`` (sent inside every write's transaction) with
``PermissionDenied``, which rolls the write back. The live apply itself writes inside
:func:`applying_live` and passes. A director takes the event over (:func:`take_over`): from
then the server owns it and the laptop's pushes are refused (409 taken_over).
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, has_role, require_role
from common.history import history_user, save_with_history
from live.models import HandBack, ReceivedEvent
from tournaments.results import bump_results_version

_applying = contextvars.ContextVar("live_applying", default=False)
MAX_REASON_CHARS = 100  # the history's change-reason column holds 100


@contextmanager
def applying_live():
    """Writes inside this block are the live apply's own (``live.server.apply``): the owner's
    guard lets them pass. Everything else stays refused while the laptop owns the event."""
    token = _applying.set(True)
    try:
        yield
    finally:
        _applying.reset(token)


def is_applying_live() -> bool:
    return _applying.get()


def clock(value) -> str:
    """14:32 in the server's time zone (no localised number: a time of day)."""
    return timezone.localtime(value).strftime("%H:%M") if value else "–"


def moment(value) -> str:
    """ "12.05.2026 14:32" in the active language's short format."""
    if not value:
        return "–"
    return date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")


def owner_text(received: ReceivedEvent) -> str:
    """Who holds the event, for messages: the laptop and its token's label."""
    token = received.token
    label = token.label if token is not None and token.label else ""
    if label:
        return _("the laptop in the hall “%(label)s”, as of %(time)s") % {
            "label": label,
            "time": clock(received.last_push_at),
        }
    return _("the laptop in the hall, as of %(time)s") % {"time": clock(received.last_push_at)}


def handed_back_message(handback: HandBack) -> str:
    by = handback.created_by
    return _("Handed back on %(when)s by %(who)s to a laptop; changes only there.") % {
        "when": moment(handback.created_at),
        "who": (by.get_full_name() or by.get_username()) if by is not None else "–",
    }


def waiting_handback(received: ReceivedEvent) -> HandBack | None:
    """The hand-back that waits for the laptop's first push (``live.server.handback``), or None."""
    return (
        HandBack.objects.select_related("created_by")
        .filter(received=received, state=HandBack.State.PENDING)
        .first()
    )


def refusal_message(received: ReceivedEvent) -> str:
    handback = waiting_handback(received)
    if handback is not None:
        return handed_back_message(handback)
    return _(
        "This event is run live from %(owner)s; changes only there. Taking it over: "
        "“Take over” on this server's event page (a director of the club)."
    ) % {"owner": owner_text(received)}


def taken_over_message(received: ReceivedEvent) -> str:
    by = received.taken_over_by
    return _("Taken over on %(when)s by %(who)s: this server now holds the event.") % {
        "when": moment(received.taken_over_at),
        "who": (by.get_full_name() or by.get_username()) if by is not None else "–",
    }


def guard(event_id: int) -> None:
    """Refuse a write to an event the laptop owns (called by `live.receivers.on_change`
    inside the write's transaction, which the refusal rolls back).

    A renamed player or club is never refused (the receiver does not call this for
    names): the registry is the server's own. The live apply (:func:`applying_live`)
    passes."""
    if is_applying_live():
        return
    received = (
        ReceivedEvent.objects.select_related("token")
        .filter(event_id=event_id, owner=ReceivedEvent.Owner.LAPTOP)
        .first()
    )
    if received is not None:
        raise PermissionDenied(refusal_message(received))


def received_for(event) -> ReceivedEvent | None:
    """The event's ReceivedEvent (with its token and the taker), or None (one query)."""
    return (
        ReceivedEvent.objects.select_related("token", "taken_over_by")
        .filter(event_id=event.pk)
        .first()
    )


def can_take_over(user, received: ReceivedEvent) -> bool:
    return (
        received.owner == ReceivedEvent.Owner.LAPTOP
        and has_role(user, received.event.club_id, ORGANISER)
        and waiting_handback(received) is None
    )


@transaction.atomic
def take_over(actor, received: ReceivedEvent, reason: str) -> ReceivedEvent:
    """The director takes the event over from the laptop: the server owns it from now on,
    the laptop's pushes are refused (409 taken_over). Audited with the reason."""
    received = (
        ReceivedEvent.objects.select_for_update(of=("self",))
        .select_related("event__club")
        .get(pk=received.pk)
    )
    require_role(actor, received.event.club, ORGANISER)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Say why the event is taken over (e.g. “laptop broken”)."))
    if len(reason) > MAX_REASON_CHARS:
        raise ValidationError(
            _("The reason is longer than %(max)d characters.") % {"max": MAX_REASON_CHARS}
        )
    if received.owner == ReceivedEvent.Owner.SERVER:
        raise ValidationError(taken_over_message(received))
    if waiting_handback(received) is not None:
        # The server holds it already; the hand-back is cancelled on its own page.
        raise ValidationError(
            _("A hand-back of this event waits for a laptop: cancel it to change the event here.")
        )
    received.owner = ReceivedEvent.Owner.SERVER
    received.taken_over_at = timezone.now()
    received.taken_over_by = history_user(actor)
    save_with_history(received, actor, reason, clean=False)
    # The public page and the hall display drop "live aus dem Saal" with the next version.
    bump_results_version(received.event_id)
    return received
