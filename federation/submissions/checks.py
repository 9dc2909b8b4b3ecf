"""What the federation checks of an arriving event (issue 27, point 4): in the request
(`check_sender`: the archive's clubs and the token's event, a few queries) and in the
worker (`check_archive`: the archive's own checks, seconds for a large event), and which
event here an arrival goes to (`received_copy`, `earlier_event`, `prepared_event`).
Reads only; `federation.submissions` writes."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from clubs.models import Club
from federation.submissions import matching
from federation.submissions.models import Submission
from live.models import LiveToken, ReceivedEvent
from scoring.archive.validate import ArchiveError, validate
from scoring.models import Sheet
from tournaments.models import Event


def check_archive(data, club) -> dict:
    """The archive's own checks (schema, references, every sheet through the rules), run
    by the worker before anything of the event is written; repeated player numbers are
    told apart for this check only (the officer decides them). Returns the checked sheets'
    plans (by series and table index: matching rewrites players only, so they stay
    valid). Raises ArchiveError, or PermissionDenied for another club's event."""
    _check_club(data, club)
    plans = validate(matching.unique_numbers(data) if _has_players(data) else data)
    _check_clubs(data)
    return plans


def check_sender(token, club, data, *, origin: str, origin_event: int) -> None:
    """What the request checks of an archive before it is stored (a few queries): its
    club is the token's, its other clubs exist here, a token bound to an event sends that
    event. Raises PermissionDenied or ArchiveError; the worker checks the rest."""
    _check_club(data, club)
    _check_clubs(data)
    check_token_event(token, earlier_event(origin, origin_event) or prepared_event(club, data))


def _check_club(data, club) -> None:
    event = data.get("event") if isinstance(data, dict) else None
    short = event.get("club", {}).get("short_name") if isinstance(event, dict) and isinstance(
        event.get("club"), dict) else None  # fmt: skip
    if isinstance(short, str) and short != club.short_name:
        raise PermissionDenied(
            _("This token sends events of %(mine)s, not of %(other)s.")
            % {"mine": club.short_name, "other": short[:40]}
        )


def _check_clubs(data: dict) -> None:
    """The archive's other clubs (its players' clubs) must exist here: a submission never
    creates clubs, as an organiser's upload never does (`scoring.archive.jobs`). Entries
    of another shape are left to the schema (the worker's check)."""
    listed = data.get("clubs") if isinstance(data.get("clubs"), list) else []
    names = {
        i: other["short_name"]
        for i, other in enumerate(listed)
        if isinstance(other, dict) and isinstance(other.get("short_name"), str)
    }
    known = set(
        Club.objects.filter(short_name__in=names.values()).values_list("short_name", flat=True)
    )
    for i, name in names.items():
        if name not in known:
            raise ArchiveError(
                f"$.clubs[{i}].short_name",
                _(
                    "there is no club with the short name %(club)s here; ask the federation "
                    "to register it before sending the event"
                )
                % {"club": repr(name[:40])},
            )


def _has_players(data) -> bool:
    return isinstance(data.get("players"), list) and isinstance(data.get("participants"), list)


def received_copy(origin: str, origin_event: int) -> ReceivedEvent | None:
    return (
        ReceivedEvent.objects.select_related("event")
        .filter(origin=origin, origin_event=origin_event)
        .first()
    )


def earlier_event(origin: str, origin_event: int) -> Event | None:
    """The event an earlier arrival of the same (origin, event) was taken in as."""
    earlier = (
        Submission.objects.filter(origin=origin, origin_event=origin_event, event__isnull=False)
        .select_related("event")
        .order_by("-received_at", "-pk")
        .first()
    )
    return earlier.event if earlier else None


def prepared_event(club, data) -> Event | None:
    """The club's event here of the archive's name and date that nobody else brought in:
    the one the organiser made here to ask for ranking status before playing elsewhere
    (nothing scored here yet). None for an archive without a plain name and date."""
    event_data = data.get("event") if isinstance(data.get("event"), dict) else {}
    name, start = event_data.get("name"), event_data.get("start_date")
    try:
        start = dt.date.fromisoformat(start) if isinstance(start, str) else None
    except ValueError:
        start = None
    if not isinstance(name, str) or start is None:
        return None
    event = Event.objects.filter(club=club, name=name, start_date=start).first()
    if event is None or ReceivedEvent.objects.filter(event=event).exists():
        return None
    if Submission.objects.filter(event=event).exists():
        return None  # taken in from another (origin, event): the import refuses a duplicate
    if Sheet.objects.filter(table__series__event=event).exists():
        return None  # played here: never overwritten by an arrival (the import refuses it)
    return event


def check_token_event(token: LiveToken | None, event: Event | None) -> None:
    """A token bound to one event (by a live push) submits that event only."""
    bound = token is not None and token.event_id is not None
    if bound and (event is None or event.pk != token.event_id):
        raise PermissionDenied(_("This token belongs to another event."))
