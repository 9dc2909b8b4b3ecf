"""The data sets every benchmark uses: small, large and season.

All results are random deals scored by the rules engine (scoring.demo.generate), never random
numbers. Sizes follow the issue: a club evening, a national championship, a club season.
"""

from __future__ import annotations

import datetime as dt
import random

SIZES = ("small", "large", "season")


def _players(count: int, clubs, prefix: str):
    from clubs.models import Membership, Player, make_name_key, make_sort_key

    players = Player.objects.bulk_create(
        Player(
            given_name=f"Vorname{i}",
            family_name=f"Nachname{i:04d}",
            player_number=f"{prefix}{i:05d}",
            name_key=make_name_key(f"Vorname{i}", f"Nachname{i:04d}"),
            # bulk_create skips save(), which keeps these keys
            sort_key=make_sort_key(f"Vorname{i}", f"Nachname{i:04d}", f"{prefix}{i:05d}"),
            birth_year=1940 + i % 60,
        )
        for i in range(count)
    )
    Membership.objects.bulk_create(
        Membership(player=p, club=clubs[i % len(clubs)], valid_from=dt.date(2020, 1, 1))
        for i, p in enumerate(players)
    )
    return players


def _clubs(count: int, prefix: str):
    from clubs.models import Club

    return Club.objects.bulk_create(
        Club(name=f"{prefix} Rommé-Club {i}", short_name=f"{prefix}{i}", town="Kassel")
        for i in range(count)
    )


def build(size: str):
    """Create the data set; returns the event (or, for the season, the season)."""
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Event, Season

    if size == "small":
        clubs = _clubs(2, "S")
        players = _players(24, clubs, "S")
        # 15 hands do not split into whole rounds; 4 rounds are 16 hands at a 4-table.
        return generate_event(
            Plan(name="Spielabend", club=clubs[0], players=players, series=2, rounds=4,
                 kind=Event.Kind.CLUB_EVENING, seed=24)
        )  # fmt: skip
    if size == "large":
        clubs = _clubs(20, "L")
        players = _players(400, clubs, "L")
        return generate_event(
            Plan(name="Deutsche Meisterschaft", club=clubs[0], players=players, series=5,
                 rounds=5, pairs=100, teams=25, seed=400)
        )  # fmt: skip
    if size == "season":
        clubs = _clubs(1, "V")
        members = _players(60, clubs, "V")
        season = Season.objects.create(
            club=clubs[0], name="2026", start_date=dt.date(2026, 1, 1),
            end_date=dt.date(2026, 12, 31),
        )  # fmt: skip
        rng = random.Random(60)
        for evening in range(50):
            present = rng.sample(members, rng.randint(28, 44))
            generate_event(
                Plan(name=f"Spielabend {evening + 1}", club=clubs[0], players=present,
                     series=2, rounds=4, kind=Event.Kind.CLUB_EVENING, season=season,
                     seed=evening, start_date=dt.date(2026, 1, 1) + dt.timedelta(days=7 * evening))
            )  # fmt: skip
        return season
    raise ValueError(size)


def add_categories(event) -> None:
    """The standard categories of a championship on ``event`` (women, seniors from 60, youth
    up to 18), for the category prints: every other player a woman and every tenth born in
    2009 (the data set's players are born 1940-1999 with no gender), so each category has
    members (200, 168 and 40 of 400). Categories are read when a standing is read; no
    total changes."""
    from django.db import transaction

    from clubs.models import Gender, Player
    from rules import categories as rule
    from tournaments.models import Category
    from tournaments.results import bump_results_version

    if event.categories.exists():
        return
    ids = sorted(event.participants.values_list("player_id", flat=True))
    kinds = [
        (Category.Kind.WOMEN, "Damen", None),
        (Category.Kind.SENIORS, "Senioren ab 60", rule.SENIOR_AGE),
        (Category.Kind.YOUTH, "Jugend bis 18", rule.YOUTH_AGE),
    ]
    with transaction.atomic():
        Player.objects.filter(pk__in=ids[::2]).update(gender=Gender.FEMALE)
        Player.objects.filter(pk__in=ids[::10]).update(birth_year=2009)
        Category.objects.bulk_create(
            Category(event=event, kind=kind, name=name, age_limit=limit, order=order)
            for order, (kind, name, limit) in enumerate(kinds)
        )
        bump_results_version(event.pk)  # as the categories' service does
