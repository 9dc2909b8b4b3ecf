"""The hall mode's own pages: the first start, the Saal-Anleitung and the hall settings.
All of them open on the laptop only (hall.access)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import auth
from common.forms import add_validation_errors
from hall import selectors, services
from hall.access import flags
from hall.forms import FirstStartForm, HallSettingsForm


def _hall_only(request) -> None:
    if not settings.HALL_MODE:
        raise Http404
    if not getattr(request, "hall_laptop", False):
        raise PermissionDenied(_("This page opens on the tournament director's laptop only."))


def setup(request):
    """The first start: the director's account and the club, on the laptop itself."""
    _hall_only(request)
    if flags.set_up():
        return redirect("home")
    form = FirstStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user, _club = services.first_start(
                username=data["username"],
                password=data["password"],
                club_name=data["club_name"],
                club_short_name=data["club_short_name"],
                town=data["town"],
            )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            login(request, user, backend=auth.PATH)
            messages.success(
                request,
                _("Welcome! The laptop is ready. Create the event under “Events”."),
            )
            return redirect("home")
    return render(request, "hall/setup.html", {"form": form})


def guide(request):
    """The Saal-Anleitung: the network in the hall, the phones, when a phone cannot connect."""
    return render(request, "hall/guide.html", {"hall": selectors.start_panel()})


@login_required
@require_POST
def hall_settings(request):
    _hall_only(request)
    form = HallSettingsForm(request.POST, instance=services.load())
    if form.is_valid():
        try:
            services.update_settings(
                request.user,
                remote_direction=form.cleaned_data["remote_direction"],
                backup_folder=form.cleaned_data["backup_folder"],
            )
        except ValidationError as error:
            for text in error.messages:
                messages.error(request, text)
        else:
            messages.success(request, _("Hall settings saved."))
    else:
        for errors in form.errors.values():
            for text in errors:
                messages.error(request, text)
    return redirect("home")
