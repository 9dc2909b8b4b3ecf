"""Database constraints of the registry hold even when code forgets to validate."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Club, ClubRole, Membership, Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _violates(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_club_names_and_short_names_are_unique():
    ClubFactory(name="A", short_name="a")
    _violates(lambda: Club.objects.create(name="A", short_name="b"))
    _violates(lambda: Club.objects.create(name="B", short_name="a"))


def test_association_number_unique_but_may_be_blank_for_many():
    Club.objects.create(name="A", short_name="a", association_number="")
    Club.objects.create(name="B", short_name="b", association_number="")
    Club.objects.create(name="C", short_name="c", association_number="DRV-1")
    _violates(lambda: Club.objects.create(name="D", short_name="d", association_number="DRV-1"))


def test_player_number_unique_and_not_blank():
    PlayerFactory(player_number="X1")
    _violates(lambda: Player.objects.create(given_name="a", family_name="b", player_number="X1"))
    _violates(lambda: Player.objects.create(given_name="a", family_name="b", player_number=""))


def test_birth_year_must_be_plausible():
    _violates(lambda: PlayerFactory(birth_year=1850))
    assert PlayerFactory(birth_year=None).birth_year is None


def test_membership_cannot_end_before_it_starts():
    player, club = PlayerFactory(), ClubFactory()
    _violates(
        lambda: Membership.objects.create(
            player=player,
            club=club,
            valid_from=dt.date(2024, 5, 1),
            valid_until=dt.date(2024, 4, 1),
        )
    )


def test_only_one_open_membership_per_player_and_club():
    player, club = PlayerFactory(), ClubFactory()
    Membership.objects.create(player=player, club=club, valid_from=dt.date(2020, 1, 1))
    _violates(
        lambda: Membership.objects.create(player=player, club=club, valid_from=dt.date(2021, 1, 1))
    )
    # An ended one beside an open one is history, not a duplicate.
    Membership.objects.create(
        player=player, club=club, valid_from=dt.date(2010, 1, 1), valid_until=dt.date(2012, 1, 1)
    )


def test_one_role_per_user_and_club_and_only_known_roles():
    user, club = UserFactory(), ClubFactory()
    ClubRole.objects.create(user=user, club=club, role="viewer")
    _violates(lambda: ClubRole.objects.create(user=user, club=club, role="scorer"))
    _violates(lambda: ClubRole.objects.create(user=UserFactory(), club=club, role="boss"))
