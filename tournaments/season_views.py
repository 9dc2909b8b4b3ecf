"""Pages of a club's seasons: list, create, edit (the season ranking itself is a standings
page, `scoring.standings.views.season_ranking`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from clubs.models import Club
from clubs.permissions import ORGANISER, clubs_with_role, require_role
from common.forms import add_validation_errors
from common.once import Once
from tournaments import selectors, services
from tournaments.forms import (
    SeasonForm,
)
from tournaments.models import Season
from tournaments.tables import SeasonTable


@login_required
def season_list(request):
    table = SeasonTable(selectors.season_list())
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "tournaments/season_list.html",
        {
            "table": table,
            "organiser_clubs": list(clubs_with_role(request.user, ORGANISER)),
            "organiser_club_ids": set(
                clubs_with_role(request.user, ORGANISER).values_list("pk", flat=True)
            ),
        },
    )


@login_required
def season_create(request, club_pk):
    club = get_object_or_404(Club, pk=club_pk)
    require_role(request.user, club, ORGANISER)
    form = SeasonForm(request.POST or None)
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            try:
                season = services.create_season(request.user, club, **form.cleaned_data)
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("Season “%(name)s” created.") % {"name": season.name})
                return once.done(redirect("tournaments:season_list"))
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "title": _("New season of %(club)s") % {"club": club.name}},
    )


@login_required
def season_edit(request, pk):
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    require_role(request.user, season.club, ORGANISER)
    title = str(season)  # as stored (see tournaments.views.event_edit)
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_season(request.user, season, **form.cleaned_data)
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("tournaments:season_list")
    return render(request, "tournaments/form.html", {"form": form, "title": title})
