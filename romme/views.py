from pathlib import Path

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.permissions import clubs_with_role
from common.safety import safe_referer
from common.version import __version__
from hall import selectors as hall_selectors


def app_version(request) -> dict:
    """The footer's version (a context processor): the one in common.version."""
    return {"APP_VERSION": __version__}


def home(request):
    if settings.HALL_MODE and not getattr(request, "hall_laptop", True):
        # A phone in the hall: the published results, and how to reach a table's sheet.
        from hall.access import flags

        context = {
            "events": hall_selectors.phone_events(),
            "remote_direction": flags.remote_direction(),
        }
        if not (context["remote_direction"] and request.user.is_authenticated):
            return render(request, "hall/phone_home.html", context)
    clubs = []
    if request.user.is_authenticated:
        clubs = clubs_with_role(request.user).order_by("name")
    return render(request, "home.html", {"my_clubs": clubs, "hall": hall_selectors.start_panel()})


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico on pages without a <link rel=icon> (PDF viewers, feeds)."""
    # Not permanent: with hashed static names the target changes with each release.
    return redirect(static("favicon.svg"))


def csrf_failure(request, reason=""):
    """CSRF_FAILURE_VIEW. Nearly always harmless: the form's page was opened before the user
    logged in again (in another tab), or the browser dropped its cookie. static/js/app.js sends
    the cookie's current token with every form, so what still comes here had no cookie or no
    script. Nothing was saved, and the page says how to send it again; a phone's queued hand
    gets JSON and stays queued on the phone (static/js/table.js)."""

    def said(language: str) -> str:
        with translation.override(language):
            return _(
                "This page was no longer valid, so nothing was saved. Reload the page: "
                "the hands stay on this device and are sent then."
            )

    if "application/json" in request.headers.get("Accept", ""):
        body = {"stale_page": True, "message": said("de"), "message_en": said("en")}
        return JsonResponse(body, status=403)
    return render(request, "403_csrf.html", {"again": safe_referer(request)}, status=403)


def doctor(request):
    """The doctor's report (romme.doctor) on the hall's start page: the laptop only (the
    hall's middleware keeps /hall/ from other devices)."""
    from django.http import Http404

    from romme import doctor as checks

    if not settings.HALL_MODE:
        raise Http404
    report = checks.report(Path(settings.HALL_DATA_DIR), settings.HALL_PORT, hall_running=True)
    return render(
        request,
        "hall/doctor.html",
        {"checks": report, "can_run": checks.can_run(report), "version": __version__},
    )
