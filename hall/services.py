"""Writes of the hall mode: the first start and the director's hall settings. Each is one
transaction and records who changed what (django-simple-history)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import ClubRole
from clubs.services import create_club, set_club_role
from common.history import save_with_history
from hall.access import flags
from hall.models import HallSettings


def load() -> HallSettings:
    """The settings row, made with its defaults when the hall starts for the first time."""
    row, _created = HallSettings.objects.get_or_create(pk=1)
    return row


@transaction.atomic
def first_start(*, username: str, password: str, club_name: str, club_short_name: str, town=""):
    """The director's account (a superuser: the laptop is theirs) and their club, with the
    director as its organiser. Only while no account exists: a second try is refused, so a
    phone that reaches the page later can never make itself director."""
    User = get_user_model()
    if User.objects.exists():
        raise PermissionDenied(_("This laptop is already set up. Log in instead."))
    user = User(username=username, is_staff=True, is_superuser=True)
    validate_password(password, user)
    user.set_password(password)
    user.full_clean()
    user.save()
    club = create_club(user, name=club_name, short_name=club_short_name, town=town)
    set_club_role(user, club, user, ClubRole.Role.ORGANISER)
    flags.forget()
    return user, club


def _require_director(actor) -> None:
    if not (actor and actor.is_authenticated and actor.is_superuser):
        raise PermissionDenied(_("Only the tournament director of this laptop may do this."))


@transaction.atomic
def update_settings(actor, *, remote_direction: bool, backup_folder: str, reason: str = ""):
    """The director turns remote direction on or off and names the backup folder."""
    _require_director(actor)
    row = HallSettings.objects.select_for_update().get_or_create(pk=1)[0]
    row.remote_direction = remote_direction
    row.backup_folder = backup_folder.strip()
    if row.backup_folder:
        from hall.backups import check_folder

        problem = check_folder(row.backup_folder)
        if problem:
            raise ValidationError({"backup_folder": problem})
    save_with_history(row, actor, reason or _("Hall settings changed"))
    # Forgetting is harmless if this rolls back; after the commit again, in case a request
    # read the old value in between.
    flags.forget()
    transaction.on_commit(flags.forget)
    return row
