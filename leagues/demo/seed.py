"""The demo league (`make run`, through seed_demo's `demo_seeded` signal): a season of the
demo regional association with two divisions of four teams (the two demo clubs and two more
clubs), two match days played and approved in each, the third one open with its line-ups
named, so a new user sees a filled table. Written through the services (the history shows
them) by the demo administrator; the days' sheets by `demo_play`. Only once."""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model

from clubs.models import Club, ClubRole, Membership, Player
from federation.associations.services import affiliate_club
from federation.models import Affiliation, Association
from leagues.demo.play import play_match_day
from leagues.matchdays import services as matchday_services
from leagues.models import LeagueSeason
from leagues.seasons import services as season_services

SEASON = "Ligasaison 2026 (Demo)"
REGION = "Landesverband Hessen (Demo)"
MORE_CLUBS = [
    ("Rommé-Freunde Marburg (Demo)", "RF Marburg", "Marburg"),
    ("Kartenclub Gießen (Demo)", "KC Gießen", "Gießen"),
]
NAMES = ["Alma", "Bodo", "Carla", "Detlef", "Edith", "Fritz", "Greta", "Hugo"]
FAMILIES = ["Lange", "Vogel", "Krause", "Jung", "Roth", "Frank", "Berger", "Kaiser"]


def _club_players(club: Club, rng: random.Random, town: str) -> list[Player]:
    current = [
        p
        for p in Player.objects.with_current_club().filter(active=True).order_by("player_number")
        if p.current_club_id == club.pk
    ]
    for i in range(len(current), 8):
        player = Player.objects.create(
            given_name=NAMES[i],
            family_name=f"{FAMILIES[(i + len(town)) % 8]}",
            player_number=f"L-{club.pk:03d}{i:02d}",
            birth_year=rng.randint(1950, 2000),
        )
        Membership.objects.create(player=player, club=club, valid_from=dt.date(2024, 1, 1))
        current.append(player)
    return current[:8]


# Two days played, the third to come (after the demo's today, 2026-11-27).
DAYS = (dt.date(2026, 9, 12), dt.date(2026, 10, 24), dt.date(2027, 1, 16))


def seed_league(sender=None, **kwargs) -> None:
    if LeagueSeason.objects.filter(name=SEASON).exists():
        return
    admin = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
    region = Association.objects.filter(name=REGION).first()
    if admin is None or region is None:
        return
    rng = random.Random(2026)
    clubs = list(Club.objects.filter(affiliation__association=region).order_by("pk")[:2])
    for name, short, town in MORE_CLUBS:
        club, _created = Club.objects.get_or_create(
            short_name=short, defaults={"name": name, "town": town}
        )
        if not Affiliation.objects.filter(club=club).exists():  # a league of the region's clubs
            affiliate_club(admin, club, region, since=dt.date(2024, 1, 1), reason="Demodaten")
        clubs.append(club)
    players = {club.pk: _club_players(club, rng, club.town) for club in clubs}
    season = season_services.create_season(
        admin,
        region,
        name=SEASON,
        first_year=2026,
        last_year=2026,
        rules={"roster_min": 4, "roster_max": 6, "team_size": 4, "min_series": 3},
        reason="Demodaten",
    )
    top = season_services.create_division(admin, season, name="Hessenliga", level=1, relegated=1)
    low = season_services.create_division(
        admin, season, name="Bezirksliga Nord", level=2, parent=top, promoted=1
    )
    organiser = ClubRole.objects.filter(user__username="organiser").select_related("user").first()
    teams = {top.pk: [], low.pk: []}
    for club in clubs:
        for division, suffix, squad in (
            (top, "I", players[club.pk][:4]),
            (low, "II", players[club.pk][4:8]),
        ):
            team = season_services.register_team(
                admin,
                division,
                club,
                name=f"{club.short_name} {suffix}",
                captain_name=squad[0].full_name,
                captain=organiser.user
                if organiser and club.pk == clubs[0].pk and suffix == "I"
                else None,
            )
            for player in squad:
                season_services.add_to_roster(admin, team, player)
            teams[division.pk].append((team, squad))
    for division in (top, low):
        for number in (1, 2, 3):
            host = clubs[(number - 1) % len(clubs)]
            day = matchday_services.create_match_day(
                admin,
                division,
                number=number,
                date=DAYS[number - 1],
                host=host,
                venue=f"Vereinsheim {host.town}",
                teams=[t for t, _squad in teams[division.pk]],
            )
            matchday_services.open_match_day(admin, day)
            for team, squad in teams[division.pk]:
                matchday_services.set_lineup(admin, day, team, squad)
            if number == 3:
                continue  # open: named, not played yet
            day.refresh_from_db()
            play_match_day(day, lambda n, pid: rng.randint(-120, 260))
            result = matchday_services.submit_result(admin, day)
            matchday_services.decide_result(admin, result, approve=True, note="Demodaten")
