"""Season rankings and a player's results across events, read from stored points."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, Sum

from rules.standings import core
from scoring.models import SeatTotal, Sheet
from scoring.standings.labels import reason_text
from scoring.standings.selectors import sees_unpublished
from tournaments.models import Event, Participant, Season, Series


@dataclass
class SeasonResult:
    series_id: int
    event_id: int
    event_name: str
    date: Any
    number: int
    total: int


@dataclass
class SeasonLine:
    row: core.SeasonRow
    player_id: int
    name: str
    results: list[SeasonResult]
    dropped: list[SeasonResult]
    reason_text: str
    number: str = ""  # the player number, for "find my line"


def _full_name(person: dict | None) -> str:
    return f"{person['given_name']} {person['family_name']}" if person else "?"


@dataclass
class SeasonStanding:
    season: Season
    lines: list[SeasonLine]
    rule: core.DropRule | None
    series_count: int


def drop_rule_of(season: Season) -> core.DropRule | None:
    if not season.drop_maximum:
        return None
    return core.DropRule(
        start=max(1, season.drop_start),
        every=max(1, season.drop_every),
        maximum=season.drop_maximum,
    )


def season_standing(season: Season, *, only_published: bool = True) -> SeasonStanding:
    """The season ranking over the regular series of the season's events (one result per
    series played, confirmed sheets only). Queries: events, aggregate, players."""
    events = {
        e["id"]: e
        for e in Event.objects.filter(season=season)
        .order_by()
        .values("id", "name", "start_date", "ruleset_slug", "ruleset_overrides")
    }
    # By the events' ids read above: no join of the events table in the aggregate.
    series_q = Q(
        sheet__table__series__event_id__in=list(events),
        sheet__table__series__kind=Series.Kind.REGULAR,
    )
    if only_published:
        series_q &= Q(sheet__table__series__published=True)
    prefix = "sheet__table__series__"
    rows = (
        SeatTotal.objects.filter(series_q, sheet__status=Sheet.Status.CONFIRMED)
        .values("participant__player_id", f"{prefix}id", f"{prefix}number", f"{prefix}event_id")
        .annotate(total=Sum("points"))
        .order_by()
    )
    results: dict[int, list[SeasonResult]] = defaultdict(list)
    series_seen = set()
    for r in rows:
        e = events[r[f"{prefix}event_id"]]
        series_seen.add(r[f"{prefix}id"])
        results[r["participant__player_id"]].append(
            SeasonResult(
                series_id=r[f"{prefix}id"],
                event_id=e["id"],
                event_name=e["name"],
                date=e["start_date"],
                number=r[f"{prefix}number"],
                total=r["total"] or 0,
            )
        )
    for rs in results.values():
        rs.sort(key=lambda s: (s.date, s.event_id, s.number))
    from clubs.models import Player

    people = {
        p["id"]: p
        for p in Player.objects.filter(pk__in=list(results)).values(
            "id", "given_name", "family_name", "player_number"
        )
    }
    hib = _season_higher_is_better(events.values())
    rule = drop_rule_of(season)
    ranked = core.season_ranking(
        [core.SeasonEntry(pid, tuple(r.total for r in rs)) for pid, rs in results.items()],
        mode=season.ranking_mode,
        minimum_series=season.minimum_series,
        drop_rule=rule,
        higher_is_better=hib,
    )
    lines = [
        SeasonLine(
            row=row,
            player_id=row.key,
            name=_full_name(people.get(row.key)),
            number=people.get(row.key, {}).get("player_number", ""),
            results=results[row.key],
            dropped=[results[row.key][i] for i in row.dropped],
            reason_text=reason_text(row.reason),
        )
        for row in ranked
    ]
    return SeasonStanding(season=season, lines=lines, rule=rule, series_count=len(series_seen))


def _season_higher_is_better(events) -> bool:
    from rules import ruleset_from

    flags = {
        ruleset_from(e["ruleset_slug"], e["ruleset_overrides"] or {}).higher_is_better
        for e in events
    }
    return flags != {False}


# --------------------------------------------------------------------------- player results


@dataclass
class PlayerSeries:
    event_id: int
    event_name: str
    date: Any
    number: int
    total: int
    series_rank: int
    running_total: int
    running_rank: int
    field_size: int


def player_results(player, user) -> list[PlayerSeries]:
    """A player's results per series over all events, oldest first, with the series rank
    and the running overall rank after each series. Only series that are published or
    whose event the user directs. Queries: participations, aggregate (+ role lookup)."""
    participations = list(
        Participant.objects.filter(player=player).values(
            "id", "event_id", "event__name", "event__start_date", "event__club_id",
            "event__ruleset_slug", "event__ruleset_overrides",
        )
    )  # fmt: skip
    if not participations:
        return []
    event_ids = [p["event_id"] for p in participations]
    directed = [
        p["event_id"] for p in participations if sees_unpublished(user, p["event__club_id"])
    ]
    visible = Q(sheet__table__series__published=True) | Q(
        sheet__table__series__event_id__in=directed
    )
    q = (
        Q(sheet__table__series__event_id__in=event_ids)
        & Q(sheet__table__series__kind=Series.Kind.REGULAR)
        & visible
    )
    prefix = "sheet__table__series__"
    rows = (
        SeatTotal.objects.filter(q, sheet__status=Sheet.Status.CONFIRMED)
        .values("participant_id", f"{prefix}event_id", f"{prefix}number")
        .annotate(total=Sum("points"))
        .order_by()
    )
    per_event: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        per_event[r[f"{prefix}event_id"]][r[f"{prefix}number"]][r["participant_id"]] = (
            r["total"] or 0
        )
    from rules import ruleset_from

    out: list[PlayerSeries] = []
    for p in sorted(participations, key=lambda p: (p["event__start_date"], p["event_id"])):
        hib = ruleset_from(p["event__ruleset_slug"], p["event__ruleset_overrides"] or {})
        hib = hib.higher_is_better
        running: dict[int, int] = defaultdict(int)
        for number in sorted(per_event.get(p["event_id"], {})):
            totals = per_event[p["event_id"]][number]
            for pid, total in totals.items():
                running[pid] += total
            if p["id"] not in totals:
                continue
            out.append(
                PlayerSeries(
                    event_id=p["event_id"],
                    event_name=p["event__name"],
                    date=p["event__start_date"],
                    number=number,
                    total=totals[p["id"]],
                    series_rank=_rank_of(totals, p["id"], hib),
                    running_total=running[p["id"]],
                    running_rank=_rank_of(running, p["id"], hib),
                    field_size=len(running),
                )
            )
    return out


def _rank_of(totals: dict[int, int], key: int, hib: bool) -> int:
    """Competition rank of ``key`` by total alone (1 + how many are strictly better)."""
    mine = totals[key]
    return 1 + sum(1 for v in totals.values() if (v > mine if hib else v < mine))
