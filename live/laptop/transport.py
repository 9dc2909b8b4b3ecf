"""HTTP from a laptop (or a club's installation) to a server with a bearer token: JSON
in, JSON out, the token never following a redirect, and where it may be sent at all
(`url_problem`: HTTPS, or plain HTTP to this computer only). Used by the live sender, the
pairing page and the federation's `submit_event`."""

from __future__ import annotations

import ipaddress
import json
import urllib.error
import urllib.parse
import urllib.request

from django.utils.translation import gettext as _


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # the token never follows a redirect
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def _request(method: str, url: str, token: str, payload, timeout: float) -> tuple[int, dict]:
    body = None if payload is None else json.dumps(payload, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=body, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Accept", "application/json")
    if body is not None:
        request.add_header("Content-Type", "application/json; charset=utf-8")
    try:
        with _opener.open(request, timeout=timeout) as response:
            status, raw = response.status, response.read(1024 * 1024)
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read(1024 * 1024)
    try:
        answer = json.loads(raw.decode("utf-8")) if raw else {}
    except (UnicodeDecodeError, ValueError):
        answer = {}
    return status, answer if isinstance(answer, dict) else {}


def post_json(url: str, token: str, payload: dict, timeout: float) -> tuple[int, dict]:
    """POST a batch; (HTTP status, JSON answer or {}). Network errors raise OSError."""
    return _request("POST", url, token, payload, timeout)


def get_json(url: str, token: str, timeout: float) -> tuple[int, dict]:
    """GET (the status of the event on the server); as `post_json`."""
    return _request("GET", url, token, None, timeout)


def url_problem(url: str) -> str | None:
    """Why the laptop will not send to ``url`` (German), or None: HTTPS, or plain HTTP to
    this machine only (localhost, 127.0.0.0/8, ::1)."""
    try:
        parts = urllib.parse.urlsplit((url or "").strip())
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a bad port raises ValueError
    except ValueError:
        return _("The server address is not a valid web address.")
    if parts.scheme not in ("https", "http") or not host:
        return _("The server address must begin with https://.")
    if parts.username or parts.password or parts.query or parts.fragment:
        return _("The server address must not contain a user name, a query or a fragment.")
    if parts.scheme == "http" and not _is_local(host):
        return _(
            "Plain http:// only to this computer (localhost); every other server must be "
            "reached with https://."
        )
    return None


def _is_local(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
