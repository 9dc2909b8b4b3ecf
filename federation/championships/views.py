"""Championships and their qualification list, and its print (PDF, XLSX, print page
through the one exporter registry). Thin: forms parse, services write and check the role
again, selectors read. 404 for what the user may not see, 403 for what they see but may not
change (federation.associations.permissions)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from common.forms import add_validation_errors
from common.once import Once
from federation.associations.permissions import require_manage, require_view
from federation.championships import services
from federation.championships.exports import QualificationDoc, QualificationExporter
from federation.championships.forms import (
    ChampionshipForm,
    RemoveForm,
    TitleHoldersForm,
    WildcardForm,
)
from federation.championships.models import Championship, Wildcard
from federation.championships.selectors import qualification_page
from federation.lists.exports import export_response
from federation.rankings.models import Ranking
from federation.rankings.selectors import regions_of


def _ranking(request, pk) -> Ranking:
    ranking = get_object_or_404(Ranking.objects.select_related("association"), pk=pk)
    require_view(request.user, ranking.association)
    return ranking


def _championship(request, pk, *, manage=False) -> Championship:
    championship = get_object_or_404(
        Championship.objects.select_related("ranking__association"), pk=pk
    )
    require_view(request.user, championship.ranking.association)
    if manage:
        require_manage(request.user, championship.ranking.association)
    return championship


def _form_page(request, form, title, back):
    context = {"form": form, "title": title, "back_url": back}
    return render(request, "federation/championships/form.html", context)


@login_required
def championship_create(request, pk):
    ranking = _ranking(request, pk)
    require_manage(request.user, ranking.association)
    form = ChampionshipForm(request.POST or None, regions=regions_of(ranking))
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                championship = services.create_championship(
                    request.user, ranking, name=data["name"],
                    places_per_region=data["places_per_region"], region_places=form.region_places(),
                    reserves_per_region=data["reserves_per_region"], reason=data["reason"],
                )  # fmt: skip
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(
                    request, _("Championship “%(name)s” created.") % {"name": data["name"]}
                )
                return once.done(redirect("federation:championship_detail", championship.pk))
    title = _("New championship from %(ranking)s") % {"ranking": ranking.name}
    return _form_page(request, form, title, reverse("federation:ranking_lines", args=[pk]))


@login_required
def championship_edit(request, pk):
    championship = _championship(request, pk, manage=True)
    regions = regions_of(championship.ranking)
    form = ChampionshipForm(request.POST or None, regions=regions, championship=championship)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.update_championship(
                request.user, championship, name=data["name"],
                places_per_region=data["places_per_region"], region_places=form.region_places(),
                reserves_per_region=data["reserves_per_region"], reason=data["reason"],
            )  # fmt: skip
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Championship saved."))
            return redirect("federation:championship_detail", championship.pk)
    title = _("Edit championship %(name)s") % {"name": championship.name}
    return _form_page(request, form, title, reverse("federation:championship_detail", args=[pk]))


def _detail(request, championship, **forms):
    page = qualification_page(request.user, championship)
    context = {"q": page, "championship": championship}
    if page.can_manage:
        holders = " ".join(p.player_number for p in championship.title_holders.all())
        context["titles_form"] = forms.get("titles_form") or TitleHoldersForm(
            initial={"numbers": holders}
        )
        context["wildcard_form"] = forms.get("wildcard_form") or WildcardForm()
        context["remove_form"] = RemoveForm()
        context["history"] = championship.history.select_related("history_user").order_by(
            "-history_date"
        )[:30]
    return render(
        request, "federation/championships/detail.html", context, status=forms.get("status", 200)
    )


@login_required
@require_GET
def championship_detail(request, pk):
    return _detail(request, _championship(request, pk))


@login_required
@require_POST
def championship_titles(request, pk):
    championship = _championship(request, pk, manage=True)
    form = TitleHoldersForm(request.POST)
    if form.is_valid():
        try:
            players = services.players_by_number(form.cleaned_numbers())
            services.set_title_holders(
                request.user, championship, players, reason=form.cleaned_data["reason"]
            )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Title holders saved."))
            return redirect("federation:championship_detail", pk)
    return _detail(request, championship, titles_form=form, status=400)


@login_required
@require_POST
def wildcard_add(request, pk):
    championship = _championship(request, pk, manage=True)
    form = WildcardForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            players = services.players_by_number([data["player_number"]])
            services.add_wildcard(request.user, championship, players[0], reason=data["reason"])
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Wildcard granted."))
            return redirect("federation:championship_detail", pk)
    return _detail(request, championship, wildcard_form=form, status=400)


@login_required
@require_POST
def wildcard_remove(request, pk):
    wildcard = get_object_or_404(
        Wildcard.objects.select_related("championship__ranking__association"), pk=pk
    )
    championship = _championship(request, wildcard.championship_id, manage=True)
    form = RemoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason: the history keeps it."))
        return redirect("federation:championship_detail", championship.pk)
    services.remove_wildcard(request.user, wildcard, reason=form.cleaned_data["reason"])
    messages.success(request, _("Wildcard removed."))
    return redirect("federation:championship_detail", championship.pk)


@login_required
@require_GET
def championship_export(request, pk, fmt):
    championship = _championship(request, pk)
    return export_response(request, QualificationExporter, QualificationDoc(championship), fmt)
