"""Pages of the submissions (issue 27, point 4). Thin: forms parse, services write and
check the role again. The officer's matching list and one player's decision; the club
tokens (organisers and the region's officer); the form on an event that sends it to the
federation (the club's organisers, on their own installation)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.models import Club, Player
from clubs.permissions import ORGANISER, require_role
from common.forms import add_validation_errors
from federation.associations.services import REASON_MAX
from federation.submissions import client as submit_client
from federation.submissions import club_tokens as token_services
from federation.submissions import selectors as submit_selectors
from federation.submissions import services as submissions
from federation.submissions.models import PlayerMatch, Submission
from live.models import LiveToken
from tournaments.models import Event


class DecideForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("match", gettext_lazy("match")), ("create", gettext_lazy("create"))]
    )
    player = forms.IntegerField(label=gettext_lazy("Player here"), required=False, min_value=1)
    player_number = forms.CharField(
        label=gettext_lazy("Player number of the new player"), max_length=30, required=False
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=REASON_MAX)


class TokenForm(forms.Form):
    label = forms.CharField(label=gettext_lazy("Label"), max_length=100, required=False)


class SendForm(forms.Form):
    server_url = forms.CharField(
        label=gettext_lazy("Address of the federation's server"),
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": "https://verband.example.org"}),
    )
    token = forms.CharField(
        label=gettext_lazy("Club token"), max_length=200, widget=forms.PasswordInput
    )


@login_required
def matching_list(request):
    """The officer's list: open players of submissions from clubs of their subtree."""
    waiting = list(submit_selectors.waiting_submissions(request.user))
    return render(request, "federation/submissions/matching_list.html", {"waiting": waiting})


def _row(request, pk) -> PlayerMatch:
    row = submit_selectors.match_row(pk)
    if row is None or not submissions.may_match(request.user, row.submission):
        raise Http404(_("No such player to match."))
    return row


@login_required
def matching_row(request, pk):
    row = _row(request, pk)
    form = DecideForm(request.POST or None, initial={"player_number": row.player_number})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["action"] == "match":
                player = Player.objects.filter(pk=data["player"] or 0).first()
                if player is None:
                    raise ValidationError({"player": _("Choose a player here.")})
                taken = submissions.match_player(
                    request.user, row, player, reason_text=data["reason"]
                )
            else:
                taken = submissions.create_player(
                    request.user,
                    row,
                    player_number=data["player_number"] or row.player_number,
                    reason_text=data["reason"],
                )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            if taken is not None:
                messages.success(request, taken.message)
            else:
                messages.success(request, _("Decided. Other players of the event are still open."))
            return redirect("federation_submit:matching_list")
    context = {
        "row": row,
        "form": form,
        "query": request.GET.get("q", "")[:100],
        "candidates": submit_selectors.candidates(row, request.GET.get("q", ""))
        if row.submission.state == Submission.State.MATCHING
        else [],
    }
    status = 400 if form.errors else 200
    return render(request, "federation/submissions/matching_row.html", context, status=status)


@login_required
def club_tokens(request, pk):
    club = get_object_or_404(Club.objects.select_related("affiliation"), pk=pk)
    token_services.require_tokens(request.user, club)
    form = TokenForm(request.POST or None)
    shown = None
    if request.method == "POST" and form.is_valid():
        _token, shown = token_services.make(request.user, club, label=form.cleaned_data["label"])
        form = TokenForm()
    context = {
        "club": club,
        "form": form,
        "shown": shown,
        "tokens": token_services.club_tokens(club),
    }
    return render(request, "federation/submissions/tokens.html", context)


@login_required
@require_POST
def token_revoke(request, pk):
    token = get_object_or_404(LiveToken.objects.select_related("club"), pk=pk)
    if not token_services.may_manage_tokens(request.user, token.club):
        raise PermissionDenied(_("Only the club's organisers or the region's officer may do this."))
    token_services.revoke(request.user, token, request.POST.get("reason", ""))
    messages.success(request, _("Token %(prefix)s… revoked.") % {"prefix": token.prefix})
    return redirect("federation_submit:club_tokens", pk=token.club_id)


def _session_key(event_pk: int) -> str:
    return f"federation-submit-{event_pk}"


@login_required
def event_submit(request, pk):
    """ "An den Verband senden": the event's archive to the federation's installation. The
    server answers at once and reads it in its worker; the page then shows its state on
    `event_submit_status` (the address, token and submission kept in the session, which is
    stored on the server, until the state is final)."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    form = SendForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            sent = submit_client.submit(event, data["server_url"], data["token"], wait=False)
            if sent.pending and sent.submission is not None:
                request.session[_session_key(event.pk)] = {
                    "url": data["server_url"].strip(),
                    "token": data["token"].strip(),
                    "submission": sent.submission,
                }
                return redirect("federation_submit:event_submit_status", pk=event.pk)
            if sent.ok:
                messages.success(request, sent.message or _("The federation took the event in."))
                return redirect("tournaments:event_detail", pk=event.pk)
            form.add_error(None, sent.message)
    return render(
        request, "federation/submissions/event.html", {"event": event, "form": form}, status=status
    )


@login_required
def event_submit_status(request, pk):
    """The state of the event's last sending from this session, asked once per load (the
    page reloads itself while the federation's worker reads the event)."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    kept = request.session.get(_session_key(event.pk))
    if not isinstance(kept, dict):
        messages.info(request, _("Nothing of this event is waiting at the federation's server."))
        return redirect("federation_submit:event_submit", pk=event.pk)
    sent = submit_client.ask(kept["url"], kept["token"], kept["submission"], timeout=5.0)
    if not sent.pending and sent.status:  # final: the token is not kept any longer
        del request.session[_session_key(event.pk)]
    context = {"event": event, "sent": sent, "submission": kept["submission"]}
    return render(request, "federation/submissions/event_status.html", context)


@login_required
def submission_detail(request, pk):
    """A submission on the federation's installation (the archive upload leads here)."""
    submission = submit_selectors.visible_submission(request.user, pk)
    if submission is None:
        raise Http404(_("No such submission."))
    context = {
        "submission": submission,
        "pending": submission.state == Submission.State.RECEIVED,
        "may_match": submissions.may_match(request.user, submission),
    }
    return render(request, "federation/submissions/status.html", context)
