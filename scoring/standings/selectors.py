"""An event's standing as the pages, exports and API show it: the aggregate
(`scoring.standings.aggregate`) ranked by the pure core (`rules.standings.core`) under
the event's chain and tie policy, with names, clubs, pairs, teams and playoffs.

Reads only, except the lots seed the first time a tie needs it (`scoring.standings.lots`).

A page reads a fixed number of queries whatever the field size: the aggregate, the
participants (names, clubs), the pairs and teams, the series. See ``docs/standings.md``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from rules.standings import core, metrics
from rules.standings.ties import ranking_chain
from scoring import visibility
from scoring.standings.aggregate import (
    SeriesResult,
    aggregate,
    counted_statuses,
    playoff_places,
    to_entry,
)
from scoring.standings.labels import (
    COMPETITIONS,
    DAY,
    INDIVIDUAL,
    OVERALL,
    SCOPES,
    SERIES,
    reason_text,
    tie_policy_text,
)
from scoring.standings.lots import ensure_lots_seed
from tournaments.models import Event, GroupMember, Participant, Series

# Who sees what: scoring.visibility (directors are the organisers of the event's club).
is_director = visibility.is_director
sees_unpublished = visibility.sees_unpublished


# --------------------------------------------------------------------------- aggregation


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
    # Player numbers of the line (a group's members'): "find my line" matches them, as
    # players know their number from the seating list; not in the JSON.
    numbers: tuple[str, ...] = ()
    # Disqualified players stay in the standings, marked (and win no prize).
    disqualified: bool = False

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
    include_entered: bool = False  # entered sheets were counted (the director's view)

    @property
    def ties_policy_text(self) -> str:
        return tie_policy_text(self.ties_policy)

    @property
    def incomplete_series(self) -> list[dict]:
        """Counted series in play or played with tables whose sheet does not count yet
        (not confirmed; with ``include_entered``, not entered): their players have no points
        there yet, so the standing is not final. Dicts: number, open_tables, tables."""
        counted = set(self.counted_series)
        return [
            {
                "number": s["number"],
                "open_tables": s["open_tables"],
                "tables": s["tables_count"],
            }
            for s in self.series
            if s["number"] in counted
            and s["kind"] == Series.Kind.REGULAR
            and s["status"] in (Series.Status.IN_PLAY, Series.Status.COMPLETE)
            and s["open_tables"]
        ]


def _visible_series(event: Event, only_published: bool, include_entered: bool = False):
    """The series as dicts, each with its number of tables and of those whose sheet does
    not count yet (``open_tables``): the standings say which series are incomplete
    without another round trip."""
    qs = Series.objects.filter(event=event)
    if only_published:
        qs = qs.filter(published=True)
    counting = ~Q(tables__sheet__status__in=counted_statuses(include_entered))
    return list(
        qs.order_by("number")
        .values("id", "number", "day", "kind", "status", "published", "playoff_of")
        .annotate(tables_count=Count("tables"), open_tables=Count("tables", filter=counting))
    )


def _rank(event: Event, entries: list[metrics.Entry], chain: tuple[str, ...]) -> list[core.Row]:
    hib = event.ruleset.higher_is_better
    if chain[-1] != "lots":
        return core.rank(entries, chain, higher_is_better=hib)
    # Lots count only where a tie needs them: rank without them first, whether or not the
    # event's seed exists (another competition may have drawn it), so the same standing
    # never shows lots in one render and not in the next.
    rows = core.rank(entries, chain[:-1], higher_is_better=hib)
    if not any(r.reason is not None and r.reason.metric == metrics.SHARED for r in rows):
        return rows
    return core.rank(entries, chain, lots_seed=ensure_lots_seed(event), higher_is_better=hib)


_PARTICIPANT_FIELDS = ("player_id", "player__given_name", "player__family_name", "club_id",
                      "club__short_name", "player__player_number", "disqualified")  # fmt: skip


def _person(participant_id: int, player_id, given, family, club_id, club, number,
            disqualified=False) -> dict:  # fmt: skip
    return {
        "participant_id": participant_id,
        "player_id": player_id,
        "name": f"{given} {family}",
        "club": club or "",
        "club_id": club_id,
        "number": number or "",
        "disqualified": bool(disqualified),
    }


def _participant_info(event: Event) -> dict[int, dict]:
    # No ORDER BY: the Meta ordering (event, player sort key) would join and sort the
    # events table for a dict looked up by id.
    rows = (
        Participant.objects.filter(event=event).order_by().values_list("id", *_PARTICIPANT_FIELDS)
    )
    return {r[0]: _person(*r) for r in rows}


def _groups(
    event: Event, kinds, info: dict[int, dict] | None = None
) -> dict[str, tuple[dict[str, dict], dict[str, list[int]]]]:
    """Groups of the given kinds that have members, per kind: info by key ("pair:<pk>") and
    member participant ids. One query for all kinds (the hall display shows pairs and
    teams): the members with their group's name; a group without members never ranks.

    With ``info`` (an empty dict) the members' names and clubs come in the same query and
    go into ``info`` as :func:`_participant_info` gives them: a pairs or teams standing
    shows members only, so it needs no separate participants query (one round trip less).
    """
    out: dict[str, tuple[dict[str, dict], dict[str, list[int]]]] = {k: ({}, {}) for k in kinds}
    people = () if info is None else tuple(f"participant__{f}" for f in _PARTICIPANT_FIELDS)
    # Groups by name within a kind (the Meta ordering, without joining the events).
    for kind, group_id, name, participant_id, *person in (
        GroupMember.objects.filter(group__event=event, kind__in=kinds)
        .order_by("kind", "group__name", "group_id", "participant_id")
        .values_list("kind", "group_id", "group__name", "participant_id", *people)
    ):
        groups, members = out[kind]
        key = f"{kind}:{group_id}"
        if key not in groups:
            groups[key] = {"group_id": group_id, "name": name}
            members[key] = []
        members[key].append(participant_id)
        if info is not None:
            info[participant_id] = _person(participant_id, *person)
    return out


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
    Queries: series, aggregate, participants (individual), or the groups with their
    members' names (pairs and teams).
    """
    if competition not in COMPETITIONS:
        raise ValueError(f"unknown competition {competition!r}")
    return event_standings(
        event,
        competitions=(competition,),
        scope=scope,
        number=number,
        include_entered=include_entered,
        only_published=only_published,
    )[competition]


def event_standings(
    event: Event,
    *,
    competitions=COMPETITIONS,
    scope: str = OVERALL,
    number: int | None = None,
    include_entered: bool = False,
    only_published: bool = True,
) -> dict[str, EventStanding]:
    """:func:`event_standing` of several competitions at once (the hall display): the
    series, the aggregate and the participants are read once, each competition ranked once."""
    inputs = standing_inputs(
        event,
        competitions=competitions,
        scopes=[(scope, number)],
        include_entered=include_entered,
        only_published=only_published,
    )
    return inputs.standings(scope, number)


def _counted(regular: list[dict], scope: str, number: int | None) -> list[dict]:
    if scope == SERIES:
        return [s for s in regular if s["number"] == number]
    if scope == DAY:
        return [s for s in regular if s["day"] == number]
    return regular


@dataclass
class StandingInputs:
    """What an event's standings read (the series, the aggregate, the people and groups),
    read once and ranked for any scope it covers: a print or the prize list ranks the
    overall standing, every series and every day from one read (4 queries, not 4 a scope)."""

    event: Event
    competitions: tuple[str, ...]
    series: list[dict]
    days: list[int]
    results: list[SeriesResult]  # per participant and series, by series number
    info: dict[int, dict]
    groups_of: dict
    chain: tuple[str, ...]
    include_entered: bool
    only_published: bool

    @property
    def regular(self) -> list[dict]:
        return [s for s in self.series if s["kind"] == Series.Kind.REGULAR]

    def standings(
        self, scope: str = OVERALL, number: int | None = None, competitions=None
    ) -> dict[str, EventStanding]:
        if scope not in SCOPES:
            raise ValueError(f"unknown scope {scope!r}")
        competitions = self.competitions if competitions is None else tuple(competitions)
        if any(c not in self.competitions for c in competitions):
            raise ValueError(f"{competitions!r} were not read")
        counted = _counted(self.regular, scope, number)
        counted_ids = {s["id"] for s in counted}
        playoff_ids = set()
        if scope == OVERALL:
            playoff_ids = {s["id"] for s in self.series if s["kind"] == Series.Kind.PLAYOFF}
        by_participant: dict[int, list[SeriesResult]] = defaultdict(list)
        playoff_results = []
        for r in self.results:
            if r.series_id in counted_ids:
                by_participant[r.participant_id].append(r)
            elif r.series_id in playoff_ids:
                playoff_results.append(r)
        event, chain = self.event, self.chain
        numbers = [s["number"] for s in counted]
        out = {}
        for competition in competitions:
            if competition == INDIVIDUAL:
                ranked, rows = _rank_individuals(
                    event, chain, by_participant, playoff_results, self.info
                )
            else:
                ranked, rows = _rank_groups(
                    event, chain, self.groups_of[competition], by_participant, self.info, numbers
                )
            standing = EventStanding(
                event=event,
                competition=competition,
                scope=scope,
                number=number,
                rows=rows,
                chain=chain,
                series=self.series,
                counted_series=numbers,
                provisional=self.include_entered and any(r.provisional for r in rows),
                only_published=self.only_published,
                ties=[],
                lots_seed=event.lots_seed,
                days=self.days,
                ties_policy=event.ruleset.ties,
                include_entered=self.include_entered,
            )
            if competition == INDIVIDUAL and scope == OVERALL:
                lines = [int(x) for x in (event.prize_lines or [1])]
                by_key = {row.key: row for row in rows}
                standing.ties = [
                    [by_key[r.key] for r in group] for group in core.ties_on_lines(ranked, lines)
                ]
            out[competition] = standing
        return out


def standing_inputs(
    event: Event,
    *,
    competitions=COMPETITIONS,
    scopes=None,
    include_entered: bool = False,
    only_published: bool = True,
) -> StandingInputs:
    """Read what the standings of ``competitions`` need in ``scopes`` ((scope, number)
    pairs; None: every scope, the overall and each series and day). Queries: series,
    aggregate, participants (individual), the groups (pairs and teams; with the members'
    names when individual is not read)."""
    competitions = tuple(competitions)
    if any(c not in COMPETITIONS for c in competitions):
        raise ValueError(f"unknown competition in {competitions!r}")
    if scopes is not None and any(scope not in SCOPES for scope, _number in scopes):
        raise ValueError(f"unknown scope in {scopes!r}")
    series = _visible_series(event, only_published, include_entered)
    regular = [s for s in series if s["kind"] == Series.Kind.REGULAR]
    if scopes is None:
        wanted = {s["id"] for s in series}
    else:
        wanted = {s["id"] for scope, number in scopes for s in _counted(regular, scope, number)}
        if any(scope == OVERALL for scope, _number in scopes):
            wanted |= {s["id"] for s in series if s["kind"] == Series.Kind.PLAYOFF}
    results = aggregate([s for s in series if s["id"] in wanted], include_entered=include_entered)
    results.sort(key=lambda r: (r.number, r.participant_id))
    ruleset = event.ruleset
    chain = ranking_chain(
        metrics.normalize_chain(event.tie_break_chain or metrics.DEFAULT_CHAIN), ruleset.ties
    )
    group_kinds = [c for c in competitions if c != INDIVIDUAL]
    if INDIVIDUAL in competitions:
        info = _participant_info(event)
        groups_of = _groups(event, group_kinds) if group_kinds else {}
    else:  # groups only: the members' names come with the groups
        info = {}
        groups_of = _groups(event, group_kinds, info)
    return StandingInputs(
        event=event,
        competitions=competitions,
        series=series,
        days=sorted({s["day"] for s in regular}),
        results=results,
        info=info,
        groups_of=groups_of,
        chain=chain,
        include_entered=include_entered,
        only_published=only_published,
    )


def _rank_individuals(event, chain, by_participant, playoff_results, info):
    entries = [to_entry(pid, rs) for pid, rs in by_participant.items()]
    if playoff_results:
        places = playoff_places(playoff_results, event.ruleset.higher_is_better)
        entries = core.apply_playoff(
            entries, {k: v for k, v in places.items() if k in by_participant}
        )
    ranked = _rank(event, entries, chain)
    series_of = {pid: {r.number: r.total for r in rs} for pid, rs in by_participant.items()}
    return ranked, [_individual_row(row, info, series_of) for row in ranked]


def _rank_groups(event, chain, groups_and_members, by_participant, info, numbers):
    groups, members = groups_and_members
    zero = metrics.Entry(key=0, total=0)
    # Members' series totals aligned on the counted series (0 where not played).
    aligned = {}
    for pid in {m for ms in members.values() for m in ms}:
        rs = {r.number: r for r in by_participant.get(pid, [])}
        base = to_entry(pid, list(rs.values())) if rs else zero
        aligned[pid] = metrics.Entry(
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
    return ranked, [_group_row(row, groups, members, info, numbers) for row in ranked]


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
        numbers=(p["number"],) if p.get("number") else (),
        disqualified=p.get("disqualified", False),
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
        numbers=tuple(p["number"] for p in people if p["number"]),
    )


def filter_by_club(rows: list[StandingRow], club_id: int | None) -> list[StandingRow]:
    """Rows of one club (ranks stay those of the whole field)."""
    if not club_id:
        return rows
    return [r for r in rows if club_id in r.club_ids]
