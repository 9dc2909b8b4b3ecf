"""The users a table's seats write as (table links), and how pages and messages name them:
by seat and table, not by the technical user name."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

SEAT_USER = re.compile(r"^tisch(\d+)\.platz(\d+)\.serie\d+$")


def seat_username(table_number: int, position: int, series_id: int) -> str:
    """The user name of seat ``position`` (0-based) at a table of a series."""
    return f"tisch{table_number}.platz{position + 1}.serie{series_id}"


def seat_of_user(username: str) -> tuple[int, int] | None:
    """(table number, 1-based seat) of a seat's user, else None."""
    match = SEAT_USER.match(username or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def user_label(user) -> str:
    """Who wrote or confirmed, as a director reads it: a seat's phone by its seat and table."""
    seat = seat_of_user(user.get_username()) if user is not None else None
    if seat is None:
        return "" if user is None else str(user)
    return _("seat %(seat)d at table %(table)d (phone)") % {"table": seat[0], "seat": seat[1]}
