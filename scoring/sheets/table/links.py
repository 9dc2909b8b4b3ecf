"""Table links: the QR on a table that opens its sheet on the players' phones (issue 16).

A link is an unguessable token for one table of one series and a short code per seat.
Directors (organiser role) create and revoke links; every created and revoked link stays
as a row (who, when), the audit of which phone could write where. A link opens only its
own table's sheet; it is closed when it is revoked or its series is complete.

Each seat writes and confirms as a user of its own (``seat_user``): inactive, without
password or role, named after table and seat, so the sheet's history, the four-eyes rule
and the standings treat phone entries like any other entry.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, require_role
from scoring.models import TableLink
from scoring.sheets.seat_users import seat_username
from tournaments.models import Series, Table

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: read aloud and typed on a phone without doubt.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 4
# Wrong seat codes per link and minute before every try is refused for the rest of it.
CODE_TRIES_PER_MINUTE = 5


class LinkClosed(Exception):
    """The link was revoked (``revoked``) or its series is over (``expired``)."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class TooManyTries(Exception):
    """Too many wrong seat codes for this link in the last minute."""


def new_seat_codes(count: int) -> list[str]:
    codes: list[str] = []
    while len(codes) < count:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in codes:
            codes.append(code)
    return codes


def normalise_code(code: str) -> str:
    return "".join((code or "").split()).upper()[:16]


def link_state(link: TableLink) -> str | None:
    """None while the link works; ``revoked`` or ``expired`` otherwise."""
    if link.revoked_at is not None:
        return "revoked"
    if link.table.series.status != Series.Status.IN_PLAY:
        return "expired"
    return None


def link_for_token(token: str) -> TableLink | None:
    """The link of ``token`` (closed or not), with its table, series and event."""
    if not token or len(token) > 64:
        return None
    return (
        TableLink.objects.select_related("table__series__event__club").filter(token=token).first()
    )


def require_open(link: TableLink) -> None:
    state = link_state(link)
    if state:
        raise LinkClosed(state)


def _tries_key(link: TableLink) -> str:
    return f"table-link-code-tries:{link.pk}"


def seat_for_code(link: TableLink, code: str) -> int | None:
    """The seat (0-based) whose code is ``code``, or None; wrong codes are counted.

    Raises TooManyTries after CODE_TRIES_PER_MINUTE wrong codes within a minute (then even
    the right code waits: guessing stays slower than reading the paper sheet).
    """
    refuse_if_throttled(link)
    wanted = normalise_code(code)
    for position, seat_code in enumerate(link.seat_codes):
        if wanted and constant_time_compare(wanted, seat_code):
            return position
    count_wrong_try(link)
    return None


def refuse_if_throttled(link: TableLink) -> None:
    """Raise TooManyTries once the link had CODE_TRIES_PER_MINUTE wrong seat codes or PINs
    in the last minute."""
    if (cache.get(_tries_key(link)) or 0) >= CODE_TRIES_PER_MINUTE:
        raise TooManyTries


def count_wrong_try(link: TableLink) -> None:
    key = _tries_key(link)
    if not cache.add(key, 1, timeout=60):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=60)


def seat_user(table: Table, position: int):
    """The user a seat writes and confirms as: one per series, table and seat, never able
    to log in (inactive, no password, no role)."""
    User = get_user_model()
    username = seat_username(table.number, position, table.series_id)
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User(username=username, is_active=False)
        user.set_unusable_password()
        user.save()
    return user


@transaction.atomic
def create_table_links(actor, series: Series) -> list[TableLink]:
    """A live link for every table of ``series`` that has none (organiser role; the series
    must be in play). Returns the links created."""
    require_role(actor, series.event.club, ORGANISER)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.status != Series.Status.IN_PLAY:
        raise ValidationError(
            _("Table links exist only for a series in play: start the series first.")
        )
    live = TableLink.objects.filter(table__series=series, revoked_at__isnull=True)
    tables = list(
        Table.objects.filter(series=series)
        .exclude(pk__in=live.values("table_id"))
        .prefetch_related("seats")
        .order_by("number")
    )
    created = []
    for table in tables:
        size = len(table.seats.all())
        if not size:
            continue
        created.append(
            TableLink.objects.create(
                table=table,
                token=secrets.token_urlsafe(24),
                seat_codes=new_seat_codes(size),
                created_by=actor,
            )
        )
    return created


@transaction.atomic
def revoke_table_link(actor, link: TableLink) -> TableLink:
    """Lock a table's phones out (organiser role). The sheet stays as it is; the director
    goes on with the sheet page, and a new link can be made for the table."""
    require_role(actor, link.table.series.event.club, ORGANISER)
    link = TableLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at, link.revoked_by = timezone.now(), actor
        link.save(update_fields=["revoked_at", "revoked_by"])
    return link


def live_links(series: Series) -> dict[int, TableLink]:
    """The working link of each table of ``series`` by table number (empty unless the
    series is in play): what the printed score sheets and seating list lead to."""
    if series.status != Series.Status.IN_PLAY:
        return {}
    links = TableLink.objects.filter(table__series=series, revoked_at__isnull=True)
    return {link.table.number: link for link in links.select_related("table")}


def phone_path(link: TableLink) -> str:
    return reverse("scoring:table_phone", kwargs={"token": link.token})
