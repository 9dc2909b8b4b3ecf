"""The demo federation (`make run`): a national association with two regional ones, the demo
clubs affiliated, and the demo organiser a ranking officer of one region (so trying the
pages shows what a regional officer may and may not do), and rankings with approved
events (`federation.demo.rankings`).

Connected in `federation.apps.FederationConfig.ready` to `scoring.demo.seed.demo_seeded`.
Written through the services by the demo administrator, and only once."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from clubs.models import Club, ClubRole, Player
from federation.associations import services
from federation.associations.models import Association
from federation.demo.rankings import seed_rankings

NATIONAL = "Deutscher Rommé-Verband (Demo)"
REGIONS = [
    ("Landesverband Hessen (Demo)", "LV Hessen"),
    ("Landesverband Thüringen (Demo)", "LV Thüringen"),
]
REASON = "Demodaten"


def seed_federation(sender=None, *, tournament=None, **kwargs) -> None:
    if Association.objects.filter(name=NATIONAL).exists():
        return
    admin = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
    if admin is None:
        return
    national = services.create_association(
        admin, name=NATIONAL, short_name="DRV (Demo)", kind="national", reason=REASON
    )
    regions = [
        services.create_association(
            admin, name=name, short_name=short, kind="regional", parent=national, reason=REASON
        )
        for name, short in REGIONS
    ]
    # The demo clubs (clubs.demo: Kassel and Fulda) are both in Hesse.
    for club in Club.objects.filter(affiliation__isnull=True).order_by("pk")[:2]:
        services.affiliate_club(admin, club, regions[0], since=dt.date(2024, 1, 1), reason=REASON)
    organiser = (
        ClubRole.objects.filter(role=ClubRole.Role.ORGANISER, user__username="organiser")
        .select_related("user")
        .first()
    )
    if organiser is None:
        return
    services.grant_role(admin, regions[0], organiser.user, "officer", reason=REASON)
    clubs = list(Club.objects.filter(affiliation__association=regions[0]).order_by("pk"))
    players = list(Player.objects.filter(active=True).order_by("player_number"))
    if len(clubs) == 2 and len(players) >= 31:
        seed_rankings(admin, organiser.user, regions, national, clubs, players, tournament)
