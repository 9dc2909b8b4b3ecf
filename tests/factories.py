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
