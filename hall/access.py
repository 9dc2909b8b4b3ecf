"""Who reaches what on the laptop in the hall (settings.HALL_MODE).

One middleware, first in the chain, before anything reads the host:

1. The host. ALLOWED_HOSTS is "*" in the hall mode because the laptop's addresses change
   with the network; here a request must name localhost, one of the laptop's addresses now
   or HALL_URL's host (DNS rebinding still gets 400).
2. The device. The laptop itself (a loopback address or one of its own addresses) reaches
   everything. Another device on the Wi-Fi reaches what phones need: the table links, the
   public results, the hall display, the public JSON and the static files. The director's
   pages open there only while the director has turned on "Turnierleitung auch von anderen
   Geräten"; the Django admin and the hall's own pages (settings, backups, first start)
   never do.
3. The first start. Until the director's account exists, the laptop is sent to the
   first-run page (`hall:setup`), which other devices cannot open.

Outside the hall mode this middleware passes every request through untouched.
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpResponse, HttpResponseRedirect
from django.http.request import split_domain_port
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from common import lan

# Paths a phone may open: the table link, the public pages and hall display, their JSON and
# version counter, the files they load, and the language switch.
PHONE_PREFIXES = ("/t/", "/public/", "/api/events/", "/static/", "/i18n/")
PHONE_PATHS = frozenset({"/", "/favicon.ico", "/about/"})
# Never from another device, whatever the director allows.
LAPTOP_ONLY_PREFIXES = ("/admin/", "/hall/", "/healthz")

SETTINGS_SECONDS = 3.0


class _Flags:
    """The two facts every request asks, kept for a moment instead of a query each time."""

    def __init__(self):
        self.lock = threading.Lock()
        self.remote: tuple[float, bool] | None = None
        self.has_users = False

    def remote_direction(self) -> bool:
        now = time.monotonic()
        with self.lock:
            if self.remote and now - self.remote[0] < SETTINGS_SECONDS:
                return self.remote[1]
        from hall.models import HallSettings

        value = bool(
            HallSettings.objects.filter(pk=1).values_list("remote_direction", flat=True).first()
        )
        with self.lock:
            self.remote = (now, value)
        return value

    def set_up(self) -> bool:
        # Once a user exists the answer never goes back: ask the database until then only.
        if not self.has_users:
            self.has_users = get_user_model().objects.exists()
        return self.has_users

    def forget(self) -> None:
        with self.lock:
            self.remote = None
        self.has_users = False


flags = _Flags()


def is_phone_path(path: str) -> bool:
    return path in PHONE_PATHS or path.startswith(PHONE_PREFIXES)


def is_laptop_only(path: str) -> bool:
    return path.startswith(LAPTOP_ONLY_PREFIXES)


def _page(request, template: str, status: int, context: dict | None = None) -> HttpResponse:
    language = translation.get_language_from_request(request)
    with translation.override(language):
        body = render_to_string(template, context or {}, request=request)
    response = HttpResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _bad_host(request, host: str) -> HttpResponse:
    found = lan.hall_address()
    return _page(request, "hall/bad_host.html", 400, {"host": host, "hall": found})


class HallMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not settings.HALL_MODE:
            return self.get_response(request)
        host, _port = split_domain_port(request.META.get("HTTP_HOST", ""))
        if host.casefold() not in lan.allowed_hosts():
            return _bad_host(request, host)
        laptop = lan.is_laptop(request.META.get("REMOTE_ADDR", ""))
        request.hall_laptop = laptop
        path = request.path_info
        if not laptop:
            remote = flags.remote_direction()
            # A phone gets no login link: nothing behind it would open for it.
            request.hall_phone = not remote
            if is_laptop_only(path) or not (is_phone_path(path) or remote):
                return _page(request, "hall/laptop_only.html", 403)
        elif not flags.set_up() and not (
            path.startswith(("/hall/setup/", "/hall/guide/", "/hall/doctor/", "/static/", "/i18n/"))
            or path == "/favicon.ico"
        ):
            return HttpResponseRedirect(reverse("hall:setup"))
        return self.get_response(request)
