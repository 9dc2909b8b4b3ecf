"""Events full of valid results, for demo data, benchmarks and load tests.

Every hand is a random deal from `rules.random_hand`, scored by `score_hand`, and
stored the way a confirmed sheet is: one SheetVersion per step plus Hand and HandSeat rows.
Bulk writes keep a 400-player championship to seconds.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Player
from rules import PRESETS, random_hand, score_hand
from scoring.models import Sheet, SheetVersion
from scoring.sheets.storage import write_hands
from tournaments import draw
from tournaments.models import Event, Group, GroupMember, Participant, Seat, Series, Table


@dataclass
class Plan:
    """What to generate. Series after `confirmed_series` are left in the states below."""

    name: str
    club: Club
    players: list[Player]
    series: int
    rounds: int
    seed: int = 1
    kind: str = Event.Kind.TOURNAMENT
    ruleset_slug: str = "german-minus"
    start_date: dt.date = dt.date(2026, 3, 14)
    pairs: int = 0
    teams: int = 0
    confirmed_series: int | None = None  # default: all
    # The series after the confirmed ones: how many of its tables have an entered / draft sheet.
    entered_tables: int = 0
    draft_tables: int = 0
    season: object | None = None


def _users():
    User = get_user_model()
    scorer, _ = User.objects.get_or_create(username="scorer")
    confirmer, _ = User.objects.get_or_create(username="organiser")
    return scorer, confirmer


@transaction.atomic
def generate_event(plan: Plan) -> Event:
    rng = random.Random(plan.seed)
    scorer, confirmer = _users()
    event = Event.objects.create(
        club=plan.club,
        season=plan.season,
        name=plan.name,
        kind=plan.kind,
        start_date=plan.start_date,
        ruleset_slug=plan.ruleset_slug,
        # generated series play fixed rounds, so a preset played to a target score
        # (Treppenrommé) is generated without one
        ruleset_overrides=(
            {"target_score": None} if PRESETS[plan.ruleset_slug].target_score else {}
        ),
        rounds_per_series=plan.rounds,
        later_series_seating=Event.Seating.RANKED,
        created_by=confirmer,
    )
    ruleset = event.ruleset
    with_club = {
        p.pk: p.current_club_id
        for p in Player.objects.with_current_club().filter(pk__in=[p.pk for p in plan.players])
    }
    participants = Participant.objects.bulk_create(
        Participant(event=event, player=p, club_id=with_club.get(p.pk), checked_in=True)
        for p in plan.players
    )
    groups_of: dict[int, list[str]] = defaultdict(list)
    members = []
    for kind, count, size in (
        (Group.Kind.PAIR, plan.pairs, 2),
        (Group.Kind.TEAM, plan.teams, 4),
    ):
        for number in range(count):
            group = Group.objects.create(event=event, kind=kind, name=f"{number + 1}")
            # Members spread over the field so partners can sit apart.
            chosen = participants[number * size : (number + 1) * size]
            for participant in chosen:
                members.append(GroupMember(group=group, participant=participant, kind=kind))
                groups_of[participant.pk].append(f"{kind}:{group.pk}")
    GroupMember.objects.bulk_create(members)

    totals: dict[int, int] = defaultdict(int)
    confirmed_upto = plan.series if plan.confirmed_series is None else plan.confirmed_series
    now = timezone.now()
    for number in range(1, plan.series + 1):
        if number > confirmed_upto + 1:
            Series.objects.create(event=event, number=number, planned_rounds=plan.rounds)
            continue
        ranked = number > 1
        order = sorted(participants, key=lambda p: (-totals[p.pk], p.pk))
        rank_of = {p.pk: index + 1 for index, p in enumerate(order)}
        draw_players = [
            draw.DrawPlayer(
                id=p.pk,
                club=p.club_id,
                groups=tuple(groups_of[p.pk]),
                rank=rank_of[p.pk] if ranked else None,
            )
            for p in participants
        ]
        seed = rng.randrange(2**31)
        result = draw.draw(
            draw_players, seed, draw.DrawOptions(method=draw.RANKED if ranked else draw.LOT)
        )
        done = number <= confirmed_upto
        series = Series.objects.create(
            event=event,
            number=number,
            planned_rounds=plan.rounds,
            status=Series.Status.COMPLETE if done else Series.Status.IN_PLAY,
            draw_method=draw.RANKED if ranked else draw.LOT,
            draw_seed=seed,
            draw_violations=[v.__dict__ for v in result.violations],
            drawn_at=now,
            drawn_by=confirmer,
            published=done,
        )
        tables = Table.objects.bulk_create(
            Table(series=series, number=index + 1) for index in range(len(result.tables))
        )
        Seat.objects.bulk_create(
            Seat(table=table, series=series, position=position, participant_id=pid)
            for table, ids in zip(tables, result.tables, strict=True)
            for position, pid in enumerate(ids)
        )
        sheets, versions, hands = [], [], []
        for index, (table, ids) in enumerate(zip(tables, result.tables, strict=True)):
            if done:
                status = Sheet.Status.CONFIRMED
            elif index < plan.entered_tables:
                status = Sheet.Status.ENTERED
            elif index < plan.entered_tables + plan.draft_tables:
                status = Sheet.Status.DRAFT
            else:
                continue
            size = len(ids)
            count = plan.rounds * size
            if status == Sheet.Status.DRAFT:
                count = rng.randint(1, count - 1)
            results = [random_hand(ruleset, size, rng, dealer=i % size) for i in range(count)]
            grid = {"first_dealer": 0, "hands": [r.to_dict() for r in results]}
            confirmed = status == Sheet.Status.CONFIRMED
            sheet = Sheet(
                table=table,
                status=status,
                version=2 if confirmed else 1,
                entered_by=scorer,
                entered_at=now,
                confirmed_by=confirmer if confirmed else None,
                confirmed_at=now if confirmed else None,
            )
            sheets.append(sheet)
            kind = (
                SheetVersion.Kind.DRAFT if status == Sheet.Status.DRAFT else SheetVersion.Kind.ENTRY
            )
            versions.append((sheet, 1, kind, scorer, grid))
            if confirmed:
                versions.append((sheet, 2, SheetVersion.Kind.CONFIRMATION, confirmer, grid))
            for number_in_sheet, hand_result in enumerate(results, start=1):
                points = score_hand(hand_result, ruleset, size)
                if confirmed:
                    for pid, value in zip(ids, points, strict=True):
                        totals[pid] += value
                hands.append((sheet, number_in_sheet, hand_result, ids, points))
        Sheet.objects.bulk_create(sheets)
        SheetVersion.objects.bulk_create(
            SheetVersion(sheet=s, number=n, kind=k, created_by=u, grid=g)
            for s, n, k, u, g in versions
        )
        write_hands(
            ((sheet, n, r.to_dict(), r, points, ids) for sheet, n, r, ids, points in hands),
            ruleset,
        )
    return event
