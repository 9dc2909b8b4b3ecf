"""Reads that build the registry pages; each runs a fixed number of queries."""

from django.db.models import Count, Q
from django.utils import timezone

from .models import Club, ClubRole, Membership, Player


def club_list():
    today = timezone.localdate()
    current = Q(memberships__valid_from__lte=today) & (
        Q(memberships__valid_until__isnull=True) | Q(memberships__valid_until__gte=today)
    )
    return Club.objects.annotate(member_count=Count("memberships", filter=current))


def player_list():
    return Player.objects.with_current_club()


def club_members(club: Club):
    today = timezone.localdate()
    # One filter() call, so all conditions hold for the same membership row: a player who
    # left this club and joined another is not a member here.
    return (
        Player.objects.filter(
            Q(memberships__valid_until__isnull=True) | Q(memberships__valid_until__gte=today),
            memberships__club=club,
            memberships__valid_from__lte=today,
        )
        .with_current_club()
        .distinct()
    )


def club_former_members(club: Club):
    """Ended memberships of players who are not members of the club today (one query)."""
    today = timezone.localdate()
    current = Membership.objects.filter(club=club, valid_from__lte=today).filter(
        Q(valid_until__isnull=True) | Q(valid_until__gte=today)
    )
    return (
        Membership.objects.filter(club=club, valid_until__lt=today)
        .exclude(player_id__in=current.values("player_id"))
        .select_related("player")
        .order_by("player__sort_key", "-valid_until")
    )


def club_roles(club: Club):
    return ClubRole.objects.filter(club=club).select_related("user").order_by("user__username")


def player_memberships(player: Player):
    return Membership.objects.filter(player=player).select_related("club").order_by("-valid_from")


def history_of(instance, limit=50):
    """The newest changes of one object, each with the fields it changed."""
    records = list(
        instance.history.select_related("history_user").order_by("-history_date")[: limit + 1]
    )
    entries = []
    for newer, older in zip(records, [*records[1:], None], strict=False):
        changes = []
        if older is not None:
            delta = newer.diff_against(older)
            changes = [(c.field, c.old, c.new) for c in delta.changes]
        entries.append({"record": newer, "changes": changes})
    return entries[:limit]


def membership_history(player: Player, limit=50):
    model = Membership.history.model
    return list(
        model.objects.filter(player_id=player.pk)
        .select_related("history_user", "club")
        .order_by("-history_date")[:limit]
    )
