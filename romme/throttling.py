"""Login throttling with django-axes: the growing cool-off (see docs/security.md).

Axes counts failed logins per user name and per IP address (each on its own) and locks
out after ``AXES_FAILURE_LIMIT`` failures. The lockout lasts ``BASE_COOL_OFF`` the first
time and doubles with every further lockout of the same user name or address within a
day, up to ``MAX_COOL_OFF``. A successful login resets the count (``AXES_RESET_ON_SUCCESS``);
an admin resets it by deleting the access attempts in the admin or with ``manage.py
axes_reset``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

BASE_COOL_OFF = timedelta(minutes=5)
MAX_COOL_OFF = timedelta(hours=24)


def lockouts_today(request) -> int:
    from axes.models import AccessFailureLog

    ip_address = getattr(request, "axes_ip_address", None)
    username = request.POST.get(settings.AXES_USERNAME_FORM_FIELD) if request.POST else None
    who = Q(ip_address=ip_address) if ip_address else Q()
    if username:
        who = who | Q(username=username) if ip_address else Q(username=username)
    if not who:
        return 0
    since = timezone.now() - MAX_COOL_OFF
    return AccessFailureLog.objects.filter(who, locked_out=True, attempt_time__gte=since).count()


def cool_off(request=None) -> timedelta:
    """5 minutes, then 10, 20, ... for repeated lockouts within a day; at most 24 hours."""
    if request is None or not hasattr(request, "POST"):
        return BASE_COOL_OFF
    repeats = max(lockouts_today(request) - 1, 0)
    return min(BASE_COOL_OFF * 2 ** min(repeats, 16), MAX_COOL_OFF)


def client_ip(request) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXY_COUNT`` reverse
    proxies the address the outermost of them saw (X-Forwarded-For counted from the right,
    so a client cannot forge it by sending its own header)."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies > 0:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")


def lockout_response(request, original_response=None, credentials=None):
    """The login page says, in the user's language, that and for how long it is locked."""
    from django.shortcuts import render

    minutes = max(1, round(cool_off(request).total_seconds() / 60))
    return render(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
