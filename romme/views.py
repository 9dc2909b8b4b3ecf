from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from clubs.permissions import clubs_with_role


def home(request):
    clubs = []
    if request.user.is_authenticated:
        clubs = clubs_with_role(request.user).order_by("name")
    return render(request, "home.html", {"my_clubs": clubs})


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico on pages without a <link rel=icon> (PDF viewers, feeds)."""
    # Not permanent: with hashed static names the target changes with each release.
    return redirect(static("favicon.svg"))
