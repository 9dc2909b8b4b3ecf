"""Every write to the registry: one transaction each, permission checked here.

Views call these and nothing else writes. History (django-simple-history) records the
acting user; services set it explicitly so management commands and tests are covered too.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from common.history import save_with_history

from . import importing
from .models import Club, ClubRole, Membership, Player, PlayerImport, make_name_key
from .permissions import (
    ORGANISER,
    forget_cached_roles,
    has_role,
    require_role,
    require_superuser,
)
from .signals import PUBLIC_CLUB_FIELDS, PUBLIC_PLAYER_FIELDS, public_names_changed


class DuplicatePlayer(Exception):
    """A player with the same name and birth year exists; the caller may confirm and retry."""

    def __init__(self, candidates):
        super().__init__(_("A player with this name and birth year already exists."))
        self.candidates = list(candidates)


# Clubs


@transaction.atomic
def create_club(actor, **fields) -> Club:
    require_superuser(actor)
    return save_with_history(Club(**fields), actor)


@transaction.atomic
def update_club(actor, club: Club, **fields) -> Club:
    require_role(actor, club, ORGANISER)
    renamed = _changes(club, fields) & PUBLIC_CLUB_FIELDS
    for name, value in fields.items():
        setattr(club, name, value)
    club = save_with_history(club, actor)
    if renamed:
        public_names_changed.send(Club, player_ids=set(), club_ids={club.pk})
    return club


def _changes(instance, fields: dict) -> set[str]:
    return {name for name, value in fields.items() if getattr(instance, name) != value}


# Players and memberships


def find_lookalikes(given_name: str, family_name: str, birth_year: int | None, exclude=None):
    """Players who are probably the same person: same names (any case) and birth year."""
    found = Player.objects.filter(
        name_key=make_name_key(given_name, family_name), birth_year=birth_year
    )
    if exclude is not None:
        found = found.exclude(pk=exclude.pk)
    return found


@transaction.atomic
def create_player(
    actor,
    club: Club,
    *,
    given_name: str,
    family_name: str,
    player_number: str,
    birth_year: int | None = None,
    gender: str = "",
    active: bool = True,
    member_from: dt.date | None = None,
    allow_lookalike: bool = False,
) -> Player:
    """Register a player as a member of `club`; refuse a likely duplicate unless confirmed."""
    require_role(actor, club, ORGANISER)
    if not allow_lookalike:
        lookalikes = list(find_lookalikes(given_name, family_name, birth_year))
        if lookalikes:
            raise DuplicatePlayer(lookalikes)
    player = save_with_history(
        Player(
            given_name=given_name.strip(),
            family_name=family_name.strip(),
            player_number=player_number.strip(),
            birth_year=birth_year,
            gender=gender or "",
            active=active,
        ),
        actor,
    )
    save_with_history(
        Membership(player=player, club=club, valid_from=member_from or timezone.localdate()),
        actor,
    )
    return player


def _spot_player_number() -> str:
    """A free player number for a player added at an event without one (e.g. "S-3F9A01C2")."""
    import secrets

    while True:
        number = f"S-{secrets.token_hex(4).upper()}"
        if not Player.objects.filter(player_number=number).exists():
            return number


@transaction.atomic
def create_player_on_the_spot(
    actor,
    event_club: Club,
    *,
    given_name: str,
    family_name: str,
    player_number: str = "",
    birth_year: int | None = None,
    club: Club | None = None,
    allow_lookalike: bool = False,
) -> Player:
    """A player who turns up at an event of `event_club` and is not in the registry yet.

    Needs the organiser role in `event_club`. The player becomes a member of `club` only
    when the actor is an organiser there too; otherwise no membership is recorded. Without
    a player number one is generated. Refuses a likely duplicate unless confirmed.
    """
    require_role(actor, event_club, ORGANISER)
    if not allow_lookalike:
        lookalikes = list(find_lookalikes(given_name, family_name, birth_year))
        if lookalikes:
            raise DuplicatePlayer(lookalikes)
    player = save_with_history(
        Player(
            given_name=given_name.strip(),
            family_name=family_name.strip(),
            player_number=player_number.strip() or _spot_player_number(),
            birth_year=birth_year,
        ),
        actor,
    )
    if club is not None and has_role(actor, club, ORGANISER):
        save_with_history(
            Membership(player=player, club=club, valid_from=timezone.localdate()), actor
        )
    return player


def can_manage_player(user, player: Player) -> bool:
    """Organisers of a club the player currently belongs to manage the player's record."""
    if user.is_authenticated and user.is_superuser:
        return True
    today = timezone.localdate()
    return any(
        m.is_current(today) and has_role(user, m.club_id, ORGANISER)
        for m in player.memberships.all()
    )


def require_player_manager(user, player: Player) -> None:
    from django.core.exceptions import PermissionDenied

    if not can_manage_player(user, player):
        raise PermissionDenied(
            _("Only an organiser of %(name)s's club may change this player.")
            % {"name": player.full_name}
        )


@transaction.atomic
def update_player(actor, player: Player, **fields) -> Player:
    require_player_manager(actor, player)
    renamed = _changes(player, fields) & PUBLIC_PLAYER_FIELDS
    for name, value in fields.items():
        setattr(player, name, value)
    player = save_with_history(player, actor)
    if renamed:
        public_names_changed.send(Player, player_ids={player.pk}, club_ids=set())
    return player


@transaction.atomic
def join_club(actor, player: Player, club: Club, on: dt.date) -> Membership:
    """Start a membership; an open membership of another club ends the day before.

    Moving a player needs the organiser role in the new club and in the club left behind.
    """
    require_role(actor, club, ORGANISER)
    open_ones = list(player.memberships.filter(valid_until__isnull=True).select_related("club"))
    if any(m.club_id == club.pk for m in open_ones):
        raise ValidationError(
            _("%(name)s is already a member of %(club)s.")
            % {"name": player.full_name, "club": club.name}
        )
    for membership in open_ones:
        require_role(actor, membership.club, ORGANISER)
        if membership.valid_from >= on:
            raise ValidationError(
                _("The new membership must start after %(date)s, when %(club)s's began.")
                % {"date": membership.valid_from.strftime("%d.%m.%Y"), "club": membership.club}
            )
        membership.valid_until = on - dt.timedelta(days=1)
        save_with_history(membership, actor)
    overlapping = player.memberships.filter(club=club, valid_until__gte=on)
    if overlapping.exists():
        raise ValidationError(_("This overlaps an earlier membership of the same club."))
    return save_with_history(Membership(player=player, club=club, valid_from=on), actor)


@transaction.atomic
def end_membership(actor, membership: Membership, on: dt.date) -> Membership:
    require_role(actor, membership.club, ORGANISER)
    if membership.valid_until is not None:
        raise ValidationError(_("This membership has already ended."))
    membership.valid_until = on
    return save_with_history(membership, actor)


# Users and roles


@transaction.atomic
def set_club_role(actor, club: Club, user, role: str) -> ClubRole:
    require_role(actor, club, ORGANISER)
    club_role = ClubRole.objects.filter(club=club, user=user).first() or ClubRole(
        club=club, user=user
    )
    club_role.role = role
    save_with_history(club_role, actor)
    forget_cached_roles(user)
    return club_role


@transaction.atomic
def remove_club_role(actor, club_role: ClubRole) -> None:
    require_role(actor, club_role.club, ORGANISER)
    if club_role.user_id == actor.pk and not actor.is_superuser:
        raise ValidationError(_("You cannot remove your own role; ask another organiser."))
    club_role._history_user = actor
    club_role.delete()
    forget_cached_roles(club_role.user)


@transaction.atomic
def create_club_user(actor, club: Club, *, username: str, password: str, role: str, email=""):
    """An organiser adds a helper (scorer, viewer or co-organiser) to the club."""
    require_role(actor, club, ORGANISER)
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError(_("The user name “%(name)s” is taken.") % {"name": username})
    user = User(username=username, email=email)
    from django.contrib.auth.password_validation import validate_password

    validate_password(password, user)
    user.set_password(password)
    user.full_clean()
    user.save()
    set_club_role(actor, club, user, role)
    return user


# Player import


@dataclass
class ImportOutcome:
    created: int
    updated: int
    unchanged: int
    skipped: int


@transaction.atomic
def upload_player_file(actor, club: Club, filename: str, content: bytes) -> PlayerImport:
    """Keep the file for preview; raises ImportFileError if it cannot be read at all."""
    require_role(actor, club, ORGANISER)
    importing.read_player_file(filename, content)
    return PlayerImport.objects.create(
        club=club, created_by=actor, filename=filename[:255], content=content
    )


def preview_player_import(actor, player_import: PlayerImport) -> importing.ParsedFile:
    require_role(actor, player_import.club, ORGANISER)
    parsed = importing.read_player_file(player_import.filename, bytes(player_import.content))
    importing.plan_import(parsed, player_import.club, actor)
    return parsed


@transaction.atomic
def apply_player_import(actor, player_import: PlayerImport) -> ImportOutcome:
    """Write the rows without errors, re-planned against the registry as it is now."""
    player_import = PlayerImport.objects.select_for_update().get(pk=player_import.pk)
    club = player_import.club
    require_role(actor, club, ORGANISER)
    if player_import.status != PlayerImport.Status.PREVIEW:
        raise ValidationError(_("This import has already been applied or discarded."))
    parsed = preview_player_import(actor, player_import)
    today = timezone.localdate()
    user = actor if actor.is_authenticated else None

    creates = [r for r in parsed.rows if r.action == "create"]
    updates = [r for r in parsed.rows if r.action == "update"]
    new_players = [
        Player(
            player_number=r.values["player_number"],
            given_name=r.values["given_name"],
            family_name=r.values["family_name"],
            birth_year=r.values["birth_year"],
            gender=r.values.get("gender", ""),
            active=r.values["active"],
        )
        for r in creates
    ]
    for player in new_players:
        player.derive_keys()
    bulk_create_with_history(new_players, Player, default_user=user, batch_size=500)
    created_ids = dict(
        Player.objects.filter(player_number__in=[p.player_number for p in new_players]).values_list(
            "player_number", "pk"
        )
    )
    new_memberships = [
        Membership(
            player_id=created_ids[r.values["player_number"]],
            club=club,
            valid_from=r.values["member_from"] or today,
        )
        for r in creates
    ]

    players = Player.objects.in_bulk([r.player_id for r in updates])
    open_by_player: dict[int, list[Membership]] = {}
    for membership in Membership.objects.filter(
        player_id__in=[r.player_id for r in updates if "membership" in r.changes],
        valid_until__isnull=True,
    ):
        open_by_player.setdefault(membership.player_id, []).append(membership)
    ended_memberships = []
    changed_players = []
    field_names = set()
    for row in updates:
        player = players[row.player_id]
        fields = [name for name in row.changes if name != "membership"]
        for name in fields:
            setattr(player, name, row.values[name])
        player.derive_keys()
        if fields:
            changed_players.append(player)
            field_names.update(fields)
        if "membership" in row.changes:
            start = row.values["member_from"] or today
            for membership in open_by_player.get(player.pk, []):
                # Leaving the old club the day before joining; never before it began.
                membership.valid_until = max(membership.valid_from, start - dt.timedelta(days=1))
                start = max(start, membership.valid_until + dt.timedelta(days=1))
                ended_memberships.append(membership)
            new_memberships.append(Membership(player=player, club=club, valid_from=start))
    bulk_update_with_history(
        ended_memberships, Membership, ["valid_until"], default_user=user, batch_size=500
    )
    if changed_players:
        bulk_update_with_history(
            changed_players,
            Player,
            [*sorted(field_names), "name_key", "sort_key"],
            default_user=user,
            batch_size=500,
        )
        if field_names & PUBLIC_PLAYER_FIELDS:
            public_names_changed.send(
                Player, player_ids={p.pk for p in changed_players}, club_ids=set()
            )
    bulk_create_with_history(new_memberships, Membership, default_user=user, batch_size=500)

    outcome = ImportOutcome(
        created=len(creates),
        updated=len(updates),
        unchanged=sum(1 for r in parsed.rows if r.action == "unchanged"),
        skipped=sum(1 for r in parsed.rows if r.action == "skip"),
    )
    player_import.status = PlayerImport.Status.APPLIED
    player_import.applied_at = timezone.now()
    player_import.summary = outcome.__dict__
    player_import.save(update_fields=["status", "applied_at", "summary"])
    return outcome


@transaction.atomic
def discard_player_import(actor, player_import: PlayerImport) -> None:
    require_role(actor, player_import.club, ORGANISER)
    player_import.status = PlayerImport.Status.DISCARDED
    player_import.content = b""
    player_import.save(update_fields=["status", "content"])
