"""'Live veröffentlichen' on the laptop: the director pairs the event with a server, tests
the connection, starts and stops the sending. Never an error page for a network problem:
the test's outcome is a message on the page."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import ORGANISER, require_role
from live.laptop import sender, services, transport
from live.laptop.status import link_status
from live.models import LiveLink
from tournaments.models import Event

TEST_TIMEOUT_S = 5.0


class PairForm(forms.Form):
    server_url = forms.CharField(
        label=gettext_lazy("Server address"),
        max_length=300,
        help_text=gettext_lazy(
            "e.g. https://ergebnisse.example.de (plain http:// only to localhost)"
        ),
        widget=forms.TextInput(attrs={"autocomplete": "url", "inputmode": "url"}),
    )
    token = forms.CharField(
        label=gettext_lazy("Token"),
        max_length=services.TOKEN_MAX,
        required=False,
        strip=True,
        # The stored token is never shown again; empty keeps it.
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )

    def clean_server_url(self):
        url = self.cleaned_data["server_url"].strip()
        problem = transport.url_problem(url)
        if problem:
            raise ValidationError(problem)
        return url


def _test_connection(link_url: str, token: str, event) -> tuple[int, str]:
    """(message level, German text) of a GET of the event's status on the server."""
    probe = LiveLink(event=event, server_url=link_url, token=token)
    try:
        status, answer = transport.get_json(
            sender.status_url(probe, sender.origin_key()), token, TEST_TIMEOUT_S
        )
    except (OSError, ValueError) as error:
        return messages.ERROR, sender._network_message(error)
    if status == 200:
        last = answer.get("last_seq")
        if isinstance(last, int) and last > 0:
            text = _("Connected: the server holds this event up to change %(seq)s.") % {"seq": last}
        else:
            text = _("Connected: the server accepts the token; it does not hold this event yet.")
        return messages.SUCCESS, text
    if status == 404 and "error" not in answer:
        return messages.ERROR, _(
            "The address answers, but it is not a Rommé Ledger server (HTTP 404)."
        )
    reason = sender._clean(answer.get("error"), 200)
    text = _("The server refused (HTTP %(status)s).") % {"status": status}
    return messages.ERROR, f"{text} {reason}".strip()


@login_required
def publish(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    link = LiveLink.objects.filter(event=event).first()
    initial = {"server_url": link.server_url} if link else {}
    form = PairForm(initial=initial)
    if request.method == "POST":
        action = request.POST.get("action", "save")
        if action in ("stop", "start"):
            try:
                services.set_sending(request.user, event, action == "start")
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                messages.success(
                    request,
                    _("Sending started.") if action == "start" else _("Sending stopped."),
                )
            return redirect("live:publish", pk=event.pk)
        form = PairForm(request.POST)
        if form.is_valid():
            url, token = form.cleaned_data["server_url"], form.cleaned_data["token"]
            if action == "test":
                token = token or (link.token if link else "")
                if not token:
                    form.add_error("token", _("Enter the token the server showed."))
                else:
                    level, text = _test_connection(url, token, event)
                    messages.add_message(request, level, text)
                    return redirect("live:publish", pk=event.pk)
            else:
                try:
                    services.pair(request.user, event, server_url=url, token=token)
                except ValidationError as error:
                    for field, errors in error.message_dict.items():
                        for text in errors:
                            form.add_error(field if field in form.fields else None, text)
                else:
                    messages.success(
                        request, _("Saved. The laptop sends the event to the server now.")
                    )
                    return redirect("live:publish", pk=event.pk)
    return render(
        request,
        "live/laptop_publish.html",
        {"event": event, "link": link, "form": form, "status": link_status(link)},
    )
