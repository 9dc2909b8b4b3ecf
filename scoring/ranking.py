"""Standings from the database: aggregate stored points with SQL, rank with scoring.standings.

The pure core (``scoring.standings``) ranks, explains and proposes playoffs; this module
only reads. One GROUP BY over ``HandSeat`` gives, per participant and series, the sum of
points, the hand points held in lost hands, the hands won (``winner == position``), the
hand Rommés and whether an unconfirmed sheet was counted; everything else is Python.

A page reads a fixed number of queries whatever the field size: the aggregate, the
participants (names, clubs), the pairs and teams, the series. See ``docs/standings.md``.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Event, Group, GroupMember, Participant, Season, Series, Table

from . import standings as core
from . import visibility
from .messages_rules import tie_policy_text
from .models import HandSeat, Sheet
from .standings_ties import ranking_chain

INDIVIDUAL, PAIR, TEAM = "individual", "pair", "team"
COMPETITIONS = (INDIVIDUAL, PAIR, TEAM)
OVERALL, SERIES, DAY = "overall", "series", "day"
SCOPES = (OVERALL, SERIES, DAY)

COMPETITION_LABELS = {
    INDIVIDUAL: gettext_lazy("Individual"),
    PAIR: gettext_lazy("Pairs"),
    TEAM: gettext_lazy("Teams"),
}
SCOPE_LABELS = {
    OVERALL: gettext_lazy("Overall"),
    SERIES: gettext_lazy("Per series"),
    DAY: gettext_lazy("Per day"),
}

# Translated labels of scoring.standings.METRICS (the core's labels are English).
METRIC_LABELS = {
    "total": gettext_lazy("Total"),
    "hands_won": gettext_lazy("Hands won"),
    "hand_rommes": gettext_lazy("Hand Rommés"),
    "fewest_hand_points": gettext_lazy("Fewest hand points"),
    "last_series": gettext_lazy("Better last series"),
    "best_series": gettext_lazy("Best single series"),
    "lots": gettext_lazy("Lots"),
    core.PLAYOFF: gettext_lazy("Playoff"),
    "average": gettext_lazy("Average"),
}

METRIC_DESCRIPTIONS = {
    "total": gettext_lazy("The total score; better under the event's scoring profile."),
    "hands_won": gettext_lazy("More hands won (went out first) is better."),
    "hand_rommes": gettext_lazy("More hand Rommés is better."),
    "fewest_hand_points": gettext_lazy("Fewer hand points held in lost hands is better."),
    "last_series": gettext_lazy("The better result in the last series played."),
    "best_series": gettext_lazy("The better best single series."),
    "lots": gettext_lazy("A lot drawn with the stored seed; lot 1 is best."),
}


def metric_label(key: str) -> str:
    return str(METRIC_LABELS.get(key, key))


def reason_text(reason: core.Reason | None) -> str:
    """Why a row stands above the next one, in the reader's language."""
    if reason is None:
        return ""
    if reason.metric == core.SHARED:
        return _("Equal with the next row on the whole tie-break chain: they share the rank.")
    if reason.metric == core.MINIMUM_SERIES:
        return _(
            "Played the minimum number of series (%(this)s), the next row has not (%(next)s)."
        ) % {"this": reason.this, "next": reason.next}
    if reason.metric == core.PLAYOFF:
        return _("Decided by the playoff: place %(this)s against %(next)s.") % {
            "this": "–" if reason.this is None else reason.this,
            "next": "–" if reason.next is None else reason.next,
        }
    return _("Ahead of the next row on “%(metric)s”: %(this)s against %(next)s.") % {
        "metric": metric_label(reason.metric),
        "this": _number(reason.this),
        "next": _number(reason.next),
    }


def _number(value) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


# Who sees what: scoring.visibility (directors are the organisers of the event's club).
is_director = visibility.is_director
sees_unpublished = visibility.sees_unpublished


# --------------------------------------------------------------------------- aggregation


@dataclass
class SeriesResult:
    """One participant's aggregates in one series."""

    participant_id: int
    series_id: int
    number: int
    day: int
    kind: str
    total: int
    hand_points: int
    hands_won: int
    hand_rommes: int
    unconfirmed: int


def _statuses(include_entered: bool) -> list[str]:
    if include_entered:
        return [Sheet.Status.CONFIRMED, Sheet.Status.ENTERED]
    return [Sheet.Status.CONFIRMED]


def aggregate(
    series: list[dict], *, include_entered: bool = False, by: str = "participant_id"
) -> list[SeriesResult]:
    """One GROUP BY query: per participant (or ``by``) and series over the counted sheets of
    ``series`` (dicts with id, number, day, kind, as :func:`_visible_series` gives them).

    SUM(points), SUM(hand points in lost hands), COUNT(hands won: winner == position),
    COUNT(hand Rommés of the winner), COUNT(seats on entered sheets). Grouped by the table's
    series id only (number, day and kind come from ``series``), read as tuples: the cheapest
    form of the query on SQLite and PostgreSQL alike.
    """
    if not series:
        return []
    info = {s["id"]: s for s in series}
    won = Q(hand__winner=F("position"))
    rows = (
        HandSeat.objects.filter(
            hand__sheet__table__series_id__in=list(info),
            hand__sheet__status__in=_statuses(include_entered),
        )
        .values_list(by, "hand__sheet__table__series_id")
        .annotate(
            total=Sum("points"),
            lost_hand_points=Sum("held_points", filter=~won),
            won=Count("id", filter=won),
            rommes=Count("id", filter=won & Q(hand__hand_romme=True)),
            unconfirmed=Count("id", filter=Q(hand__sheet__status=Sheet.Status.ENTERED)),
        )
        .order_by()
    )
    out = []
    for key, series_id, total, lost, hands_won, rommes, unconfirmed in rows:
        s = info[series_id]
        out.append(
            SeriesResult(
                participant_id=key,
                series_id=series_id,
                number=s["number"],
                day=s["day"],
                kind=s["kind"],
                total=total or 0,
                hand_points=lost or 0,
                hands_won=hands_won,
                hand_rommes=rommes,
                unconfirmed=unconfirmed,
            )
        )
    return out


def _entry(key, results: list[SeriesResult]) -> core.Entry:
    """An Entry from one participant's series results (in order of play)."""
    return core.Entry(
        key=key,
        total=sum(r.total for r in results),
        hands_won=sum(r.hands_won for r in results),
        hand_rommes=sum(r.hand_rommes for r in results),
        hand_points=sum(r.hand_points for r in results),
        series_totals=tuple(r.total for r in results),
        provisional=any(r.unconfirmed for r in results),
    )


def playoff_places(playoff_results: list[SeriesResult], higher_is_better: bool) -> dict[int, int]:
    """Playoff places (1 = best) from the playoff series' totals, earlier playoffs first.

    Each participant's key is its totals in the playoffs in order (a playoff it did not
    play counts as worst); equal keys get the same place, so a tie that holds is proposed
    again. Places only ever compare players the chain could not separate.
    """
    if not playoff_results:
        return {}
    order = sorted({(r.number, r.series_id) for r in playoff_results})
    index = {sid: i for i, (_n, sid) in enumerate(order)}
    worst = float("inf")
    keys: dict[int, list[float]] = defaultdict(lambda: [worst] * len(order))
    for r in playoff_results:
        keys[r.participant_id][index[r.series_id]] = -r.total if higher_is_better else r.total
    ranked = sorted(keys.items(), key=lambda kv: kv[1])
    places: dict[int, int] = {}
    for i, (pid, key) in enumerate(ranked):
        if i and ranked[i - 1][1] == key:
            places[pid] = places[ranked[i - 1][0]]
        else:
            places[pid] = i + 1
    return places


# --------------------------------------------------------------------------- event standings


@dataclass
class StandingRow:
    """One line of a standing page, JSON or display: plain values, no queries."""

    rank: int
    key: Any
    name: str
    club: str
    club_id: int | None
    total: int
    values: dict[str, Any]
    reason: core.Reason | None
    provisional: bool
    series_totals: dict[int, int]
    player_id: int | None = None
    participant_id: int | None = None
    group_id: int | None = None
    members: list[dict] = field(default_factory=list)
    club_ids: set = field(default_factory=set)

    @property
    def reason_text(self) -> str:
        return reason_text(self.reason)


@dataclass
class EventStanding:
    event: Event
    competition: str
    scope: str
    number: int | None
    rows: list[StandingRow]
    chain: tuple[str, ...]
    series: list[dict]  # every series of the event visible here: id, number, day, kind, ...
    counted_series: list[int]  # numbers of the series counted in this standing
    provisional: bool  # unconfirmed sheets were included
    only_published: bool
    ties: list[list[StandingRow]]  # ties on the prize lines (overall individual only)
    lots_seed: int | None
    days: list[int] = field(default_factory=list)
    ties_policy: str = "chain"  # the rule set's tie policy ("playoff" or "chain")

    @property
    def ties_policy_text(self) -> str:
        return tie_policy_text(self.ties_policy)


def _visible_series(event: Event, only_published: bool) -> list[dict]:
    qs = Series.objects.filter(event=event)
    if only_published:
        qs = qs.filter(published=True)
    return list(
        qs.order_by("number").values(
            "id", "number", "day", "kind", "status", "published", "playoff_of"
        )
    )


def _ensure_lots_seed(event: Event) -> int:
    """The event's lots seed; drawn with `secrets` and stored the first time it is needed."""
    if event.lots_seed is None:
        seed = secrets.randbits(62)
        Event.objects.filter(pk=event.pk, lots_seed__isnull=True).update(lots_seed=seed)
        event.lots_seed = Event.objects.values_list("lots_seed", flat=True).get(pk=event.pk)
    return event.lots_seed


def _rank(event: Event, entries: list[core.Entry], chain: tuple[str, ...]) -> list[core.Row]:
    hib = event.ruleset.higher_is_better
    if chain[-1] != "lots":
        return core.rank(entries, chain, higher_is_better=hib)
    if event.lots_seed is None:
        # Lots are drawn only when a tie needs them: rank without them first.
        rows = core.rank(entries, chain[:-1], higher_is_better=hib)
        if not any(r.reason is not None and r.reason.metric == core.SHARED for r in rows):
            return rows
    return core.rank(entries, chain, lots_seed=_ensure_lots_seed(event), higher_is_better=hib)


def _participant_info(event: Event) -> dict[int, dict]:
    rows = Participant.objects.filter(event=event).values(
        "id",
        "player_id",
        "player__given_name",
        "player__family_name",
        "club_id",
        "club__short_name",
    )
    return {
        r["id"]: {
            "participant_id": r["id"],
            "player_id": r["player_id"],
            "name": f"{r['player__given_name']} {r['player__family_name']}",
            "club": r["club__short_name"] or "",
            "club_id": r["club_id"],
        }
        for r in rows
    }


def _groups(event: Event, kind: str) -> tuple[dict[str, dict], dict[str, list[int]]]:
    """Groups of one kind: info by key ("pair:<pk>") and member participant ids."""
    groups = {
        f"{kind}:{g['id']}": {"group_id": g["id"], "name": g["name"]}
        for g in Group.objects.filter(event=event, kind=kind).values("id", "name")
    }
    members: dict[str, list[int]] = {key: [] for key in groups}
    for m in (
        GroupMember.objects.filter(group__event=event, kind=kind)
        .order_by("group_id", "participant_id")
        .values("group_id", "participant_id")
    ):
        members[f"{kind}:{m['group_id']}"].append(m["participant_id"])
    return groups, {k: v for k, v in members.items() if v}


def event_standing(
    event: Event,
    *,
    competition: str = INDIVIDUAL,
    scope: str = OVERALL,
    number: int | None = None,
    include_entered: bool = False,
    only_published: bool = True,
) -> EventStanding:
    """The standing of one competition and scope, ranked by the event's chain.

    ``scope`` is ``overall``, ``series`` (``number`` is the series number) or ``day``
    (``number`` is the day). ``include_entered`` adds entered, unconfirmed sheets (only
    for the director; rows then say ``provisional``). ``only_published`` counts published
    series only (public pages and the anonymous API). Playoff series never count towards
    totals; in the overall individual standing they decide ties (``apply_playoff``).
    Queries: series, aggregate, participants (+ groups and members for pairs and teams).
    """
    if competition not in COMPETITIONS:
        raise ValueError(f"unknown competition {competition!r}")
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    series = _visible_series(event, only_published)
    regular = [s for s in series if s["kind"] == Series.Kind.REGULAR]
    days = sorted({s["day"] for s in regular})
    if scope == SERIES:
        counted = [s for s in regular if s["number"] == number]
    elif scope == DAY:
        counted = [s for s in regular if s["day"] == number]
    else:
        counted = regular
    counted_ids = {s["id"] for s in counted}
    playoff_ids = {s["id"] for s in series if s["kind"] == Series.Kind.PLAYOFF}
    wanted = counted_ids | (playoff_ids if scope == OVERALL else set())

    results = aggregate([s for s in series if s["id"] in wanted], include_entered=include_entered)
    results.sort(key=lambda r: (r.number, r.participant_id))
    by_participant: dict[int, list[SeriesResult]] = defaultdict(list)
    playoff_results = []
    for r in results:
        if r.series_id in counted_ids:
            by_participant[r.participant_id].append(r)
        else:
            playoff_results.append(r)

    info = _participant_info(event)
    ruleset = event.ruleset
    chain = ranking_chain(
        core.normalize_chain(event.tie_break_chain or core.DEFAULT_CHAIN), ruleset.ties
    )
    hib = ruleset.higher_is_better
    numbers = [s["number"] for s in counted]

    if competition == INDIVIDUAL:
        entries = [_entry(pid, rs) for pid, rs in by_participant.items()]
        if playoff_results:
            places = playoff_places(playoff_results, hib)
            entries = core.apply_playoff(
                entries, {k: v for k, v in places.items() if k in by_participant}
            )
        ranked = _rank(event, entries, chain)
        series_of = {pid: {r.number: r.total for r in rs} for pid, rs in by_participant.items()}
        rows = [_individual_row(row, info, series_of) for row in ranked]
    else:
        groups, members = _groups(event, competition)
        zero = core.Entry(key=0, total=0)
        # Members' series totals aligned on the counted series (0 where not played).
        aligned = {}
        for pid in {m for ms in members.values() for m in ms}:
            rs = {r.number: r for r in by_participant.get(pid, [])}
            base = _entry(pid, list(rs.values())) if rs else zero
            aligned[pid] = core.Entry(
                key=pid,
                total=base.total,
                hands_won=base.hands_won,
                hand_rommes=base.hand_rommes,
                hand_points=base.hand_points,
                series_totals=tuple(rs[n].total if n in rs else 0 for n in numbers),
                provisional=base.provisional,
            )
        played = {k: ms for k, ms in members.items() if any(m in by_participant for m in ms)}
        entries = core.combine(aligned, played)
        ranked = _rank(event, entries, chain)
        rows = [_group_row(row, groups, members, info, numbers) for row in ranked]

    standing = EventStanding(
        event=event,
        competition=competition,
        scope=scope,
        number=number,
        rows=rows,
        chain=chain,
        series=series,
        counted_series=numbers,
        provisional=include_entered and any(r.provisional for r in rows),
        only_published=only_published,
        ties=[],
        lots_seed=event.lots_seed,
        days=days,
        ties_policy=ruleset.ties,
    )
    if competition == INDIVIDUAL and scope == OVERALL:
        lines = [int(x) for x in (event.prize_lines or [1])]
        by_key = {row.key: row for row in rows}
        standing.ties = [
            [by_key[r.key] for r in group] for group in core.ties_on_lines(ranked, lines)
        ]
    return standing


def _individual_row(row: core.Row, info: dict, series_of: dict) -> StandingRow:
    p = info.get(row.key, {"name": "?", "club": "", "club_id": None, "player_id": None})
    return StandingRow(
        rank=row.rank,
        key=row.key,
        name=p["name"],
        club=p["club"],
        club_id=p["club_id"],
        total=row.entry.total,
        values=dict(row.values),
        reason=row.reason,
        provisional=row.provisional,
        series_totals=series_of.get(row.key, {}),
        player_id=p["player_id"],
        participant_id=row.key,
        club_ids={p["club_id"]} if p["club_id"] else set(),
    )


def _group_row(row: core.Row, groups, members, info, numbers) -> StandingRow:
    g = groups[row.key]
    people = [info[m] for m in members[row.key] if m in info]
    clubs = sorted({p["club"] for p in people if p["club"]})
    return StandingRow(
        rank=row.rank,
        key=row.key,
        name=g["name"],
        club=", ".join(clubs),
        club_id=None,
        total=row.entry.total,
        values=dict(row.values),
        reason=row.reason,
        provisional=row.provisional,
        series_totals=dict(zip(numbers, row.entry.series_totals, strict=False)),
        group_id=g["group_id"],
        members=[
            {
                "id": p["player_id"],
                "participant_id": p["participant_id"],
                "name": p["name"],
                "club": p["club"],
                "club_id": p["club_id"],
            }
            for p in people
        ],
        club_ids={p["club_id"] for p in people if p["club_id"]},
    )


def filter_by_club(rows: list[StandingRow], club_id: int | None) -> list[StandingRow]:
    """Rows of one club (ranks stay those of the whole field)."""
    if not club_id:
        return rows
    return [r for r in rows if club_id in r.club_ids]


def playoffs(event: Event) -> list[dict]:
    """The event's playoff series, each with its table number and sheet status (one query)."""
    rows = (
        Table.objects.filter(series__event=event, series__kind=Series.Kind.PLAYOFF)
        .order_by("series__number", "number")
        .values(
            "series_id", "series__number", "series__status", "series__published",
            "series__playoff_of", "number", "sheet__status",
        )
    )  # fmt: skip
    return [
        {
            "id": r["series_id"],
            "number": r["series__number"],
            "status": r["series__status"],
            "published": r["series__published"],
            "playoff_of": r["series__playoff_of"] or {},
            "table": r["number"],
            "sheet_status": r["sheet__status"],
        }
        for r in rows
    ]


# --------------------------------------------------------------------------- season ranking


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
        for e in Event.objects.filter(season=season).values(
            "id", "name", "start_date", "ruleset_slug", "ruleset_overrides"
        )
    }
    series_q = Q(
        hand__sheet__table__series__event__season=season,
        hand__sheet__table__series__kind=Series.Kind.REGULAR,
    )
    if only_published:
        series_q &= Q(hand__sheet__table__series__published=True)
    prefix = "hand__sheet__table__series__"
    rows = (
        HandSeat.objects.filter(series_q, hand__sheet__status=Sheet.Status.CONFIRMED)
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

    names = {
        p["id"]: f"{p['given_name']} {p['family_name']}"
        for p in Player.objects.filter(pk__in=list(results)).values(
            "id", "given_name", "family_name"
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
            name=names.get(row.key, "?"),
            results=results[row.key],
            dropped=[results[row.key][i] for i in row.dropped],
            reason_text=reason_text(row.reason),
        )
        for row in ranked
    ]
    return SeasonStanding(season=season, lines=lines, rule=rule, series_count=len(series_seen))


def _season_higher_is_better(events) -> bool:
    from scoring.rules import ruleset_from

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
    visible = Q(hand__sheet__table__series__published=True) | Q(
        hand__sheet__table__series__event_id__in=directed
    )
    q = (
        Q(hand__sheet__table__series__event_id__in=event_ids)
        & Q(hand__sheet__table__series__kind=Series.Kind.REGULAR)
        & visible
    )
    prefix = "hand__sheet__table__series__"
    rows = (
        HandSeat.objects.filter(q, hand__sheet__status=Sheet.Status.CONFIRMED)
        .values("participant_id", f"{prefix}event_id", f"{prefix}number")
        .annotate(total=Sum("points"))
        .order_by()
    )
    per_event: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        per_event[r[f"{prefix}event_id"]][r[f"{prefix}number"]][r["participant_id"]] = (
            r["total"] or 0
        )
    from scoring.rules import ruleset_from

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
