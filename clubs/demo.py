"""Demo registry: two clubs, forty players, one user per role. Idempotent."""

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from .models import Club, ClubRole, Gender, Membership, Player

CLUBS = [
    {
        "name": "Rommé-Club Herz Dame Kassel",
        "short_name": "HD Kassel",
        "town": "Kassel",
        "association_number": "DRV-0412",
    },
    {
        "name": "1. Romméfreunde Kreuz Bube Fulda",
        "short_name": "KB Fulda",
        "town": "Fulda",
        "association_number": "DRV-0577",
    },
]
GIVEN = [
    "Anna", "Bernd", "Christa", "Dieter", "Elke", "Frank", "Gisela", "Helmut", "Ingrid",
    "Jürgen", "Karin", "Lothar", "Monika", "Norbert", "Olga", "Peter", "Renate", "Stefan",
    "Ursula", "Werner", "Zoë", "Günther", "Hannelore", "Klaus",
]  # fmt: skip
WOMEN = {"Anna", "Christa", "Elke", "Gisela", "Ingrid", "Karin", "Monika", "Olga", "Renate",
         "Ursula", "Zoë", "Hannelore"}  # fmt: skip
FAMILY = [
    "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker",
    "Schulz", "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf",
    "Schröder", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann", "Hartmann",
]  # fmt: skip

# Shown by `make run`; these accounts exist only in demo data.
USERS = [
    ("admin", "admin-demo", None, True),
    ("organiser", "organiser-demo", ClubRole.Role.ORGANISER, False),
    ("scorer", "scorer-demo", ClubRole.Role.SCORER, False),
    ("viewer", "viewer-demo", ClubRole.Role.VIEWER, False),
]
PLAYER_COUNT = 40


@transaction.atomic
def seed_registry() -> dict:
    rng = random.Random(1933)  # the year Rommé's rules were first written down
    clubs = []
    for fields in CLUBS:
        club, _created = Club.objects.get_or_create(
            short_name=fields["short_name"], defaults=fields
        )
        clubs.append(club)
    start = dt.date(2019, 1, 1)
    for number in range(1, PLAYER_COUNT + 1):
        player, created = Player.objects.get_or_create(
            player_number=f"D-{number:05d}",
            defaults={
                # Every name pair differs, so the list looks like a real club's.
                "given_name": GIVEN[number % len(GIVEN)],
                "family_name": FAMILY[(number * 5 + number // len(GIVEN)) % len(FAMILY)],
                "birth_year": rng.randint(1945, 2004),
                "gender": Gender.FEMALE if GIVEN[number % len(GIVEN)] in WOMEN else Gender.MALE,
                "active": number % 13 != 0,
            },
        )
        if not created:
            continue
        home = clubs[number % 2]
        joined = start + dt.timedelta(days=rng.randint(0, 1500))
        if number % 9 == 0:
            # A few players changed clubs, so the membership history has something to show.
            other = clubs[(number + 1) % 2]
            moved = joined + dt.timedelta(days=rng.randint(100, 600))
            Membership.objects.create(
                player=player, club=other, valid_from=joined, valid_until=moved
            )
            joined = moved + dt.timedelta(days=1)
        Membership.objects.create(player=player, club=home, valid_from=joined)

    User = get_user_model()
    for username, password, role, superuser in USERS:
        user, created = User.objects.get_or_create(
            username=username, defaults={"is_superuser": superuser, "is_staff": superuser}
        )
        if created:
            user.set_password(password)
            user.save()
        if role:
            ClubRole.objects.get_or_create(user=user, club=clubs[0], defaults={"role": role})
    return {"clubs": clubs}


def login_help() -> str:
    lines = ["Demo-Zugänge / demo logins (Benutzer / Passwort):"]
    for username, password, role, superuser in USERS:
        what = "Administrator" if superuser else f"{role.label} · {CLUBS[0]['name']}"
        lines.append(f"  {username:<10} {password:<16} {what}")
    return "\n".join(lines)
