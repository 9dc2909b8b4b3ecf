"""The other way a seat names itself on a table link (issue 16): the player's number and a
4-digit PIN the director set, for players who keep their own phone over the whole event.

PINs are stored hashed (`make_password`) as `PlayerPin` rows that are never changed: the
newest row of a participant counts, the rows are the history (who set or cleared a PIN,
when). Wrong PINs count against the same per-link limit as wrong seat codes.
"""

from __future__ import annotations

import re

from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, require_role
from scoring.models import PlayerPin, TableLink
from scoring.sheets.table.links import count_wrong_try, refuse_if_throttled
from tournaments.models import Event, Participant, Seat

PIN = re.compile(r"^[0-9]{4}$")


def _participant(event: Event, player_number: str) -> Participant | None:
    number = (player_number or "").strip()
    if not number or len(number) > 32:
        return None
    return (
        Participant.objects.select_related("player")
        .filter(event=event, player__player_number__iexact=number)
        .first()
    )


@transaction.atomic
def set_player_pin(actor, event: Event, player_number: str, pin: str) -> PlayerPin:
    """Set (or with an empty ``pin`` clear) the PIN of the event's player ``player_number``
    (organiser role). Raises ValidationError for an unknown number or a PIN that is not
    four digits."""
    require_role(actor, event.club, ORGANISER)
    participant = _participant(event, player_number)
    if participant is None:
        raise ValidationError(
            _("No player of this event has the number %(number)s.")
            % {"number": (player_number or "").strip()[:32]}
        )
    pin = (pin or "").strip()
    if pin and not PIN.match(pin):
        raise ValidationError(_("A PIN is four digits."))
    return PlayerPin.objects.create(
        participant=participant, pin_hash=make_password(pin) if pin else "", set_by=actor
    )


def current_hash(participant: Participant) -> str:
    row = PlayerPin.objects.filter(participant=participant).order_by("-id").first()
    return row.pin_hash if row else ""


def seat_for_pin(link: TableLink, player_number: str, pin: str) -> int | None:
    """The seat (0-based) of ``link``'s table where the player ``player_number`` sits, if
    ``pin`` is that player's PIN; None otherwise (counted as a wrong try).

    Raises TooManyTries like `table_links.seat_for_code`.
    """
    refuse_if_throttled(link)
    participant = _participant(link.table.series.event, player_number)
    seat = None
    if participant is not None:
        seat = Seat.objects.filter(table=link.table, participant=participant).first()
    stored = current_hash(participant) if seat is not None else ""
    pin = (pin or "").strip()
    if stored and PIN.match(pin) and check_password(pin, stored):
        return seat.position
    count_wrong_try(link)
    return None


def pin_history(event: Event, limit: int = 50) -> list[PlayerPin]:
    """The newest PIN changes of the event (for the director's page)."""
    return list(
        PlayerPin.objects.filter(participant__event=event)
        .select_related("participant__player", "set_by")
        .order_by("-id")[:limit]
    )
