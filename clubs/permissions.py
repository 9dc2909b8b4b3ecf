"""Per-club roles, checked on the server by every view and service.

Organisers manage a club's players, events and users; scorers enter results for the
club's events; viewers read. Each role includes the ones below it. Superusers may do
everything.
"""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .models import Club, ClubRole

ORGANISER = ClubRole.Role.ORGANISER
SCORER = ClubRole.Role.SCORER
VIEWER = ClubRole.Role.VIEWER

# A role implies the roles after it in this order.
_RANK = {ORGANISER: 3, SCORER: 2, VIEWER: 1}


def role_in(user, club) -> str | None:
    """The user's role in the club, or None. Cached per request on the user object."""
    if not user.is_authenticated:
        return None
    cache = getattr(user, "_club_roles_cache", None)
    if cache is None:
        # No ORDER BY: the Meta ordering would join the clubs and users just to sort a dict.
        roles = ClubRole.objects.filter(user=user).order_by().values_list("club_id", "role")
        cache = remember_roles(user, dict(roles))
    club_id = club.pk if isinstance(club, Club) else club
    return cache.get(club_id)


def has_role(user, club, minimum: str) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    role = role_in(user, club)
    return role is not None and _RANK[role] >= _RANK[minimum]


def require_role(user, club, minimum: str) -> None:
    """Raise PermissionDenied unless the user holds at least `minimum` in the club."""
    if not has_role(user, club, minimum):
        name = club.name if isinstance(club, Club) else str(club)
        raise PermissionDenied(
            _("You need the role “%(role)s” in the club “%(club)s” for this.")
            % {"role": ClubRole.Role(minimum).label, "club": name}
        )


def require_superuser(user) -> None:
    if not (user.is_authenticated and user.is_superuser):
        raise PermissionDenied(_("Only an administrator may do this."))


def clubs_with_role(user, minimum: str = VIEWER):
    """Clubs in which the user holds at least `minimum` (all clubs for a superuser)."""
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    roles = [role for role, rank in _RANK.items() if rank >= _RANK[minimum]]
    return Club.objects.filter(roles__user=user, roles__role__in=roles).distinct()


def remember_roles(user, roles: dict[int, str]) -> dict[int, str]:
    """Keep the user's roles (club id -> role) for this request, as `role_in` reads them;
    `clubs.auth` hands over the roles it read with the user."""
    user._club_roles_cache = roles
    return roles


def forget_cached_roles(user) -> None:
    user.__dict__.pop("_club_roles_cache", None)
