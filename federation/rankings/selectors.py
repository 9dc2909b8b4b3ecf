"""What the ranking, status and review pages read (a fixed number of queries each), and the
regional associations a ranking's list can be cut to."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import fold_german
from clubs.permissions import ORGANISER, clubs_with_role, has_role
from federation.associations.models import Association
from federation.associations.permissions import associations_for, can_manage, can_view
from federation.rankings.models import (
    EventVersion,
    Ranking,
    RankingSnapshot,
    RankingStatus,
    SnapshotLine,
)
from federation.rankings.snapshot_rows import shared_results, unpack
from federation.rankings.snapshots import LazyLines, results_fields
from rules.ranking import RankingSettings, describe


def rankings_visible(user):
    """The rankings of every association the user may see."""
    return Ranking.objects.filter(association__in=associations_for(user)).select_related(
        "association"
    )


def setting_lines(settings_json) -> list[str]:
    """Every setting as a German sentence (`describe`), numbers in German form."""

    classes = dict(RankingStatus.EventClass.choices)  # "ranking" → "Ranglistenturnier"

    def show(name, value):
        if name == "event_class":
            return str(classes.get(value, value))
        return str(value).replace(".", ",") if name == "factor" else str(value)

    settings = RankingSettings.from_json(settings_json or {})
    return [line.text(_, show) for line in describe(settings)]


@dataclass
class RankingPage:
    ranking: Ranking
    snapshot: RankingSnapshot | None
    settings: list[str]
    lines: list[dict]  # the lines of the page shown
    can_manage: bool
    pages: Page | None = None
    query: str = ""  # the sort, for the page links


SORTS = {
    "name": lambda ln: fold_german(ln["name"]),
    "club": lambda ln: (fold_german(ln["club"] or ""), fold_german(ln["name"])),
    "events": lambda ln: (-ln["events_counted"], not ln["listed"], ln["rank"] or 0),
}
PAGE_SIZE = 100


def ranking_page(user, ranking: Ranking, sort: str = "rank", number=None) -> RankingPage:
    """The ranking with one page of its newest list: a count and the page's lines (every
    line when sorted otherwise than by rank), then the page's results (a fixed number of
    queries however long the list)."""
    snapshot = ranking.snapshots.order_by("-number").first()
    lines = LazyLines(snapshot, listed=None) if snapshot else []
    if sort in SORTS and snapshot:  # the snapshot's own order is by rank
        lines.sort(key=SORTS[sort])
    pages = Paginator(lines, PAGE_SIZE).get_page(number)
    shown = list(pages.object_list)
    rows = SnapshotLine.objects.filter(snapshot=snapshot, player__in=[ln["player"] for ln in shown])
    found = dict(rows.values_list("player", shared_results())) if shown else {}
    page_lines = []
    for line in shown:
        results = unpack(found.get(line["player"], []), snapshot.events)
        # Numbers in the reader's language, as the members' list and the prints show them.
        page_lines.append(line | {"results": results} | results_fields(results))
    return RankingPage(
        ranking=ranking,
        snapshot=snapshot,
        settings=setting_lines(ranking.settings),
        lines=page_lines,
        can_manage=can_manage(user, ranking.association),
        pages=pages,
        query=f"sort={sort}" if sort in SORTS else "",
    )


def may_see_status(user, status: RankingStatus) -> bool:
    return can_view(user, status.ranking.association) or has_role(
        user, status.event.club, ORGANISER
    )


def review_queue(user) -> dict:
    """Requests and versions waiting for the user's decision (associations they manage)."""
    managed = associations_for(user, "officer")
    requests = (
        RankingStatus.objects.filter(
            ranking__association__in=managed, state=RankingStatus.State.REQUESTED
        )
        .select_related("event__club", "ranking__association")
        .order_by("requested_at")
    )
    waiting = (
        EventVersion.objects.filter(
            status__ranking__association__in=managed, state=EventVersion.State.PENDING
        )
        .select_related("status__event__club", "status__ranking")
        .order_by("submitted_at")
    )
    own = (
        RankingStatus.objects.filter(event__club__in=clubs_with_role(user, ORGANISER))
        .select_related("event", "ranking")
        .order_by("-requested_at")[:100]
    )
    return {"requests": list(requests), "waiting": list(waiting), "own": list(own)}


def ranking_versions(ranking: Ranking):
    """Every version of the ranking's events with when it counted (the ranking's history)."""
    return (
        EventVersion.objects.filter(status__ranking=ranking)
        .select_related("status__event", "submitted_by", "reviewed_by")
        .order_by("-status__event__start_date", "status__event_id", "-number")
    )


def regions_of(ranking: Ranking) -> list[Association]:
    """The regional associations a list of this ranking can be cut to: those below a
    national association, or the regional association itself (one query)."""
    association = ranking.association
    return list(
        Association.objects.filter(Q(parent_id=association.pk) | Q(pk=association.pk))
        .filter(kind=Association.Kind.REGIONAL)
        .order_by("name")
    )
