"""Event, participant, pair/team, series, seating and season pages.

Thin: forms validate input, services write (and check the role themselves), selectors read.
Forms that write answer 403 on GET too, for anyone who may not use them.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubs import selectors as club_selectors
from clubs.models import Club
from clubs.permissions import ORGANISER, VIEWER, clubs_with_role, has_role, require_role
from clubs.services import DuplicatePlayer
from common.forms import add_validation_errors
from common.once import Once
from common.safety import safe_next
from tournaments import registration, selectors, services
from tournaments import seating as seating_service
from tournaments.filters import EventFilter
from tournaments.forms import (
    EventForm,
    GroupForm,
    NewPlayerForm,
    ParticipantListForm,
    PlayerSearchForm,
    SeriesForm,
    SwapForm,
    WithdrawForm,
)
from tournaments.models import Event, Group, Participant, Series
from tournaments.tables import EventTable, ParticipantTable


def _message_errors(request, error: ValidationError):
    messages.error(request, " ".join(error.messages))


def _event(pk) -> Event:
    return get_object_or_404(Event.objects.select_related("club", "season"), pk=pk)


def _participant(pk) -> Participant:
    return get_object_or_404(Participant.objects.select_related("event__club", "player"), pk=pk)


def _series(pk) -> Series:
    return get_object_or_404(Series.objects.select_related("event__club"), pk=pk)


# Events


@login_required
def event_list(request):
    event_filter = EventFilter(request.GET or None, queryset=selectors.event_list())
    table = EventTable(event_filter.qs)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "tournaments/event_list.html",
        {
            "filter": event_filter,
            "table": table,
            "can_create": clubs_with_role(request.user, ORGANISER).exists(),
        },
    )


@login_required
def event_create(request):
    clubs = clubs_with_role(request.user, ORGANISER)
    if not clubs.exists():
        raise PermissionDenied(_("You need the role “organiser” in a club to create events."))
    form = EventForm(request.POST or None, clubs=clubs)
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            fields = form.service_fields()
            club = fields.pop("club")
            try:
                event = services.create_event(request.user, club, **fields)
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("Event “%(name)s” created.") % {"name": event.name})
                return once.done(redirect(event))
    return render(request, "tournaments/event_form.html", {"form": form, "title": _("New event")})


@login_required
def event_edit(request, pk):
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    title = event.name  # as stored: a refused form has written what was typed into the instance
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_event(request.user, event, **form.service_fields())
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect(event)
    return render(
        request,
        "tournaments/event_form.html",
        {"form": form, "title": title, "event": event},
    )


@login_required
def event_detail(request, pk):
    event = _event(pk)
    is_organiser = has_role(request.user, event.club, ORGANISER)
    series = list(selectors.series_of(event))
    next_series = next(
        (s.number for s in series if s.status == Series.Status.PLANNED),
        (series[-1].number + 1) if series else 1,
    )
    table = ParticipantTable(selectors.participants_of(event))
    RequestConfig(request, paginate=False).configure(table)
    ruleset = event.ruleset
    context = {
        "event": event,
        "ruleset": ruleset,
        "overrides": sorted(event.ruleset_overrides.items()),
        "table": table,
        "counts": selectors.participant_counts(event),
        "groups": selectors.groups_of(event),
        "series_list": series,
        "next_series": next_series,
        "is_organiser": is_organiser,
        # The exports' menu asks for a role in the event's club (scoring.exports.views).
        "is_member": is_organiser or has_role(request.user, event.club, VIEWER),
    }
    if is_organiser:
        search = PlayerSearchForm(request.GET or None)
        query = search.cleaned_data["q"] if search.is_valid() else ""
        context.update(
            {
                "search": search,
                "query": query,
                "found": list(selectors.player_search(event, query)) if query else [],
                "list_form": ParticipantListForm(clubs=Club.objects.order_by("name")),
                "history": club_selectors.history_of(event),
            }
        )
    return render(request, "tournaments/event_detail.html", context)


# Participants


@login_required
@require_POST
def participant_add(request, pk):
    """Register the players ticked in the search results (one or many)."""
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    ids = [v for v in request.POST.getlist("player") if v.isdigit() and len(v) < 12]
    if not ids:
        messages.error(request, _("Tick at least one player to register."))
        return redirect(event)
    result = registration.register_players(
        request.user, event, ids, checked_in=bool(request.POST.get("checked_in"))
    )
    _report_registration(request, result)
    return redirect(event)


@login_required
@require_POST
def participant_add_list(request, pk):
    """Register a pasted list of numbers or names, or every active member of a club."""
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    form = ParticipantListForm(request.POST, clubs=Club.objects.all())
    if not form.is_valid():
        _message_errors(request, ValidationError(list(form.errors.values())))
        return redirect(event)
    data = form.cleaned_data
    if data["club"] is not None:
        result = registration.register_club(
            request.user, event, data["club"], checked_in=data["checked_in"]
        )
    else:
        result = registration.register_list(
            request.user, event, data["text"], checked_in=data["checked_in"]
        )
    _report_registration(request, result)
    return redirect(event)


def _report_registration(request, result) -> None:
    if result.registered:
        messages.success(
            request,
            ngettext(
                "%(count)d player registered.",
                "%(count)d players registered.",
                len(result.registered),
            )
            % {"count": len(result.registered)},
        )
    if result.already:
        messages.info(
            request,
            _("Already registered: %(names)s.")
            % {"names": ", ".join(p.full_name for p in result.already)},
        )
    for problem in result.problems:
        messages.warning(request, problem)
    if not (result.registered or result.already or result.problems):
        messages.info(request, _("Nobody to register."))


@login_required
def participant_new(request, pk):
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    form = NewPlayerForm(request.POST or None)
    lookalikes = []
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            try:
                participant = services.register_new_player(request.user, event, **form.cleaned_data)
            except DuplicatePlayer as duplicate:
                lookalikes = duplicate.candidates
                data = request.POST.copy()
                data["allow_lookalike"] = "on"
                form = NewPlayerForm(data)
                form.is_valid()
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(
                    request,
                    _("%(name)s added to the registry and registered.")
                    % {"name": participant.player.full_name},
                )
                return once.done(redirect(event))
    return render(
        request,
        "tournaments/participant_form.html",
        {"form": form, "event": event, "lookalikes": lookalikes},
    )


@login_required
@require_POST
def participant_check_in(request, pk):
    participant = _participant(pk)
    checked_in = request.POST.get("checked_in") == "1"
    try:
        services.set_checked_in(request.user, participant, checked_in)
    except ValidationError as error:
        _message_errors(request, error)
    return redirect(participant.event)


@login_required
@require_POST
def participant_withdraw(request, pk):
    participant = _participant(pk)
    require_role(request.user, participant.event.club, ORGANISER)
    form = WithdrawForm(request.POST)
    if form.is_valid():
        try:
            services.withdraw_participant(
                request.user, participant, form.cleaned_data["from_series"]
            )
        except ValidationError as error:
            _message_errors(request, error)
        else:
            messages.success(
                request,
                _("%(name)s withdrawn from series %(number)d on.")
                % {
                    "name": participant.player.full_name,
                    "number": participant.withdrawn_from_series,
                },
            )
    else:
        messages.error(request, _("Enter the first series the player does not play."))
    return redirect(participant.event)


@login_required
@require_POST
def participant_reinstate(request, pk):
    participant = _participant(pk)
    try:
        services.undo_withdrawal(request.user, participant)
    except ValidationError as error:
        _message_errors(request, error)
    else:
        messages.success(
            request, _("%(name)s plays again.") % {"name": participant.player.full_name}
        )
    return redirect(participant.event)


@login_required
@require_POST
def participant_remove(request, pk):
    participant = _participant(pk)
    event = participant.event
    try:
        services.remove_participant(request.user, participant)
    except ValidationError as error:
        _message_errors(request, error)
    else:
        messages.success(request, _("%(name)s removed.") % {"name": participant.player.full_name})
    return redirect(event)


# Pairs and teams


@login_required
def group_create(request, pk):
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    form = GroupForm(request.POST or None, event=event)
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            try:
                group = services.create_group(
                    request.user,
                    event,
                    kind=form.cleaned_data["kind"],
                    name=form.cleaned_data["name"],
                    members=form.members(),
                )
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("%(group)s registered.") % {"group": group})
                return once.done(redirect(event))
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "event": event, "title": _("New pair or team")},
    )


@login_required
@require_POST
def group_delete(request, pk):
    group = get_object_or_404(Group.objects.select_related("event__club"), pk=pk)
    event = group.event
    try:
        services.delete_group(request.user, group)
    except ValidationError as error:
        _message_errors(request, error)
    else:
        messages.success(request, _("%(group)s removed.") % {"group": group})
    return redirect(event)


# Series and seating


@login_required
def series_create(request, pk):
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    form = SeriesForm(
        request.POST or None,
        initial={"planned_rounds": event.rounds_per_series, "day": _last_day(event)},
    )
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            try:
                series = services.create_series(request.user, event, **form.cleaned_data)
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("%(series)s added.") % {"series": series})
                return once.done(redirect(event))
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "event": event, "title": _("New series")},
    )


def _last_day(event: Event) -> int:
    last = event.series.order_by("-number").values_list("day", flat=True).first()
    return last or 1


@login_required
@require_POST
def series_delete(request, pk):
    series = _series(pk)
    event = series.event
    try:
        services.delete_series(request.user, series)
    except ValidationError as error:
        _message_errors(request, error)
    else:
        messages.success(request, _("%(series)s removed.") % {"series": series})
    return redirect(event)


@login_required
def seating(request, pk):
    series = _series(pk)
    is_organiser = has_role(request.user, series.event.club, ORGANISER)
    data = selectors.seating(series)
    context = {
        "series": series,
        "event": series.event,
        "seating": data,
        "is_organiser": is_organiser,
    }
    if is_organiser:
        if series.status == Series.Status.SEATED:
            context["swap_form"] = SwapForm(seats=data.alphabetical)
        context["seat_history"] = selectors.seat_history(series)
    return render(request, "tournaments/seating.html", context)


@login_required
@require_POST
def seat_swap(request, pk):
    series = _series(pk)
    require_role(request.user, series.event.club, ORGANISER)
    form = SwapForm(request.POST, seats=selectors.seating(series).alphabetical)
    if form.is_valid():
        try:
            seating_service.swap_seats(
                request.user, series, form.cleaned_data["player_a"], form.cleaned_data["player_b"]
            )
        except ValidationError as error:
            _message_errors(request, error)
        else:
            messages.success(request, _("Seats swapped."))
    else:
        messages.error(request, _("Choose two different seated players."))
    return redirect("tournaments:seating", pk=series.pk)


@login_required
@require_POST
def series_start(request, pk):
    series = _series(pk)
    try:
        services.start_series(request.user, series)
    except ValidationError as error:
        _message_errors(request, error)
    else:
        messages.success(request, _("%(series)s started.") % {"series": series})
    return _back(request, series)


@login_required
@require_POST
def series_complete(request, pk):
    series = _series(pk)
    ask = request.POST.get("open_tables") != "ok"
    try:
        services.complete_series(request.user, series, ask_if_open=ask)
    except services.OpenTables as still_open:
        back = safe_next(request, series.event.get_absolute_url())
        context = {"series": series, "open_tables": still_open.numbers, "back": back}
        return render(request, "tournaments/complete_open.html", context)
    except ValidationError as error:
        _message_errors(request, error)
    else:
        messages.success(request, _("%(series)s completed.") % {"series": series})
    return _back(request, series)


def _back(request, series: Series):
    """To the page the form was posted from (same host only), else the event."""
    return redirect(safe_next(request, series.event.get_absolute_url()))


# Seasons
