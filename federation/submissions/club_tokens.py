"""Club tokens on the federation's installation (issue 27, point 4): the live results'
tokens (`live.server.tokens`; one kind of token) made and revoked by the club's organiser or the
ranking officer of the club's region. Shown once, kept hashed, scoped to one club."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.permissions import ORGANISER, has_role
from common.history import history_user, save_with_history
from federation.associations.permissions import can_manage
from live.models import LiveToken
from live.server.tokens import issue_token


def may_manage_tokens(user, club: Club) -> bool:
    """The club's organisers, the officers of its region (and above), superusers."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or has_role(user, club, ORGANISER):
        return True
    affiliation = getattr(club, "affiliation", None)
    return affiliation is not None and can_manage(user, affiliation.association_id)


def require_tokens(user, club: Club) -> None:
    if not may_manage_tokens(user, club):
        raise PermissionDenied(
            _("Only the club's organisers or the ranking officer of its region manage its tokens.")
        )


def club_tokens(club: Club):
    return (
        LiveToken.objects.filter(club=club)
        .select_related("event", "created_by", "revoked_by")
        .order_by("-created_at")
    )


@transaction.atomic
def make(actor, club: Club, *, label: str = "") -> tuple[LiveToken, str]:
    """A new token of ``club``: (row, secret shown once)."""
    require_tokens(actor, club)
    return issue_token(club, label=label or _("Submissions"), created_by=actor)


@transaction.atomic
def revoke(actor, token: LiveToken, reason: str = "") -> LiveToken:
    """From now on the token's submissions and live pushes are refused (401)."""
    token = LiveToken.objects.select_for_update().select_related("club").get(pk=token.pk)
    require_tokens(actor, token.club)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.revoked_by = history_user(actor)
        why = reason.strip()[:100] or _("Club token revoked")
        save_with_history(token, actor, why, clean=False)
    return token
