"""The categories page of an event (organisers only): categories with their age limits,
who is in which (the registry or the director's word), and disqualifications.

Thin: ``tournaments.categories`` writes (checking the role itself) and reads.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.permissions import ORGANISER, require_role
from common.forms import parse_int
from tournaments import categories as services
from tournaments.models import Category, Event, Participant

CHOICE_VALUES = {"auto": None, "in": True, "out": False}


def _event(pk) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=pk)


def _errors(request, error: ValidationError) -> None:
    messages.error(request, " ".join(error.messages))


def _page(event: Event) -> str:
    return reverse("tournaments:categories", args=[event.pk])


@login_required
def categories(request, pk):
    """GET: the page. POST: add a category (or the standard ones)."""
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    if request.method == "POST":
        try:
            if "standard" in request.POST:
                added = services.add_standard_categories(request.user, event)
                if added:
                    messages.success(
                        request,
                        _("Added: %(names)s.") % {"names": ", ".join(c.name for c in added)},
                    )
                else:
                    messages.info(request, _("The event has the standard categories already."))
            else:
                category = services.add_category(
                    request.user,
                    event,
                    request.POST.get("name", ""),
                    request.POST.get("kind", Category.Kind.CUSTOM),
                    request.POST.get("age_limit", "").strip() or None,
                )
                messages.success(request, _("Category “%(name)s” added.") % {"name": category})
        except ValidationError as error:
            _errors(request, error)
        return redirect(_page(event))
    page = services.category_page(event, request.GET.get("sort", "name"))
    return render(
        request,
        "tournaments/categories.html",
        {
            "event": event,
            **page,
            "kinds": Category.Kind.choices,
            "headers": [
                ("name", _("Player")),
                ("number", _("Number")),
                ("club", _("Club")),
                ("gender", _("Gender")),
                ("birth_year", _("Birth year")),
            ],
            "reason_max": services.REASON_MAX,
        },
    )


@login_required
@require_POST
def category_edit(request, pk):
    """Rename a category, change its age limit, or delete it (``delete`` in the POST)."""
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    category = get_object_or_404(
        Category, event=event, pk=parse_int(request.POST.get("category")) or 0
    )
    category.event = event
    try:
        if "delete" in request.POST:
            services.delete_category(request.user, category)
            messages.success(request, _("Category “%(name)s” deleted.") % {"name": category})
        else:
            services.update_category(
                request.user,
                category,
                name=request.POST.get("name", ""),
                age_limit=request.POST.get("age_limit", "").strip() or None,
            )
            messages.success(request, _("Category “%(name)s” saved.") % {"name": category})
    except ValidationError as error:
        _errors(request, error)
    return redirect(_page(event))


@login_required
@require_POST
def category_choices(request, pk):
    """The table's selects: ``choice-<category id>-<participant id>`` = auto, in or out."""
    event = _event(pk)
    require_role(request.user, event.club, ORGANISER)
    wanted = {}
    for name, value in request.POST.items():
        if not name.startswith("choice-"):
            continue
        parts = name.split("-")
        ids = [parse_int(x) for x in parts[1:]]
        if len(ids) != 2 or None in ids or value not in CHOICE_VALUES:
            messages.error(request, _("The choice “%(name)s” is not understood.") % {"name": name})
            return redirect(_page(event))
        wanted[(ids[0], ids[1])] = CHOICE_VALUES[value]
    try:
        changed = services.set_category_choices(request.user, event, wanted)
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("Choices saved: %(count)d changed.") % {"count": changed})
    return redirect(_page(event))


def _participant(pk) -> Participant:
    return get_object_or_404(Participant.objects.select_related("event__club", "player"), pk=pk)


@login_required
@require_POST
def participant_disqualify(request, pk):
    participant = _participant(pk)
    require_role(request.user, participant.event.club, ORGANISER)
    try:
        services.disqualify(request.user, participant, request.POST.get("reason", ""))
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(
            request, _("%(name)s is disqualified.") % {"name": participant.player.full_name}
        )
    return redirect(_page(participant.event))


@login_required
@require_POST
def participant_requalify(request, pk):
    participant = _participant(pk)
    require_role(request.user, participant.event.club, ORGANISER)
    services.undo_disqualification(request.user, participant)
    messages.success(
        request,
        _("The disqualification of %(name)s is lifted.") % {"name": participant.player.full_name},
    )
    return redirect(_page(participant.event))
