"""Whether the navigation shows "Verbände": superusers and holders of an association role.

Asking the database on every page would add a query to each of them (page query counts are
tested), so the answer lives in the session: noted at login, and asked again only when a
role was granted or revoked since (a generation counter in the cache, raised by the role
services once their transaction commits) or the session has none yet."""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import transaction

from federation.associations.permissions import has_any_role

SESSION_KEY = "federation_nav"
GENERATION_KEY = "federation:roles-generation"
log = logging.getLogger(__name__)


def _generation() -> int:
    try:
        return int(cache.get(GENERATION_KEY, 0))
    except Exception:  # the cache server is away: keep what the session says
        log.warning("federation: cache unavailable, navigation flag kept", exc_info=True)
        return -1


def _raise_generation() -> None:
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # no counter yet
        cache.set(GENERATION_KEY, 1, None)
    except Exception:
        log.warning("federation: cache unavailable, navigation flag not renewed", exc_info=True)


def roles_changed() -> None:
    """Called by the role services inside their transaction."""
    transaction.on_commit(_raise_generation)


def _store(request, generation: int, flag: bool) -> None:
    session = getattr(request, "session", None)
    if session is not None and session.get(SESSION_KEY) != [generation, flag]:
        session[SESSION_KEY] = [generation, flag]


def note_login(sender=None, request=None, user=None, **kwargs) -> None:
    if request is not None and user is not None:
        _store(request, _generation(), has_any_role(user))


def note_roles(request, flag: bool) -> None:
    """A federation page that read the user's roles anyway keeps the session in step."""
    if not request.user.is_superuser:
        _store(request, _generation(), flag)


def shows_link(request) -> bool:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    session = getattr(request, "session", None)
    stored = session.get(SESSION_KEY) if session is not None else None
    generation = _generation()
    if stored and (stored[0] == generation or generation == -1):
        return bool(stored[1])
    flag = has_any_role(user)
    _store(request, generation, flag)
    return flag
