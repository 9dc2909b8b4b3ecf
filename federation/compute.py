"""Computing a ranking list (issue 27, point 2): every approved EventVersion of the ranking
through the pure rules (`scoring.rules.ranking.compute_ranking`) into a new
RankingSnapshot, whose `lines` every page, print and JSON reads (format in
docs/federation.md). Three queries read what it needs however many events and players:
the versions with their events, the players with club and region, the hidden players.

`schedule_recompute` asks the task worker for it once the approval, rejection or settings
change is committed: one waiting task per ranking, no request waits for it."""

from __future__ import annotations

import datetime as dt
import logging

from django.db import transaction
from django.db.models import Max, OuterRef, Q, Subquery
from django_tasks import TaskResultStatus, task

from clubs.models import Membership, Player
from scoring.rules.ranking import (
    DISQUALIFIED,
    FIELD_SMALL,
    MIN_EVENTS,
    MIN_HANDS,
    SERIES_FEW,
    EventResult,
    RankingSettings,
    compute_ranking,
    shown,
)
from scoring.rules.ranking_settings import gettext_noop

from .models import EventVersion, PublicHiding, Ranking, RankingSnapshot

log = logging.getLogger(__name__)

# Why a result does not count, or a player is not listed: English msgids, the pages
# translate them (the snapshot keeps them language-free).
REASONS = {
    "dropped": gettext_noop("dropped: not among the best results"),
    FIELD_SMALL: gettext_noop("the field was smaller than the minimum"),
    SERIES_FEW: gettext_noop("fewer series than the minimum"),
    DISQUALIFIED: gettext_noop("disqualified"),
    MIN_EVENTS: gettext_noop("fewer events than the minimum"),
    MIN_HANDS: gettext_noop("fewer hands than the minimum"),
}


def _today() -> dt.date:
    from django.utils import timezone

    return timezone.localdate()


def _decimal(value) -> str:
    return "" if value is None else str(shown(value))


def _players(ids, on: dt.date) -> dict[int, dict]:
    """Name, club short name and region of each player on the ranking date (one query)."""
    current = (
        Membership.objects.filter(player=OuterRef("pk"), valid_from__lte=on)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on))
        .order_by("-valid_from")
    )
    rows = (
        Player.objects.filter(pk__in=ids)
        .annotate(
            club_short=Subquery(current.values("club__short_name")[:1]),
            region=Subquery(current.values("club__affiliation__association_id")[:1]),
        )
        .values_list("pk", "given_name", "family_name", "club_short", "region")
    )
    return {
        pk: {"name": f"{given} {family}", "club": club or "", "regions": [region] if region else []}
        for pk, given, family, club, region in rows
    }


def _result_line(scored, info: dict) -> dict:
    version = info["version"]
    status = scored[3]
    return {
        "version": version.pk,
        "event": version.status.event_id,
        "event_name": version.status.event.name,
        "date": scored[0].date.isoformat(),
        "place": scored[0].place,
        "field": scored[0].field_size,
        "points": _decimal(scored.points),
        "counted": status == "counted",
        "reason": "" if status == "counted" else REASONS.get(status, status),
    }


def build_lines(ranking, versions: list[EventVersion], players: dict, hidden) -> list[dict]:
    """The snapshot's lines from the computed list (`scoring.rules.ranking.Ranking`)."""
    by_event = {v.status.event_id: {"version": v} for v in versions}
    out = []
    for line in (*ranking.lines, *ranking.unlisted):
        person = players.get(line.player, {"name": "?", "club": "", "regions": []})
        results = [*line.counted, *line.dropped, *line.excluded]
        results.sort(key=lambda s: (s[0].date, s[0].event), reverse=True)
        out.append(
            {
                "player": line.player,
                "name": person["name"],
                "club": person["club"],
                "regions": person["regions"],
                "rank": line.rank,
                "value": _decimal(line.value),
                "listed": line.listed,
                "hidden": line.player in hidden,
                "events_counted": line.events_counted,
                "best": _decimal(line.best),
                "reason": REASONS.get(line.reason, line.reason) if line.reason else "",
                "results": [_result_line(s, by_event[s[0].event]) for s in results],
            }
        )
    # Listed by rank, the unlisted after them; then by name (a shared rank too).
    out.sort(key=lambda ln: (not ln["listed"], ln["rank"] or 0, ln["name"].casefold()))
    return out


def recompute(ranking: Ranking, reason: str = "") -> RankingSnapshot:
    """A new snapshot of the ranking from its approved versions (module docstring)."""
    settings = RankingSettings.from_json(ranking.settings or {})
    as_of = ranking.as_of or _today()
    versions = list(
        EventVersion.objects.filter(
            status__ranking=ranking, state=EventVersion.State.APPROVED
        ).select_related("status__event")
    )
    results = []
    for version in versions:
        status, event = version.status, version.status.event
        if status.event_class not in settings.class_factors:
            continue  # a class this ranking no longer counts
        for row in version.results:
            results.append(
                EventResult(
                    player=row["player"],
                    event=event.pk,
                    date=event.start_date,
                    event_class=status.event_class,
                    field_size=version.field_size,
                    place=row["place"],
                    score=int(row.get("score", 0)),
                    hands=int(row.get("hands", 0)),
                    series=version.series_count,
                    disqualified=bool(row.get("disqualified", False)),
                )
            )
    ids = {r.player for r in results}
    hidden = (
        set(PublicHiding.objects.filter(player_id__in=ids).values_list("player_id", flat=True))
        if ids
        else set()
    )
    computed = compute_ranking(results, settings, as_of, hidden=hidden)
    players = _players(ids, as_of) if ids else {}
    lines = build_lines(computed, versions, players, hidden)
    with transaction.atomic():
        # The ranking's row lock gives each computation its own number.
        Ranking.objects.select_for_update().filter(pk=ranking.pk).first()
        number = (ranking.snapshots.aggregate(n=Max("number"))["n"] or 0) + 1
        return RankingSnapshot.objects.create(
            ranking=ranking,
            number=number,
            as_of=as_of,
            settings=settings.as_json(),
            versions=sorted(v.pk for v in versions),
            lines=lines,
            reason=(reason or "")[:200],
        )


# ----- the task ----------------------------------------------------------------------------


def _database_backend():
    from django_tasks_db.backend import DatabaseBackend

    return DatabaseBackend


def _enqueue(ranking_id: int, reason: str) -> None:
    backend = recompute_ranking.get_backend()
    if isinstance(backend, _database_backend()):
        from django_tasks_db.models import DBTaskResult

        waiting = DBTaskResult.objects.filter(
            task_path=recompute_ranking.module_path,
            status=TaskResultStatus.READY,
            args_kwargs__kwargs__ranking_id=ranking_id,
        )
        if waiting.exists():
            return  # the waiting one reads everything committed by the time it runs
    recompute_ranking.enqueue(ranking_id=ranking_id, reason=reason)


def schedule_recompute(ranking_id: int, reason: str = "") -> None:
    """Ask the worker for a computation of the ranking once the current transaction is
    committed (at once outside one)."""
    transaction.on_commit(lambda: _enqueue(ranking_id, reason))


@task()
def recompute_ranking(ranking_id: int, reason: str = "") -> dict:
    ranking = Ranking.objects.filter(pk=ranking_id).first()
    if ranking is None:
        return {"state": "gone"}
    snapshot = recompute(ranking, reason)
    log.info("ranking %s computed: snapshot %s", ranking_id, snapshot.number)
    # The public pages' first reader would parse the whole snapshot (0.3-0.5 s for 10,000
    # players: bench.federation_public_bench); the worker reads it into the cache instead.
    from federation.public import ranking_state, snapshot_lines

    state = ranking_state(ranking_id)
    if state is not None:
        snapshot_lines(state)
    return {"state": "done", "number": snapshot.number, "lines": len(snapshot.lines)}
