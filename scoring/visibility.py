"""Who may see which results of an event: every view and selector asks here (issue 11).

* Published, confirmed results: everybody (public page, hall display, JSON API).
* Confirmed results of series not yet published: scorers and organisers of the event's
  club (:func:`sees_unpublished`).
* Unconfirmed values (drafts, entered sheets, provisional standings): in standings only
  the event's directors, the organisers of its club (:func:`is_director`); a sheet itself
  also the club's scorers: whoever entered it and whoever may confirm it (a blind
  confirmation hides the entry from them on the sheet page).
* Score sheets and the series board at all: a role in the event's club; a sheet's values
  as the standings show them: a club's viewers read the confirmed sheets of published
  series only (:func:`require_sheet_reader`).

Superusers pass every check (``clubs.permissions.has_role``).
"""

from __future__ import annotations

from clubs.permissions import ORGANISER, SCORER, VIEWER, has_role, require_role


def _club_id(event_or_club) -> int:
    return getattr(event_or_club, "club_id", None) or getattr(event_or_club, "pk", event_or_club)


def is_director(user, event) -> bool:
    """Organisers of the event's club (and superusers) direct it: they alone see
    provisional standings with unconfirmed sheets."""
    return has_role(user, event.club_id, ORGANISER)


def sees_unpublished(user, club) -> bool:
    """Confirmed results of unpublished series: scorers and organisers of ``club`` (a Club,
    its id, or an event)."""
    return has_role(user, _club_id(club), SCORER)


def require_sheet_reader(user, event, status: str | None, *, published: bool) -> None:
    """Raise PermissionDenied unless the user may read a sheet of ``event`` in ``status``:
    a confirmed sheet of a published series (or no sheet yet) needs any role in the club; a
    confirmed one of an unpublished series, as an unconfirmed one, the scorer role (the
    viewers see a series' results when the standings show them)."""
    open_to_viewers = status is None or (status == "confirmed" and published)
    require_role(user, event.club, VIEWER if open_to_viewers else SCORER)
