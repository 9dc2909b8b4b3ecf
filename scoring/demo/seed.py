"""Demo events on top of the demo registry: a finished tournament and a club evening in play."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.dispatch import Signal

from clubs.demo import seed_registry
from clubs.models import Player
from scoring.demo.generate import Plan, generate_event
from tournaments.models import Event, Season

TOURNAMENT = "Kasseler Rommé-Open 2026"
CLUB_EVENING = "Spielabend 19. November"

# Sent at the end of `seed_demo` (inside its transaction) with `tournament`, the demo
# tournament: apps above scoring add their demo data to it (prizes: fees, payments and a
# prize plan) without scoring importing them. Receivers must not change anything twice.
demo_seeded = Signal()


@transaction.atomic
def seed_demo() -> None:
    clubs = seed_registry()["clubs"]
    players = list(Player.objects.filter(active=True).order_by("player_number"))
    if not Event.objects.filter(name=TOURNAMENT).exists():
        # 24 players of both clubs: six 4-tables, three series of 20 hands, all confirmed.
        generate_event(
            Plan(
                name=TOURNAMENT,
                club=clubs[0],
                players=players[:24],
                series=3,
                rounds=5,
                seed=2026,
                pairs=4,
                teams=2,
                start_date=dt.date(2026, 3, 14),
            )
        )
    if not Event.objects.filter(name=CLUB_EVENING).exists():
        season, _ = Season.objects.get_or_create(
            club=clubs[0],
            name="2026",
            defaults={"start_date": dt.date(2026, 1, 1), "end_date": dt.date(2026, 12, 31)},
        )
        # A club evening in progress: series 1 confirmed; in series 2 one sheet is entered
        # and waits for confirmation, one is a draft, the others are still at the tables.
        home = [p for p in players if p.memberships.filter(club=clubs[0]).exists()]
        generate_event(
            Plan(
                name=CLUB_EVENING,
                club=clubs[0],
                players=home[:14],
                series=2,
                rounds=4,
                seed=1119,
                kind=Event.Kind.CLUB_EVENING,
                start_date=dt.date(2026, 11, 19),
                confirmed_series=1,
                entered_tables=1,
                draft_tables=1,
                season=season,
            )
        )
    demo_seeded.send(sender=seed_demo, tournament=Event.objects.get(name=TOURNAMENT))
