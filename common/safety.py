"""Guards against hostile values that no single form owns (see docs/security.md).

* :class:`HostileInputMiddleware`: ids in URLs beyond any database key are a 404, not an
  ``OverflowError``; NUL bytes and other control characters in any submitted text are
  refused with a 400 page that says so.
* :func:`safe_next`: every ``next`` parameter goes through
  ``url_has_allowed_host_and_scheme`` (no ``javascript:``, no other host); so does the
  ``Referer`` an error page links back to (:func:`safe_referer`).
* :class:`PlausibleDatesMixin`: dates on forms within sensible bounds.
"""

from __future__ import annotations

import datetime as dt

from django import forms
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.limits import CONTROL_CHARS

MAX_ID = 2**63 - 1  # the largest BigAutoField; PostgreSQL and SQLite refuse larger
EARLIEST_DATE = dt.date(1900, 1, 1)
YEARS_AHEAD = 10


class HostileInputMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        for name, values in list(request.GET.lists()) + (
            list(request.POST.lists()) if request.method == "POST" else []
        ):
            for value in [name, *values]:
                match = CONTROL_CHARS.search(value)
                if match:
                    return render(
                        request,
                        "400.html",
                        {
                            "message": _(
                                "The form contained a control character (code %(code)d) that "
                                "cannot be stored. Remove it and try again."
                            )
                            % {"code": ord(match.group())}
                        },
                        status=400,
                    )
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        for value in [*view_args, *view_kwargs.values()]:
            if isinstance(value, int) and not -MAX_ID <= value <= MAX_ID:
                raise Http404("id out of range")
        return None


def safe_next(request, fallback: str) -> str:
    """``next`` from POST or GET if it stays on this site, else ``fallback``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    # Only paths on this site: a bare word would make redirect() look for a view by name.
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def safe_referer(request) -> str:
    """The page the request came from if it is on this site, else "" (a link back on an
    error page never leads elsewhere)."""
    referer = request.headers.get("Referer", "")
    safe = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return referer if safe else ""


def validate_plausible_date(value: dt.date) -> None:
    latest = timezone.localdate().replace(year=timezone.localdate().year + YEARS_AHEAD)
    if value is not None and not EARLIEST_DATE <= value <= latest:
        raise forms.ValidationError(
            gettext_lazy("Enter a date between %(first)s and %(last)s."),
            code="implausible_date",
            params={
                "first": EARLIEST_DATE.strftime("%d.%m.%Y"),
                "last": latest.strftime("%d.%m.%Y"),
            },
        )


def validate_birth_year(value: int | None) -> None:
    this_year = timezone.localdate().year
    if value is not None and not 1900 <= value <= this_year:
        raise forms.ValidationError(
            gettext_lazy("Enter a birth year between 1900 and %(year)d."),
            code="implausible_birth_year",
            params={"year": this_year},
        )


class PlausibleDatesMixin:
    """Every date field of the form within 1900 .. ten years ahead; ``birth_year`` fields
    between 1900 and this year."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if isinstance(field, forms.DateField):
                field.validators.append(validate_plausible_date)
            elif name == "birth_year" and isinstance(field, forms.IntegerField):
                field.validators.append(validate_birth_year)
