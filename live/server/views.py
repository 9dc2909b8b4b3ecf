"""The server's live pages: a club's tokens ("Live-Empfang") and the take-over of an event
a laptop sends. Thin: the writes are ``live.server.tokens`` and ``live.server.services``."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.permissions import ORGANISER, require_role
from common.forms import add_validation_errors
from live.models import LiveToken, ReceivedEvent
from live.server import services, tokens
from tournaments.models import Event


class TokenForm(forms.Form):
    label = forms.CharField(
        label=gettext_lazy("Label"),
        max_length=100,
        required=False,
        help_text=gettext_lazy("To recognise the token later, e.g. “Laptop Saal 1”."),
    )
    event = forms.ModelChoiceField(
        label=gettext_lazy("For the event"),
        queryset=Event.objects.none(),
        required=False,
        empty_label=gettext_lazy("a new event (its first push creates it)"),
        help_text=gettext_lazy(
            "An event received already: a new token for the same laptop, e.g. after "
            "revoking the old one."
        ),
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = Event.objects.filter(
            club=club, live_source__isnull=False
        ).order_by("-start_date", "name")


class TakeOverForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=services.MAX_REASON_CHARS,
        help_text=gettext_lazy("Kept in the event's history, e.g. “laptop broken”."),
    )
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "I take the event over: from now on the laptop's changes are refused here."
        )
    )


def _club_page(request, club, form, secret=None, status=200):
    rows = (
        LiveToken.objects.filter(club=club)
        .select_related("event", "created_by", "revoked_by")
        .order_by("-created_at")
    )
    return render(
        request,
        "live/server_tokens.html",
        {"club": club, "form": form, "tokens": rows, "secret": secret},
        status=status,
    )


@login_required
@never_cache
def club_tokens(request, pk):
    """The club's live tokens: list, make (the secret shown once), revoke."""
    club = get_object_or_404(Club, pk=pk)
    require_role(request.user, club, ORGANISER)
    form = TokenForm(request.POST or None, club=club)
    if request.method != "POST":
        return _club_page(request, club, form)
    if form.is_valid():
        try:
            token, secret = tokens.make_token(
                request.user,
                club,
                event=form.cleaned_data["event"],
                label=form.cleaned_data["label"],
            )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            # Shown on this answer only, never stored: no redirect that would lose it.
            return _club_page(request, club, TokenForm(club=club), secret=(token, secret))
    return _club_page(request, club, form, status=400)


@login_required
@require_POST
def token_revoke(request, pk):
    token = get_object_or_404(LiveToken.objects.select_related("club"), pk=pk)
    require_role(request.user, token.club, ORGANISER)
    tokens.revoke_token(request.user, token, request.POST.get("reason", "")[:300])
    messages.success(request, _("The token “%(prefix)s…” is revoked.") % {"prefix": token.prefix})
    return redirect("live:club_tokens", pk=token.club_id)


@login_required
def take_over(request, pk):
    """The confirmation and the take-over of an event received from a laptop."""
    received = get_object_or_404(
        ReceivedEvent.objects.select_related("event__club", "token", "taken_over_by"),
        event_id=pk,
    )
    event = received.event
    require_role(request.user, event.club, ORGANISER)
    form = TakeOverForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.take_over(request.user, received, form.cleaned_data["reason"])
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(
                    request,
                    _(
                        "The event is taken over: this server holds it now; the laptop's "
                        "changes are refused."
                    ),
                )
                return redirect(event.get_absolute_url())
        status = 400
    return render(
        request,
        "live/server_take_over.html",
        {
            "event": event,
            "received": received,
            "form": form,
            "owner": services.owner_text(received),
            "taken_over": (
                services.taken_over_message(received)
                if received.owner == ReceivedEvent.Owner.SERVER
                else ""
            ),
        },
        status=status,
    )
