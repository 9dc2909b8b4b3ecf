"""The sending side of a submission (issue 27, point 4): a club's own installation sends an
event to the federation's (`federation.submit_api`) with a club token.

The archive travels whole (`scoring.archive.dump.export_event`); an event this
installation already sends live to the same server (`live.models.LiveLink`, acknowledged)
is named only ({"live": true}): the server submits its live copy. Plain http only to this
computer (`live.sender.url_problem`); the token never follows a redirect. Used by
`manage.py submit_event` and the page "An den Verband senden".
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

from django.utils.translation import gettext as _

from live import sender
from live.models import LiveLink
from scoring.archive.dump import export_event
from tournaments.models import Event

PATH = "/api/federation/v1/submissions"
TIMEOUT_S = 120.0  # a 400-player archive is some MB; the server checks every sheet
WAITING = "matching"


@dataclass
class Sent:
    """What the server answered: ``ok`` when it took the event or it waits for matching."""

    ok: bool
    state: str = ""
    message: str = ""
    status: int = 0
    event: int | None = None

    @property
    def waiting(self) -> bool:
        return self.ok and self.state == WAITING


def endpoint(server_url: str) -> str:
    return server_url.strip().rstrip("/") + PATH


def _same_server(a: str, b: str) -> bool:
    one, two = urllib.parse.urlsplit(a.strip()), urllib.parse.urlsplit(b.strip())
    return (one.scheme, one.netloc.lower(), one.path.rstrip("/")) == (
        two.scheme,
        two.netloc.lower(),
        two.path.rstrip("/"),
    )


def payload(event: Event, server_url: str) -> dict:
    """What is sent: the live copy's name when this server holds it, else the archive."""
    origin = sender.origin_key()
    link = LiveLink.objects.filter(event=event).first()
    if link is not None and link.acked_seq > 0 and _same_server(link.server_url, server_url):
        return {"origin": origin, "event": event.pk, "live": True}
    return {"origin": origin, "event": event.pk, "archive": export_event(event)}


def submit(event: Event, server_url: str, token: str, *, timeout: float = TIMEOUT_S) -> Sent:
    """Send ``event``; never raises for the network or the server's refusal."""
    problem = sender.url_problem(server_url)
    if problem:
        return Sent(ok=False, message=problem)
    token = (token or "").strip()
    if not token:
        return Sent(ok=False, message=_("Enter the club token the federation showed."))
    body = payload(event, server_url)
    try:
        status, answer = sender.post_json(endpoint(server_url), token, body, timeout)
    except OSError as error:
        reason = getattr(error, "reason", None) or error
        return Sent(
            ok=False,
            message=_("The federation's server could not be reached: %(error)s")
            % {"error": str(reason)[:200]},
        )
    message = answer.get("message") or answer.get("error") or ""
    if not isinstance(message, str):
        message = ""
    if status in (200, 202):
        state = answer.get("state") if isinstance(answer.get("state"), str) else ""
        event_id = answer.get("event") if isinstance(answer.get("event"), int) else None
        return Sent(ok=True, state=state, message=message[:500], status=status, event=event_id)
    if not message:
        message = _("The federation's server answered with status %(status)d.") % {"status": status}
    return Sent(ok=False, message=message[:500], status=status)
