"""What the matching pages read (issue 27, point 4): the submissions waiting for matching
in the officer's subtree, and the players here a row may be matched to."""

from __future__ import annotations

from django.db.models import Count, DateField, Prefetch, Q
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast

from clubs.models import Player
from federation.associations.models import Affiliation
from federation.associations.permissions import OFFICER, associations_for
from federation.submissions.club_tokens import may_manage_tokens
from federation.submissions.models import PlayerMatch, Submission

SEARCH_LIMIT = 20


def waiting_submissions(user):
    """Submissions in "matching" of clubs the user's officer roles cover, oldest first,
    with their rows (open first)."""
    rows = Submission.objects.filter(state=Submission.State.MATCHING)
    if not user.is_superuser:
        regions = associations_for(user, OFFICER).values_list("pk", flat=True)
        clubs = Affiliation.objects.filter(association__in=regions).values_list("club", flat=True)
        rows = rows.filter(club__in=clubs)
    all_rows = PlayerMatch.objects.select_related("player").order_by("state", "family_name")
    # The event's name and date from the archive, without reading the whole archive.
    event = KeyTransform("event", "data")
    return (
        rows.select_related("club")
        .annotate(
            event_name=KeyTextTransform("name", event),
            event_date=Cast(KeyTextTransform("start_date", event), DateField()),
        )
        .prefetch_related(Prefetch("matches", queryset=all_rows, to_attr="rows"))
        .order_by("received_at", "pk")
        .defer("data")
    )


def match_row(pk: int):
    return (
        PlayerMatch.objects.select_related("submission__club", "player")
        .defer("submission__data")
        .filter(pk=pk)
        .first()
    )


def candidates(row: PlayerMatch, query: str = ""):
    """Players here worth offering: the same number, the same name, or the search."""
    query = (query or "").strip()[:100]
    found = Player.objects.filter(
        Q(player_number=row.player_number)
        | Q(given_name__iexact=row.given_name, family_name__iexact=row.family_name)
    )
    if query:
        found = found | Player.objects.matching(query)
    return found.distinct().order_by("sort_key")[:SEARCH_LIMIT]


def visible_submission(user, pk: int):
    """A submission for its page (without the archive), with its open players counted:
    for superusers, whoever uploaded it, the club's organisers and the ranking officers
    of its region; None for anyone else (the page answers 404)."""
    submission = (
        Submission.objects.select_related("club__affiliation", "event", "received_by")
        .defer("data")
        .annotate(open_count=Count("matches", filter=Q(matches__state=PlayerMatch.State.OPEN)))
        .filter(pk=pk)
        .first()
    )
    if submission is None or not user.is_authenticated:
        return None
    if user.is_superuser or submission.received_by_id == user.pk:
        return submission
    return submission if may_manage_tokens(user, submission.club) else None
