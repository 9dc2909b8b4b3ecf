"""Federation pages. Thin: forms parse, services write (and check the role again), selectors
read. Every view checks on the server: 404 for an association the user may not see, 403 for
one they see but may not change (federation.associations.permissions)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubs.permissions import require_superuser
from common.forms import add_validation_errors
from common.once import Once
from federation.associations import history, selectors, services
from federation.associations.forms import (
    AffiliateForm,
    AssociationForm,
    GrantRoleForm,
    MoveForm,
    ReasonForm,
)
from federation.associations.models import Affiliation, Association, AssociationRole
from federation.associations.nav import note_roles
from federation.associations.permissions import require_manage, require_view
from federation.associations.tables import AffiliationTable, AssociationTable


def _association(request, pk, *, manage=False) -> Association:
    association = get_object_or_404(Association.objects.select_related("parent"), pk=pk)
    require_view(request.user, association)
    if manage:
        require_manage(request.user, association)
    return association


@login_required
def association_list(request):
    table = AssociationTable(selectors.association_tree(request.user))
    RequestConfig(request, paginate=False).configure(table)
    roles = list(selectors.user_associations(request.user))
    note_roles(request, bool(roles))
    return render(
        request,
        "federation/associations/association_list.html",
        {"table": table, "own_roles": roles},
    )


@login_required
def association_create(request):
    require_superuser(request.user)
    form = AssociationForm(request.POST or None)
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                association = services.create_association(request.user, **data)
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(
                    request, _("Association “%(name)s” created.") % {"name": association.name}
                )
                return once.done(redirect(association))
    return render(
        request, "federation/associations/form.html", {"form": form, "title": _("New association")}
    )


def _detail(request, association, *, affiliate_form=None, grant_form=None):
    page = selectors.association_detail(request.user, association)
    table = AffiliationTable(page.affiliations, exclude=() if page.can_manage else ("manage",))
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    context = {"association": association, "page": page, "table": table}
    if page.can_manage:
        if page.join_choices is not None:
            context["affiliate_form"] = affiliate_form or AffiliateForm(clubs=page.join_choices)
        context["grant_form"] = grant_form or GrantRoleForm()
        context["revoke_form"] = ReasonForm(auto_id=False)
    return render(request, "federation/associations/association_detail.html", context)


@login_required
def association_detail(request, pk):
    return _detail(request, _association(request, pk))


@login_required
def association_edit(request, pk):
    association = _association(request, pk, manage=True)
    form = AssociationForm(
        request.POST or None, instance=association, may_reshape=request.user.is_superuser
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # The form's model validation set the fields on this instance already: start afresh.
        current = Association.objects.get(pk=association.pk)
        try:
            services.update_association(request.user, current, **data)
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect(current)
    return render(
        request,
        "federation/associations/form.html",
        {"form": form, "title": association.name, "back": association},
    )


@login_required
def association_history(request, pk):
    association = _association(request, pk, manage=True)
    entries = history.association_history(association)
    return render(
        request,
        "federation/associations/history.html",
        {"association": association, "entries": entries, "limit": history.LIMIT},
    )


@login_required
@require_POST
def affiliate(request, pk):
    association = _association(request, pk, manage=True)
    form = AffiliateForm(request.POST)
    if form.is_valid():
        try:
            affiliation = services.affiliate_club(
                request.user, form.cleaned_data["club"], association,
                since=form.cleaned_data["since"], note=form.cleaned_data["note"],
                reason=form.cleaned_data["reason"],
            )  # fmt: skip
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(
                request,
                _("%(club)s now belongs to %(association)s.")
                % {"club": affiliation.club.name, "association": association.name},
            )
            return redirect(association)
    return _detail(request, association, affiliate_form=form)


@login_required
@require_POST
def role_grant(request, pk):
    association = _association(request, pk, manage=True)
    form = GrantRoleForm(request.POST)
    if form.is_valid():
        username = form.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            form.add_error("username", _("There is no user “%(name)s”.") % {"name": username})
        else:
            try:
                services.grant_role(
                    request.user, association, user, form.cleaned_data["role"],
                    reason=form.cleaned_data["reason"],
                )  # fmt: skip
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("Role saved."))
                return redirect(association)
    return _detail(request, association, grant_form=form)


@login_required
@require_POST
def role_revoke(request, pk):
    role = get_object_or_404(AssociationRole.objects.select_related("association", "user"), pk=pk)
    association = _association(request, role.association_id, manage=True)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason: the history keeps it."))
        return redirect(association)
    try:
        services.revoke_role(request.user, role, reason=form.cleaned_data["reason"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Role removed."))
    return redirect(association)


def _affiliation(request, pk) -> Affiliation:
    affiliation = get_object_or_404(
        Affiliation.objects.select_related("club", "association"), pk=pk
    )
    _association(request, affiliation.association_id, manage=True)
    return affiliation


def _affiliation_page(request, affiliation, *, move_form=None, end_form=None):
    targets = selectors.move_targets(request.user, affiliation)
    context = {
        "affiliation": affiliation,
        "association": affiliation.association,
        "move_form": move_form or MoveForm(targets=targets, prefix="move"),
        "end_form": end_form or ReasonForm(prefix="end"),
        "has_targets": targets.exists(),
    }
    return render(request, "federation/associations/affiliation.html", context)


@login_required
def affiliation_detail(request, pk):
    return _affiliation_page(request, _affiliation(request, pk))


@login_required
@require_POST
def affiliation_move(request, pk):
    affiliation = _affiliation(request, pk)
    # Only regions the user manages are choices: another one is "not a valid choice".
    form = MoveForm(
        request.POST, prefix="move", targets=selectors.move_targets(request.user, affiliation)
    )
    if form.is_valid():
        target = form.cleaned_data["association"]
        try:
            services.move_club(
                request.user, affiliation, target, since=form.cleaned_data["since"],
                reason=form.cleaned_data["reason"],
            )  # fmt: skip
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(
                request,
                _("%(club)s now belongs to %(association)s.")
                % {"club": affiliation.club.name, "association": target.name},
            )
            return redirect(target)
    return _affiliation_page(request, affiliation, move_form=form)


@login_required
@require_POST
def affiliation_end(request, pk):
    affiliation = _affiliation(request, pk)
    form = ReasonForm(request.POST, prefix="end")
    if form.is_valid():
        try:
            services.end_affiliation(request.user, affiliation, reason=form.cleaned_data["reason"])
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(
                request,
                _("%(club)s no longer belongs to %(association)s.")
                % {"club": affiliation.club.name, "association": affiliation.association.name},
            )
            return redirect(affiliation.association)
    return _affiliation_page(request, affiliation, end_form=form)
