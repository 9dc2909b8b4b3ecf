"""Playing a match day without the hall, for the demo data, the tests and the benchmark:
every series of the day's event seated with one player of each team at a table (as the
draw with team groups seats them) and a confirmed sheet whose stored seat totals are the
given scores. Bulk writes, no history: never used for real results."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from leagues.models import LineupEntry, MatchDay
from scoring.models import SeatTotal, Sheet
from tournaments.models import Seat, Series, Table


def play_match_day(match_day: MatchDay, score: Callable[[int, int], int]) -> None:
    """`score(series number, participant id)` gives each player's points of a series."""
    event_id = match_day.event_id
    teams: dict[int, list[int]] = {}
    for team_id, participant_id in (
        LineupEntry.objects.filter(match_day=match_day, participant__isnull=False)
        .order_by("team_id", "participant_id")
        .values_list("team_id", "participant_id")
    ):
        teams.setdefault(team_id, []).append(participant_id)
    columns = list(teams.values())
    width = max((len(c) for c in columns), default=0)
    now = timezone.now()
    for number in range(1, match_day.series_count + 1):
        series = Series.objects.create(
            event_id=event_id,
            number=number,
            planned_rounds=5,
            status=Series.Status.COMPLETE,
            published=True,
            drawn_at=now,
        )
        # Shift the teams' order each series so that the tables mix.
        groups = [[c[(i + number) % len(c)] for c in columns if i < len(c)] for i in range(width)]
        tables = Table.objects.bulk_create(
            Table(series=series, number=i + 1) for i in range(len(groups))
        )
        Seat.objects.bulk_create(
            Seat(table=t, series=series, position=pos, participant_id=pid)
            for t, group in zip(tables, groups, strict=True)
            for pos, pid in enumerate(group)
        )
        sheets = Sheet.objects.bulk_create(
            Sheet(table=t, status=Sheet.Status.CONFIRMED, confirmed_at=now) for t in tables
        )
        SeatTotal.objects.bulk_create(
            SeatTotal(
                sheet=s,
                position=pos,
                participant_id=pid,
                points=score(number, pid),
                lost_hand_points=0,
                hands_won=1,
                hand_rommes=0,
            )
            for s, group in zip(sheets, groups, strict=True)
            for pos, pid in enumerate(group)
        )
