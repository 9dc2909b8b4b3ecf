"""The prize-giving of the demo tournament (`make run`): an entry fee of 15 €, the fees of
all but two players collected, the standard categories and a prize plan, so a new user
opens a filled prize list.

Connected in `prizes.apps.PrizesConfig.ready` to `scoring.demo.seed.demo_seeded`, which
`seed_demo` sends: scoring never imports prizes. Written through the services (the demo
organiser acts), and only once: a tournament that has a plan is left as it is."""

from __future__ import annotations

from decimal import Decimal

from clubs.models import ClubRole
from prizes.fees import services as fee_services
from prizes.models import PrizePlan
from prizes.plan.services import save_plan
from tournaments import categories
from tournaments.models import Category, Event

FEE = Decimal("15")
LINES = [
    {"competition": "overall", "place": 1, "share": "30"},
    {"competition": "overall", "place": 2, "share": "20"},
    {"competition": "overall", "place": 3, "share": "10"},
    {"competition": "overall", "place": 4, "item": "Präsentkorb"},
    {"competition": "series", "place": 1, "amount": "10"},
    {"competition": "pairs", "place": 1, "amount": "20"},
    {"competition": "teams", "place": 1, "item": "Pokal"},
]


def seed_prizes(sender=None, *, tournament: Event, **kwargs) -> None:
    if PrizePlan.objects.filter(event=tournament).exists():
        return
    role = (
        ClubRole.objects.filter(club=tournament.club, role=ClubRole.Role.ORGANISER)
        .select_related("user")
        .order_by("pk")
        .first()
    )
    if role is None:
        return
    director = role.user
    # Damen, Senioren, Jugend (the demo has no youth: it stays empty, as in many clubs);
    # an event that has them already keeps its own.
    categories.add_standard_categories(director, tournament)
    first = {}
    for category in Category.objects.filter(event=tournament).order_by("order", "pk"):
        first.setdefault(category.kind, category)
    lines = [*LINES]
    for kind in (Category.Kind.WOMEN, Category.Kind.SENIORS):
        if kind in first:
            lines.append({"competition": "category", "ref": str(first[kind].pk), "place": 1,
                          "amount": "15"})  # fmt: skip
    fee_services.set_fees(director, tournament, general=FEE)
    people = list(tournament.participants.order_by("pk"))
    for n, participant in enumerate(people[:-2]):
        fee_services.record_payment(director, participant, "cash" if n % 4 else "transfer")
    save_plan(
        director,
        tournament,
        lines=lines,
        one_prize_per_player=True,
        costs=Decimal("30"),
        costs_note="Pokale und Präsentkorb",
        public_winners=True,
        public_amounts=False,
    )
