"""The director's writes of the laptop's live link (pairing, start, stop): one transaction
each, the organiser's role checked, history through simple_history."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, require_role
from live.laptop import outbox
from live.laptop.sender import schedule_push
from live.laptop.transport import url_problem
from live.models import LiveLink

TOKEN_MAX = 200


def _check(server_url: str, token: str | None) -> str:
    server_url = (server_url or "").strip()
    problem = url_problem(server_url)
    if problem:
        raise ValidationError({"server_url": problem})
    if token is not None and not (token.strip() and len(token.strip()) <= TOKEN_MAX):
        raise ValidationError(
            {"token": _("Enter the token the server showed (up to 200 characters).")}
        )
    return server_url


def _same_server(a: str, b: str) -> bool:
    return a.strip().rstrip("/").lower() == b.strip().rstrip("/").lower()


@transaction.atomic
def pair(actor, event, *, server_url: str, token: str | None) -> LiveLink:
    """Save where the event goes (``token`` None or "": keep the stored one) and start
    sending. Another server starts from nothing; a new token clears a refusal."""
    if actor is not None:  # None: the operator's command line (manage.py live_push)
        require_role(actor, event.club, ORGANISER)
    token = (token or "").strip() or None
    server_url = _check(server_url, token)
    link = LiveLink.objects.select_for_update().filter(event=event).first()
    new = link is None
    if new:
        if token is None:
            raise ValidationError({"token": _("Enter the token the server showed.")})
        link = LiveLink(event=event, server_url=server_url, token=token, created_by=actor)
        link.save()
    else:
        if not _same_server(link.server_url, server_url):
            # What another server holds is unknown: it gets everything, numbered from 1 on.
            LiveLink.objects.filter(pk=link.pk).update(acked_seq=0, sent_parts={})
            link.refused = ""
        if token is not None and token != link.token:
            link.token = token
            link.refused = ""
        link.server_url = server_url
        link.enabled = True
        link.save(update_fields=["server_url", "token", "enabled", "refused"])
    LiveLink.objects.filter(pk=link.pk).update(failures=0, failing_since=None, last_error="")
    if not new:  # (a new link's first push dumps the whole event anyway)
        _unknown_change(event)
    transaction.on_commit(lambda: schedule_push(event.pk))
    return link


def _unknown_change(event) -> None:
    """Sending starts (again): what changed while it was off was numbered nowhere, so a
    change that may touch anything makes the next push dump the whole event."""
    outbox.add_change(event.pk)


@transaction.atomic
def set_sending(actor, event, enabled: bool) -> LiveLink:
    require_role(actor, event.club, ORGANISER)
    link = LiveLink.objects.select_for_update().filter(event=event).first()
    if link is None:
        raise ValidationError(_("Enter the server address and the token first."))
    was_enabled, link.enabled = link.enabled, enabled
    link.save(update_fields=["enabled"])
    if enabled:
        if not was_enabled:
            _unknown_change(event)
        transaction.on_commit(lambda: schedule_push(event.pk))
    return link
