"""Registry pages. Thin: forms validate input, services write, selectors read."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from common.forms import add_validation_errors
from common.once import Once

from . import selectors, services
from .filters import PlayerFilter
from .forms import (
    ClubForm,
    ClubUserForm,
    EndMembershipForm,
    JoinClubForm,
    NewPlayerForm,
    PlayerFileForm,
    PlayerForm,
    RoleForm,
)
from .importing import ImportFileError
from .models import Club, ClubRole, Membership, Player, PlayerImport
from .permissions import ORGANISER, clubs_with_role, has_role, require_role, require_superuser
from .tables import ClubTable, PlayerTable


@login_required
def club_list(request):
    table = ClubTable(selectors.club_list())
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "clubs/club_list.html", {"table": table})


@login_required
def club_create(request):
    require_superuser(request.user)
    form = ClubForm(request.POST or None)
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            try:
                club = services.create_club(request.user, **form.cleaned_data)
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("Club “%(name)s” created.") % {"name": club.name})
                return once.done(redirect(club))
    return render(request, "clubs/form.html", {"form": form, "title": _("New club")})


@login_required
def club_detail(request, pk):
    club = get_object_or_404(Club, pk=pk)
    table = PlayerTable(selectors.club_members(club), exclude=("current_club_short",))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    is_organiser = has_role(request.user, club, ORGANISER)
    context = {
        "club": club,
        "table": table,
        "former": selectors.club_former_members(club),
        "is_organiser": is_organiser,
    }
    if is_organiser:
        context["roles"] = selectors.club_roles(club)
        context["history"] = selectors.history_of(club)
        context["imports"] = club.imports.select_related("created_by")[:10]
    return render(request, "clubs/club_detail.html", context)


@login_required
def club_edit(request, pk):
    club = get_object_or_404(Club, pk=pk)
    require_role(request.user, club, ORGANISER)
    title = club.name  # as stored: a refused form has written what was typed into the instance
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_club(request.user, club, **form.cleaned_data)
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect(club)
    return render(request, "clubs/form.html", {"form": form, "title": title, "back": club})


@login_required
def player_list(request):
    player_filter = PlayerFilter(request.GET or None, queryset=selectors.player_list())
    table = PlayerTable(player_filter.qs)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "clubs/player_list.html",
        {
            "filter": player_filter,
            "table": table,
            "can_add_to": clubs_with_role(request.user, ORGANISER),
        },
    )


@login_required
def player_create(request, club_pk):
    club = get_object_or_404(Club, pk=club_pk)
    require_role(request.user, club, ORGANISER)
    form = NewPlayerForm(request.POST or None)
    lookalikes = []
    with Once(request, form) as once:
        if once.response:
            return once.response
        if request.method == "POST" and form.is_valid():
            try:
                player = services.create_player(request.user, club, **form.cleaned_data)
            except services.DuplicatePlayer as duplicate:
                lookalikes = duplicate.candidates
                # Ask once; sending the form again means "yes, a different person".
                data = request.POST.copy()
                data["allow_lookalike"] = "on"
                form = NewPlayerForm(data)
                form.is_valid()
            except ValidationError as error:
                add_validation_errors(form, error)
            else:
                messages.success(request, _("%(name)s registered.") % {"name": player.full_name})
                return once.done(redirect(player))
    return render(
        request,
        "clubs/player_form.html",
        {"form": form, "club": club, "lookalikes": lookalikes, "title": _("New player")},
    )


@login_required
def player_detail(request, pk):
    player = get_object_or_404(Player.objects.prefetch_related("memberships__club"), pk=pk)
    can_manage = services.can_manage_player(request.user, player)
    context = {
        "player": player,
        "memberships": selectors.player_memberships(player),
        "can_manage": can_manage,
    }
    if can_manage:
        context["history"] = selectors.history_of(player)
        context["membership_history"] = selectors.membership_history(player)
        context["join_form"] = JoinClubForm(clubs=clubs_with_role(request.user, ORGANISER))
        # Wrapped in its label on every open membership's row: no id, so none repeats.
        context["end_form"] = EndMembershipForm(auto_id=False)
    return render(request, "clubs/player_detail.html", context)


@login_required
def player_edit(request, pk):
    player = get_object_or_404(Player, pk=pk)
    services.require_player_manager(request.user, player)
    title = player.full_name  # as stored (see club_edit)
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_player(request.user, player, **form.cleaned_data)
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect(player)
    return render(request, "clubs/form.html", {"form": form, "title": title, "back": player})


@login_required
@require_POST
def player_join_club(request, pk):
    player = get_object_or_404(Player, pk=pk)
    form = JoinClubForm(request.POST, clubs=Club.objects.all())
    if form.is_valid():
        try:
            services.join_club(
                request.user, player, form.cleaned_data["club"], form.cleaned_data["valid_from"]
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Membership saved."))
    else:
        messages.error(request, _("Choose a club and a date."))
    return redirect(player)


@login_required
@require_POST
def membership_end(request, pk):
    membership = get_object_or_404(Membership.objects.select_related("player", "club"), pk=pk)
    form = EndMembershipForm(request.POST)
    if form.is_valid():
        try:
            services.end_membership(request.user, membership, form.cleaned_data["valid_until"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Membership ended."))
    return redirect(membership.player)


@login_required
def club_users(request, pk):
    club = get_object_or_404(Club, pk=pk)
    require_role(request.user, club, ORGANISER)
    form = ClubUserForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.create_club_user(request.user, club, **form.cleaned_data)
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            messages.success(request, _("User “%(name)s” added.") % {"name": user.username})
            return redirect("clubs:club_users", pk=club.pk)
    return render(
        request,
        "clubs/club_users.html",
        {
            "club": club,
            "form": form,
            "roles": selectors.club_roles(club),
            "role_choices": ClubRole.Role.choices,
        },
    )


@login_required
@require_POST
def club_role_set(request, pk):
    club = get_object_or_404(Club, pk=pk)
    form = RoleForm(request.POST)
    username = request.POST.get("username", "").strip()
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        require_role(request.user, club, ORGANISER)
        messages.error(request, _("There is no user “%(name)s”.") % {"name": username})
    elif form.is_valid():
        try:
            services.set_club_role(request.user, club, user, form.cleaned_data["role"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Role saved."))
    return redirect("clubs:club_users", pk=club.pk)


@login_required
@require_POST
def club_role_remove(request, pk):
    club_role = get_object_or_404(ClubRole.objects.select_related("club", "user"), pk=pk)
    try:
        services.remove_club_role(request.user, club_role)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Role removed."))
    return redirect("clubs:club_users", pk=club_role.club_id)


@login_required
def import_upload(request, pk):
    club = get_object_or_404(Club, pk=pk)
    require_role(request.user, club, ORGANISER)
    form = PlayerFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            player_import = services.upload_player_file(
                request.user, club, upload.name, upload.read()
            )
        except ImportFileError as error:
            form.add_error("file", str(error))
        else:
            return redirect("clubs:import_preview", pk=club.pk, import_pk=player_import.pk)
    return render(request, "clubs/import_upload.html", {"club": club, "form": form})


@login_required
def import_preview(request, pk, import_pk):
    player_import = get_object_or_404(
        PlayerImport.objects.select_related("club"), pk=import_pk, club_id=pk
    )
    club = player_import.club
    require_role(request.user, club, ORGANISER)
    if player_import.status != PlayerImport.Status.PREVIEW:
        return render(
            request, "clubs/import_done.html", {"club": club, "player_import": player_import}
        )
    if request.method == "POST":
        if "discard" in request.POST:
            services.discard_player_import(request.user, player_import)
            messages.info(request, _("Import discarded; nothing was changed."))
            return redirect(club)
        try:
            outcome = services.apply_player_import(request.user, player_import)
        except (ValidationError, ImportFileError) as error:
            messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
        else:
            messages.success(
                request,
                _(
                    "Import done: %(created)d new, %(updated)d updated, %(unchanged)d unchanged, "
                    "%(skipped)d skipped."
                )
                % outcome.__dict__,
            )
            return HttpResponseRedirect(reverse("clubs:club_detail", args=[club.pk]))
    try:
        parsed = services.preview_player_import(request.user, player_import)
    except ImportFileError as error:
        messages.error(request, str(error))
        return redirect("clubs:import_upload", pk=club.pk)
    rows = parsed.rows
    counts = {
        action: sum(1 for r in rows if r.action == action)
        for action in ("create", "update", "unchanged", "skip")
    }
    problem_rows = [r for r in rows if r.problems]
    return render(
        request,
        "clubs/import_preview.html",
        {
            "club": club,
            "player_import": player_import,
            "parsed": parsed,
            "rows": rows,
            "problem_rows": problem_rows,
            "counts": counts,
            "to_write": counts["create"] + counts["update"],
        },
    )
