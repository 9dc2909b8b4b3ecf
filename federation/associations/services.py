"""Every write to the federation: one transaction each, the actor's role checked here, and
the history (django-simple-history) keeps who acted, when and why (the reason is required).

A role on an association reaches every association below it
(federation.associations.permissions)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import require_superuser
from common.history import delete_with_history, save_with_history
from federation.associations.models import Affiliation, Association, AssociationRole
from federation.associations.nav import roles_changed
from federation.associations.permissions import forget_cached_roles, require_manage

# simple_history's history_change_reason holds 100 characters.
REASON_MAX = 100
# Only a superuser reshapes the tree; officers rename their associations.
_TREE_FIELDS = {"kind", "parent"}


def clean_reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason: the history keeps it.")})
    if len(reason) > REASON_MAX:
        raise ValidationError(
            {"reason": _("The reason may have at most %(max)d characters.") % {"max": REASON_MAX}}
        )
    return reason


# Associations


@transaction.atomic
def create_association(
    actor, *, name: str, short_name: str, kind: str, parent=None, reason: str
) -> Association:
    require_superuser(actor)
    reason = clean_reason(reason)
    association = Association(
        name=name.strip(), short_name=short_name.strip(), kind=kind, parent=parent
    )
    return save_with_history(association, actor, reason)


@transaction.atomic
def update_association(actor, association: Association, *, reason: str, **fields) -> Association:
    association = Association.objects.select_for_update().get(pk=association.pk)
    require_manage(actor, association)
    reason = clean_reason(reason)
    reshaped = {
        name for name, value in fields.items() if name in _TREE_FIELDS
        and getattr(association, name) != value
    }  # fmt: skip
    if reshaped:
        require_superuser(actor)
    for name, value in fields.items():
        setattr(association, name, value.strip() if isinstance(value, str) else value)
    return save_with_history(association, actor, reason)


# Affiliations


def _require_regional(association: Association) -> None:
    if association.kind != Association.Kind.REGIONAL:
        raise ValidationError(
            {"association": _("A club joins a regional association, not a national one.")}
        )


@transaction.atomic
def affiliate_club(
    actor, club: Club, association: Association, *, since: dt.date, note: str = "", reason: str
) -> Affiliation:
    """A club without an association joins a regional one of the actor's subtree."""
    require_manage(actor, association)
    reason = clean_reason(reason)
    _require_regional(association)
    current = (
        Affiliation.objects.select_for_update().filter(club=club).select_related("association")
    )
    existing = current.first()
    if existing is not None:
        raise ValidationError(
            {
                "club": _(
                    "%(club)s already belongs to %(association)s; move it from there instead."
                )
                % {"club": club.name, "association": existing.association.name}
            }
        )
    affiliation = Affiliation(club=club, association=association, since=since, note=note.strip())
    return save_with_history(affiliation, actor, reason)


@transaction.atomic
def move_club(
    actor, affiliation: Affiliation, association: Association, *, since: dt.date, reason: str
) -> Affiliation:
    """The club changes its regional association: the actor manages both."""
    affiliation = (
        Affiliation.objects.select_for_update()
        .select_related("club", "association")
        .get(pk=affiliation.pk)
    )
    require_manage(actor, affiliation.association)
    require_manage(actor, association)
    reason = clean_reason(reason)
    _require_regional(association)
    if association.pk == affiliation.association_id:
        raise ValidationError({"association": _("The club already belongs to this association.")})
    affiliation.association = association
    affiliation.since = since
    return save_with_history(affiliation, actor, reason)


@transaction.atomic
def end_affiliation(actor, affiliation: Affiliation, *, reason: str) -> None:
    affiliation = (
        Affiliation.objects.select_for_update()
        .select_related("club", "association")
        .get(pk=affiliation.pk)
    )
    require_manage(actor, affiliation.association)
    reason = clean_reason(reason)
    delete_with_history(affiliation, actor, reason)


# Roles


def _not_own(actor, user, message) -> None:
    if user.pk == actor.pk and not actor.is_superuser:
        raise ValidationError(message)


@transaction.atomic
def grant_role(actor, association: Association, user, role: str, *, reason: str):
    """Give (or change) a user's role in an association of the actor's subtree."""
    require_manage(actor, association)
    reason = clean_reason(reason)
    if role not in AssociationRole.Role.values:
        raise ValidationError({"role": _("Choose ranking officer or viewer as the role.")})
    _not_own(actor, user, _("You cannot change your own role; ask another officer."))
    held = (
        AssociationRole.objects.select_for_update()
        .filter(association=association, user=user)
        .first()
    )
    association_role = held or AssociationRole(association=association, user=user)
    if held is not None and held.role == role:
        raise ValidationError(_("%(name)s already holds this role.") % {"name": user.username})
    association_role.role = role
    save_with_history(association_role, actor, reason)
    forget_cached_roles(user)
    roles_changed()
    return association_role


@transaction.atomic
def revoke_role(actor, association_role: AssociationRole, *, reason: str) -> None:
    association_role = (
        AssociationRole.objects.select_for_update()
        .select_related("association", "user")
        .get(pk=association_role.pk)
    )
    require_manage(actor, association_role.association)
    reason = clean_reason(reason)
    _not_own(
        actor, association_role.user, _("You cannot remove your own role; ask another officer.")
    )
    delete_with_history(association_role, actor, reason)
    forget_cached_roles(association_role.user)
    roles_changed()
