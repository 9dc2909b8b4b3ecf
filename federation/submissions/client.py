"""The sending side of a submission (issue 27, point 4): a club's own installation sends an
event to the federation's (`federation.submissions.api`) with a club token.

The archive travels whole (`scoring.archive.dump.export_event`); an event this
installation already sends live to the same server (`live.models.LiveLink`, acknowledged)
is named only ({"live": true}): the server submits its live copy. The server answers at
once ("received") and reads the archive in its worker; `submit` then asks the status URL
(built from the address given here, never the one in the answer: the token goes to that
server only) until the state is no longer "received", within one timeout for everything.
Plain http only to this computer (`live.laptop.transport.url_problem`); the token never follows a
redirect. Used by `manage.py submit_event` and the page "An den Verband senden" (which
sends without waiting and asks for the state on its own page).
"""

from __future__ import annotations

import time
import urllib.parse
from dataclasses import dataclass

from django.utils.translation import gettext as _

from live.laptop import sender, transport
from live.models import LiveLink
from scoring.archive.dump import export_event
from tournaments.models import Event

PATH = "/api/federation/v1/submissions"
TIMEOUT_S = 120.0  # sending and waiting for the worker, together
RECEIVED = "received"
WAITING = "matching"
TAKEN = ("imported", WAITING)  # the outcomes that are no failure
POLL_FIRST_S, POLL_MAX_S = 0.5, 1.0  # a status request is two queries; 60 a minute at most
REQUEST_MAX_S = 60.0  # one status request


@dataclass
class Sent:
    """What the server answered: ``ok`` while it reads the event (state "received"), when it
    took it in, or holds it waiting for matching."""

    ok: bool
    state: str = ""
    message: str = ""
    status: int = 0
    event: int | None = None
    submission: int | None = None

    @property
    def waiting(self) -> bool:
        return self.ok and self.state == WAITING

    @property
    def pending(self) -> bool:
        return self.ok and self.state == RECEIVED


def endpoint(server_url: str) -> str:
    return server_url.strip().rstrip("/") + PATH


def status_endpoint(server_url: str, submission: int) -> str:
    return f"{endpoint(server_url)}/{int(submission)}"


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


def _unreachable(error: OSError) -> str:
    reason = getattr(error, "reason", None) or error
    return _("The federation's server could not be reached: %(error)s") % {
        "error": str(reason)[:200]
    }


def _read(status: int, answer: dict) -> Sent:
    message = answer.get("message") or answer.get("error") or ""
    if not isinstance(message, str):
        message = ""
    if status in (200, 202):
        state = answer.get("state") if isinstance(answer.get("state"), str) else ""
        event_id = answer.get("event") if isinstance(answer.get("event"), int) else None
        number = answer.get("submission") if isinstance(answer.get("submission"), int) else None
        ok = state in (RECEIVED, *TAKEN)
        return Sent(ok, state, message[:500], status, event_id, number)
    if not message:
        message = _("The federation's server answered with status %(status)d.") % {"status": status}
    return Sent(ok=False, message=message[:500], status=status)


def submit(
    event: Event, server_url: str, token: str, *, timeout: float = TIMEOUT_S, wait: bool = True
) -> Sent:
    """Send ``event`` and (``wait``) follow its state until the server has read it, within
    ``timeout`` seconds in all; never raises for the network or the server's refusal."""
    deadline = time.monotonic() + timeout
    problem = transport.url_problem(server_url)
    if problem:
        return Sent(ok=False, message=problem)
    token = (token or "").strip()
    if not token:
        return Sent(ok=False, message=_("Enter the club token the federation showed."))
    body = payload(event, server_url)
    try:
        status, answer = transport.post_json(endpoint(server_url), token, body, timeout)
    except OSError as error:
        return Sent(ok=False, message=_unreachable(error))
    sent = _read(status, answer)
    if not wait or not sent.pending or sent.submission is None:
        return sent
    return follow(server_url, token, sent.submission, deadline=deadline)


def ask(server_url: str, token: str, submission: int, *, timeout: float = 10.0) -> Sent:
    """The submission's state, asked once."""
    try:
        status, answer = transport.get_json(status_endpoint(server_url, submission), token, timeout)
    except OSError as error:
        return Sent(ok=False, state=RECEIVED, message=_unreachable(error), submission=submission)
    return _read(status, answer)


def follow(server_url: str, token: str, submission: int, *, deadline: float) -> Sent:
    """Ask for the state until it is no longer "received", or the deadline. A network
    fault, a busy server (429, 5xx) is asked again; a refusal (401, 404) ends it."""
    interval, last = POLL_FIRST_S, None
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return _timed_out(submission, last)
        time.sleep(min(interval, remaining))
        interval = min(interval * 1.5, POLL_MAX_S)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return _timed_out(submission, last)
        sent = ask(server_url, token, submission, timeout=min(remaining, REQUEST_MAX_S))
        if sent.status in (429, 500, 502, 503, 504) or sent.status == 0:
            last = sent
            continue
        if not sent.pending:
            return sent
        last = sent


def _timed_out(submission: int, last: Sent | None) -> Sent:
    text = _(
        "The federation's server has not finished reading the event in time (submission "
        "%(id)d); it goes on reading it: ask for its state later or look at the federation's "
        "matching list."
    ) % {"id": submission}
    if last is not None and last.message and not last.pending:
        text = f"{text} {last.message}"
    return Sent(ok=False, state=RECEIVED, message=text[:500], submission=submission)
