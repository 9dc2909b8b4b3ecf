"""Pages of rankings, the ranking status and the review of event versions. Thin: forms
parse, services write (and check the role again), selectors read. 404 for what the user
may not see, 403 for what they see but may not do (federation.associations.permissions)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.permissions import ORGANISER, has_role
from common.forms import add_validation_errors
from common.once import Once
from federation.associations.models import Association
from federation.associations.permissions import can_manage, require_manage, require_view
from federation.rankings import selectors as rs
from federation.rankings import services as ranking_services
from federation.rankings import status_services
from federation.rankings.forms import DecisionForm, NoteForm, RankingForm, StatusRequestForm
from federation.rankings.models import EventVersion, Ranking, RankingStatus
from tournaments.models import Event


def _ranking(request, pk, *, manage=False) -> Ranking:
    ranking = get_object_or_404(Ranking.objects.select_related("association"), pk=pk)
    require_view(request.user, ranking.association)
    if manage:
        require_manage(request.user, ranking.association)
    return ranking


def _fail(request, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@login_required
def ranking_list(request):
    rankings = rs.rankings_visible(request.user)
    managed = list(_managed(request.user))
    return render(
        request, "federation/rankings/list.html", {"rankings": rankings, "managed": managed}
    )


def _managed(user):
    from federation.associations.permissions import associations_for

    return associations_for(user, "officer").order_by("name")


@login_required
def ranking_create(request, pk):
    association = get_object_or_404(Association, pk=pk)
    require_view(request.user, association)
    require_manage(request.user, association)
    form = RankingForm(request.POST or None)
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                ranking = ranking_services.create_ranking(
                    request.user, association, name=data["name"], settings=data["settings"],
                    as_of=data["as_of"], public=data["public"], reason=data["reason"],
                )  # fmt: skip
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("Ranking “%(name)s” created.") % {"name": ranking.name})
                return once.done(redirect("federation:ranking_detail", ranking.pk))
    title = _("New ranking of %(association)s") % {"association": association.name}
    return render(request, "federation/rankings/form.html", {"form": form, "title": title})


@login_required
def ranking_edit(request, pk):
    ranking = _ranking(request, pk, manage=True)
    form = RankingForm.for_ranking(ranking, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            ranking_services.update_ranking(
                request.user, ranking, name=data["name"], settings=data["settings"],
                as_of=data["as_of"], public=data["public"], reason=data["reason"],
            )  # fmt: skip
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Ranking saved; it is being computed again."))
            return redirect("federation:ranking_detail", ranking.pk)
    title = _("Edit ranking %(name)s") % {"name": ranking.name}
    context = {"form": form, "title": title, "ranking": ranking}
    return render(request, "federation/rankings/form.html", context)


@login_required
def ranking_detail(request, pk):
    sort = request.GET.get("sort", "rank")
    page = rs.ranking_page(request.user, _ranking(request, pk), sort, request.GET.get("page"))
    return render(request, "federation/rankings/detail.html", {"page": page})


@login_required
@require_POST
def ranking_recompute(request, pk):
    ranking = _ranking(request, pk, manage=True)
    ranking_services.ask_recompute(request.user, ranking)
    messages.success(request, _("The ranking is being computed again; reload in a moment."))
    return redirect("federation:ranking_detail", ranking.pk)


@login_required
def ranking_history(request, pk):
    ranking = _ranking(request, pk)
    context = {
        "ranking": ranking,
        "versions": rs.ranking_versions(ranking),
        "changes": ranking.history.select_related("history_user").order_by("-history_date")[:100],
    }
    return render(request, "federation/rankings/history.html", context)


@login_required
def review_queue(request):
    queue = rs.review_queue(request.user)
    # Four eyes: the user's own requests and submissions wait for someone else.
    for status in queue["requests"]:
        status.own = status_services.own_request(request.user, status)
    for version in queue["waiting"]:
        version.own = status_services.own_submission(request.user, version)
    return render(request, "federation/rankings/status_queue.html", queue)


# Ranking status


def _status(request, pk) -> RankingStatus:
    status = get_object_or_404(
        RankingStatus.objects.select_related("event__club", "ranking__association"), pk=pk
    )
    if not rs.may_see_status(request.user, status):
        raise Http404(_("No such ranking status."))
    return status


@login_required
@require_POST
def status_request(request, event_pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_pk)
    if not has_role(request.user, event.club, ORGANISER):
        raise PermissionDenied(_("Only the club's organisers may ask for ranking status."))
    form = StatusRequestForm(
        request.POST, rankings=status_services.rankings_for_club(event.club_id)
    )
    if form.is_valid():
        data = form.cleaned_data
        try:
            status_services.request_status(
                request.user, event, data["ranking"], event_class=data["event_class"],
                reason=data["reason"],
            )  # fmt: skip
        except ValidationError as error:
            _fail(request, error)
        else:
            messages.success(request, _("Ranking status requested."))
    else:
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, message)
    return redirect(event)


@login_required
def status_detail(request, pk):
    status = _status(request, pk)
    officer = can_manage(request.user, status.ranking.association)
    # The service refuses the requester's decision; the page only mirrors it.
    own = officer and status_services.own_request(request.user, status)
    context = {
        "status": status,
        "versions": status.versions.select_related("submitted_by", "reviewed_by"),
        "can_decide": officer and not own,
        "own_request": own,
        "can_submit": has_role(request.user, status.event.club, ORGANISER),
        "decision_form": DecisionForm(),
    }
    return render(request, "federation/rankings/status_detail.html", context)


@login_required
@require_POST
def status_decide(request, pk):
    status = _status(request, pk)
    require_manage(request.user, status.ranking.association)
    form = DecisionForm(request.POST)
    if form.is_valid():
        try:
            status_services.decide_status(
                request.user, status, grant=form.cleaned_data["decision"] == "grant",
                reason=form.cleaned_data["reason"],
            )  # fmt: skip
        except ValidationError as error:
            _fail(request, error)
        else:
            messages.success(request, _("Decision saved."))
    else:
        messages.error(request, _("Choose grant or refuse."))
    return redirect("federation:status_detail", status.pk)


@login_required
@require_POST
def status_submit(request, pk):
    status = _status(request, pk)
    if not has_role(request.user, status.event.club, ORGANISER):
        raise PermissionDenied(_("Only the club's organisers may submit the event."))
    try:
        version = status_services.submit_event(request.user, status)
    except ValidationError as error:
        _fail(request, error)
        return redirect("federation:status_detail", status.pk)
    messages.success(
        request, _("Version %(number)d submitted for review.") % {"number": version.number}
    )
    return redirect("federation:version_detail", version.pk)


# Versions


def _version_of(request, pk) -> EventVersion:
    version = get_object_or_404(
        EventVersion.objects.select_related(
            "status__event__club", "status__ranking__association", "submitted_by"
        ),
        pk=pk,
    )
    if not rs.may_see_status(request.user, version.status):
        raise Http404(_("No such version."))
    return version


@login_required
def version_detail(request, pk):
    version = _version_of(request, pk)
    from clubs.models import Player

    names = {
        p.pk: f"{p.given_name} {p.family_name}"
        for p in Player.objects.filter(pk__in=[r["player"] for r in version.results[:50]])
    }
    top = [r | {"name": names.get(r["player"], "?")} for r in version.results[:50]]
    reviewer = (
        can_manage(request.user, version.status.ranking.association)
        and version.state == EventVersion.State.PENDING
    )
    own = reviewer and status_services.own_submission(request.user, version)
    context = {
        "version": version,
        "top": top,
        "can_review": reviewer and not own,
        "own_submission": own,
        "note_form": NoteForm(),
    }
    return render(request, "federation/rankings/status_version.html", context)


@login_required
@require_POST
def version_review(request, pk, action):
    version = _version_of(request, pk)
    require_manage(request.user, version.status.ranking.association)
    form = NoteForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    try:
        if action == "approve":
            status_services.approve_version(request.user, version, note=note)
            messages.success(request, _("Approved; the ranking is being computed again."))
        else:
            status_services.reject_version(request.user, version, note=note)
            messages.success(request, _("Rejected."))
    except ValidationError as error:
        _fail(request, error)
    return redirect("federation:version_detail", version.pk)
