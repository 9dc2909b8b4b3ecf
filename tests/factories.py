import datetime as dt

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, ClubRole, Membership, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Rommé-Club {n}")
    short_name = factory.Sequence(lambda n: f"RC{n}")
    town = "Kassel"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    given_name = factory.Faker("first_name", locale="de_DE")
    family_name = factory.Faker("last_name", locale="de_DE")
    player_number = factory.Sequence(lambda n: f"P{n:05d}")
    birth_year = 1970


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    player = factory.SubFactory(PlayerFactory)
    club = factory.SubFactory(ClubFactory)
    valid_from = dt.date(2020, 1, 1)


def user_with_role(club, role, **kwargs):
    user = UserFactory(**kwargs)
    ClubRole.objects.create(user=user, club=club, role=role)
    return user


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Event"

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Turnier {n}")
    start_date = dt.date(2026, 3, 14)
    ruleset_slug = "german-minus"
    rounds_per_series = 5


class ParticipantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Participant"

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    checked_in = True


class SeriesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Series"

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    planned_rounds = factory.SelfAttribute("event.rounds_per_series")


def seated_table(series, participants, number=1):
    """A table of `series` with `participants` in seat order (seat 1 first)."""
    from tournaments.models import Seat, Table

    table = Table.objects.create(series=series, number=number)
    for position, participant in enumerate(participants):
        Seat.objects.create(table=table, series=series, position=position, participant=participant)
    return table


# Most tests run the export tasks inside `enqueue`; tests/exports/test_jobs.py runs a real
# worker on the database backend the app is configured with.
IMMEDIATE_TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
        "QUEUES": ["default", "live"],
    }
}
