"""Reads that build the event and seating pages; each runs a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _

from clubs.models import Player
from tournaments import draw

from .models import Event, Group, GroupMember, Participant, Season, Seat, Series


def event_list():
    return Event.objects.select_related("club", "season").annotate(
        participant_count=Count("participants", distinct=True),
        series_count=Count("series", distinct=True),
    )


def season_list():
    return Season.objects.select_related("club").annotate(event_count=Count("events"))


def participants_of(event: Event):
    """The event's participants with player, club and their pairs and teams (3 queries)."""
    return (
        Participant.objects.filter(event=event)
        .select_related("player", "club")
        .prefetch_related(Prefetch("groups", queryset=Group.objects.order_by("kind", "name")))
    )


def participant_counts(event: Event) -> dict[str, int]:
    return Participant.objects.filter(event=event).aggregate(
        registered=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True)),
        withdrawn=Count("pk", filter=Q(withdrawn_from_series__isnull=False)),
    )


def groups_of(event: Event):
    """Pairs and teams with their members (2 queries)."""
    members = GroupMember.objects.select_related("participant__player").order_by(
        "participant__player__sort_key"
    )
    return (
        Group.objects.filter(event=event)
        .order_by("kind", "name")
        .prefetch_related(Prefetch("memberships", queryset=members))
    )


def series_of(event: Event):
    return (
        Series.objects.filter(event=event)
        .annotate(table_count=Count("tables", distinct=True))
        .order_by("number")
    )


def player_search(event: Event, query: str, limit: int = 20):
    """Registry players matching every word (name or number), those of the event marked."""
    if not query.split():
        return Player.objects.none()
    registered = Participant.objects.filter(event=event).values("player_id")
    return (
        Player.objects.matching(query)
        .with_current_club()
        .annotate(registered=Q(pk__in=registered))
        .order_by("sort_key")[:limit]
    )


# Seating


def _names(participants: list[Participant]) -> str:
    names = [str(p.player) for p in participants]
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def violation_message(violation: dict[str, Any], by_id: dict[int, Participant]) -> str:
    """A stored draw violation as a German or English sentence naming players and table."""
    players = [by_id[pid] for pid in violation.get("players", ()) if pid in by_id]
    params = {"table": violation.get("table"), "players": _names(players)}
    code = violation.get("code")
    if code == draw.GROUP_TOGETHER:
        return _("Table %(table)s: %(players)s belong to one pair or team.") % params
    if code == draw.SAME_CLUB:
        return _("Table %(table)s: %(players)s play for the same club.") % params
    if code == draw.REPEAT_OPPONENTS:
        return _("Table %(table)s: %(players)s met in an earlier series.") % params
    return _("Table %(table)s: %(players)s (%(code)s).") % {**params, "code": code}


@dataclass
class SeatRow:
    table: int
    seat: int
    participant: Participant


@dataclass
class Seating:
    series: Series
    tables: list[tuple[int, list[SeatRow]]] = field(default_factory=list)
    alphabetical: list[SeatRow] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    # Seated players who no longer play this series (withdrawn or checked out since the draw).
    not_playing: list[Participant] = field(default_factory=list)

    @property
    def player_count(self) -> int:
        return len(self.alphabetical)


def seating(series: Series) -> Seating:
    """Who sits where in a series, by table and by name, with the draw's violations
    as sentences (1 query)."""
    seats = (
        Seat.objects.filter(series=series)
        .select_related("table", "participant__player", "participant__club")
        .order_by("table__number", "position")
    )
    result = Seating(series=series)
    by_id: dict[int, Participant] = {}
    current: list[SeatRow] | None = None
    for seat in seats:
        row = SeatRow(seat.table.number, seat.position + 1, seat.participant)
        by_id[seat.participant_id] = seat.participant
        if current is None or result.tables[-1][0] != row.table:
            current = []
            result.tables.append((row.table, current))
        current.append(row)
        result.alphabetical.append(row)
    # German order (Ä with A, ß as ss), the players' stored key as in every other list.
    result.alphabetical.sort(key=lambda r: r.participant.player.sort_key)
    result.violations = [violation_message(v, by_id) for v in series.draw_violations or ()]
    if series.status == Series.Status.SEATED:
        result.not_playing = [
            r.participant
            for r in result.alphabetical
            if not (r.participant.checked_in and r.participant.plays_in(series.number))
        ]
    return result


def seat_history(series: Series, limit: int = 50):
    """The newest recorded seat swaps of a series (a draw's own records are left out)."""
    return list(
        Seat.history.model.objects.filter(series_id=series.pk, history_type="~")
        .select_related("history_user", "table")
        .order_by("-history_date")[:limit]
    )
