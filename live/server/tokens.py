"""The server's live tokens: what a laptop shows to send one club's event (docs/live.md).

A token is made once and shown once (``secrets.token_urlsafe(32)``); the server keeps its
SHA-256 (hex) and its first characters, to recognise it in lists. It is checked by looking
up the hash (so no comparison of the secret itself takes longer for a better guess) and is
refused once revoked. Its scope: one club; the event its first push creates (or the event
named when it was made) — afterwards it writes that event only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import ORGANISER, require_role
from common.history import history_user, save_with_history
from live.models import LiveToken, ReceivedEvent
from tournaments.models import Event

PREFIX_CHARS = 8
# A token's "last used" is written at most once a minute: a busy laptop sends many batches.
TOUCH_EVERY = timedelta(minutes=1)
MAX_TOKEN_CHARS = 200


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def new_secret() -> str:
    """A fresh secret that never starts with "-": a command line would take it for an option
    (``--token -x…`` fails in argparse)."""
    while (raw := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return raw


def issue_token(
    club: Club, *, event: Event | None = None, label: str = "", created_by=None
) -> tuple[LiveToken, str]:
    """A new token of ``club`` (bound to ``event``, one of the club's events received from a
    laptop, when given): the row and the secret, which is never stored and never shown
    again. No role check: the command line's operator and :func:`make_token` call it."""
    if event is not None:
        check_event_for_token(club, event)
    raw = new_secret()
    token = LiveToken(
        club=club,
        event=event,
        label=label.strip()[:100],
        token_hash=digest(raw),
        prefix=raw[:PREFIX_CHARS],
        created_by=history_user(created_by),
    )
    save_with_history(token, created_by, _("Live token made"))
    return token, raw


def check_event_for_token(club: Club, event: Event) -> None:
    if event.club_id != club.pk:
        raise ValidationError(
            _("The event “%(event)s” belongs to another club than “%(club)s”.")
            % {"event": event.name, "club": club.name}
        )
    if not ReceivedEvent.objects.filter(event=event).exists():
        raise ValidationError(
            _(
                "The event “%(event)s” was not received from a laptop: a token for a new "
                "event is made without an event (its first push creates it)."
            )
            % {"event": event.name}
        )


@transaction.atomic
def make_token(actor, club: Club, *, event: Event | None = None, label: str = ""):
    """An organiser of the club (or a superuser) makes a token: (row, secret)."""
    require_role(actor, club, ORGANISER)
    return issue_token(club, event=event, label=label, created_by=actor)


@transaction.atomic
def revoke_token(actor, token: LiveToken, reason: str = "") -> LiveToken:
    """Revoke a token (who and when, in its history): from now on its pushes are refused."""
    token = LiveToken.objects.select_for_update().select_related("club").get(pk=token.pk)
    require_role(actor, token.club, ORGANISER)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.revoked_by = history_user(actor)
        save_with_history(token, actor, reason.strip() or _("Live token revoked"), clean=False)
    return token


def find_token(raw: str | None) -> LiveToken | None:
    """The token whose secret is ``raw``, revoked or not; None for anything unknown."""
    if not raw or len(raw) > MAX_TOKEN_CHARS or not raw.isascii():
        return None
    wanted = digest(raw)
    token = LiveToken.objects.select_related("club", "event").filter(token_hash=wanted).first()
    if token is None or not hmac.compare_digest(token.token_hash, wanted):
        return None
    return token


def touch(token: LiveToken) -> None:
    """Note that the token was used, at most once a minute (one UPDATE, no history)."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        LiveToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def over_rate(token: LiveToken, use: str, per_minute: int) -> int | None:
    """Count one ``use`` ("live", "submit") of the token in this minute (the shared cache);
    None while within ``per_minute``, else the seconds until the next minute."""
    import time

    from django.core.cache import cache

    now = time.time()
    window = int(now // 60)
    key = f"token-rate:{use}:{token.pk}:{window}"
    cache.add(key, 0, timeout=90)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=90)
        count = 1
    if count <= per_minute:
        return None
    return max(1, int((window + 1) * 60 - now) + 1)


def bearer(request) -> str | None:
    """The secret of an ``Authorization: Bearer …`` header, or None."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _sep, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip() or None
