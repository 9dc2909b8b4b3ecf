"""Roles per association, checked on the server by every view and service.

A role holds for its association and every association below it: a national officer acts
on every region, a regional officer on their own region only, never above or beside it.
Ranking officers (Ranglistenwarte) manage; viewers read. Superusers may do everything and
alone create associations.

What a user may not see answers 404 (its existence stays hidden); what they may see but
not change answers 403 with the missing role named, as the club pages do.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from federation.associations.models import Association, AssociationRole
from federation.associations.tree import association_parents

OFFICER = AssociationRole.Role.OFFICER
VIEWER = AssociationRole.Role.VIEWER
_RANK = {OFFICER: 2, VIEWER: 1}


def _ranks(user) -> dict[int, int]:
    """Association id -> the user's rank there, inherited from above. Cached per request."""
    cache = getattr(user, "_association_ranks_cache", None)
    if cache is not None:
        return cache
    cache = {}
    if user.is_authenticated and not user.is_superuser:
        held = dict(
            AssociationRole.objects.filter(user=user)
            .order_by()
            .values_list("association_id", "role")
        )
        if held:
            parents = association_parents()
            for pk in parents:
                best, node, seen = 0, pk, set()
                while node is not None and node not in seen:  # `seen`: a cycle cannot loop
                    seen.add(node)
                    best = max(best, _RANK.get(held.get(node), 0))
                    node = parents.get(node)
                if best:
                    cache[pk] = best
    user._association_ranks_cache = cache
    return cache


def forget_cached_roles(user) -> None:
    user.__dict__.pop("_association_ranks_cache", None)


def _pk(association) -> int:
    return association.pk if isinstance(association, Association) else int(association)


def has_association_role(user, association, minimum: str = VIEWER) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return _ranks(user).get(_pk(association), 0) >= _RANK[minimum]


def can_view(user, association) -> bool:
    return has_association_role(user, association, VIEWER)


def can_manage(user, association) -> bool:
    return has_association_role(user, association, OFFICER)


def associations_for(user, role: str = VIEWER):
    """The associations where the user holds at least `role` (their whole subtree)."""
    if not user.is_authenticated:
        return Association.objects.none()
    if user.is_superuser:
        return Association.objects.all()
    ids = [pk for pk, rank in _ranks(user).items() if rank >= _RANK[role]]
    return Association.objects.filter(pk__in=ids)


def has_any_role(user) -> bool:
    """Whether the user sees the federation pages at all (the navigation asks)."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or AssociationRole.objects.filter(user=user).exists()


def require_view(user, association) -> None:
    """404 unless the user may see the association: outsiders do not learn it exists."""
    if not can_view(user, association):
        raise Http404(_("No such association."))


def require_manage(user, association) -> None:
    """403 naming the role. Views call require_view first, so outsiders get 404 there."""
    if not can_manage(user, association):
        name = association.name if isinstance(association, Association) else str(association)
        raise PermissionDenied(
            _("You need the role “%(role)s” in the association “%(association)s” for this.")
            % {"role": AssociationRole.Role.OFFICER.label, "association": name}
        )
