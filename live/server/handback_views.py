"""The server's pages of a hand-back (``live.server.handback``): give an event this server holds
back to a laptop (a confirmation, a reason; the token shown once with the event archive to
download), and cancel a hand-back no laptop has answered. Thin: the writes are the
service's; the club's directors only (checked here and in the service)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from clubs.permissions import ORGANISER, require_role
from common.forms import add_validation_errors
from live.models import ReceivedEvent
from live.server import handback, services


class HandBackForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=handback.MAX_REASON_CHARS,
        help_text=gettext_lazy(
            "Kept in the event's history, e.g. “the hall's network works again”."
        ),
    )
    label = forms.CharField(
        label=gettext_lazy("Label of the token"),
        max_length=100,
        required=False,
        help_text=gettext_lazy("To recognise the token later, e.g. “Laptop Saal 1”."),
    )
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "I give the event back: from now on it is changed only on the laptop, here it "
            "can only be read."
        )
    )


class CancelForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=handback.MAX_REASON_CHARS,
        help_text=gettext_lazy("Kept in the event's history, e.g. “the laptop does not start”."),
    )
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "I cancel the hand-back: its token is revoked, this server holds the event."
        )
    )


def _received(request, pk) -> ReceivedEvent:
    received = get_object_or_404(
        ReceivedEvent.objects.select_related("event__club", "token", "taken_over_by"),
        event_id=pk,
    )
    require_role(request.user, received.event.club, ORGANISER)
    return received


def _server_address(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


@login_required
@never_cache
def hand_back(request, pk):
    """The confirmation, then the token (shown on this answer only) and the archive."""
    received = _received(request, pk)
    event = received.event
    form = HandBackForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                done, secret = handback.hand_back(
                    request.user, received, form.cleaned_data["reason"], form.cleaned_data["label"]
                )
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                # The secret is on this answer only, never stored: no redirect to lose it.
                return render(
                    request,
                    "live/server_hand_back_done.html",
                    {
                        "event": event,
                        "handback": done,
                        "secret": secret,
                        "server_url": _server_address(request),
                        "is_organiser": True,
                    },
                )
        status = 400
    waiting = services.waiting_handback(received)
    return render(
        request,
        "live/server_hand_back.html",
        {
            "event": event,
            "received": received,
            "form": form,
            "held": received.owner == ReceivedEvent.Owner.SERVER,
            "waiting": services.handed_back_message(waiting) if waiting else "",
        },
        status=status,
    )


@login_required
def hand_back_cancel(request, pk):
    received = _received(request, pk)
    event = received.event
    waiting = services.waiting_handback(received)
    form = CancelForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                handback.cancel(request.user, received, form.cleaned_data["reason"])
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(
                    request,
                    _(
                        "The hand-back is cancelled: its token is revoked, this server "
                        "holds the event."
                    ),
                )
                return redirect(event.get_absolute_url())
        status = 400
    return render(
        request,
        "live/server_hand_back_cancel.html",
        {
            "event": event,
            "form": form,
            "waiting": services.handed_back_message(waiting) if waiting else "",
        },
        status=status,
    )
