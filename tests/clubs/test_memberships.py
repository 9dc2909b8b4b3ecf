"""A player changes clubs and keeps the history; every change records who made it."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubs import services
from clubs.models import ClubRole, Membership, Player
from tests.factories import MembershipFactory, user_with_role

pytestmark = pytest.mark.django_db


def test_moving_clubs_ends_the_old_membership_the_day_before(club_a, club_b, organiser_a):
    services.set_club_role(organiser_a, club_a, organiser_a, ClubRole.Role.ORGANISER)
    membership = MembershipFactory(club=club_b, valid_from=dt.date(2020, 1, 1))
    player = membership.player
    # Organiser of both clubs may move the player.
    ClubRole.objects.create(user=organiser_a, club=club_b, role=ClubRole.Role.ORGANISER)
    services.join_club(organiser_a, player, club_a, dt.date(2024, 7, 1))
    rows = list(Membership.objects.filter(player=player).order_by("valid_from"))
    assert [(m.club, m.valid_from, m.valid_until) for m in rows] == [
        (club_b, dt.date(2020, 1, 1), dt.date(2024, 6, 30)),
        (club_a, dt.date(2024, 7, 1), None),
    ]
    assert (
        Player.objects.with_current_club(dt.date(2023, 1, 1)).get(pk=player.pk).current_club_id
        == club_b.pk
    )
    assert (
        Player.objects.with_current_club(dt.date(2025, 1, 1)).get(pk=player.pk).current_club_id
        == club_a.pk
    )


def test_moving_needs_the_organiser_of_the_club_left_behind(club_a, club_b, organiser_a):
    player = MembershipFactory(club=club_b).player
    with pytest.raises(PermissionDenied):
        services.join_club(organiser_a, player, club_a, dt.date(2024, 7, 1))
    assert Membership.objects.get(player=player).valid_until is None


def test_joining_the_same_club_twice_is_refused(club_a, organiser_a, member_a):
    with pytest.raises(ValidationError):
        services.join_club(organiser_a, member_a, club_a, dt.date(2025, 1, 1))


def test_history_records_the_user_and_the_changed_fields(club_a, organiser_a):
    player = services.create_player(
        organiser_a, club_a, given_name="Anna", family_name="Müller", player_number="77"
    )
    services.update_player(organiser_a, player, family_name="Meier", birth_year=1961)
    newest, first = list(player.history.order_by("-history_date"))
    assert newest.history_user == organiser_a and first.history_user == organiser_a
    changed = {c.field: (c.old, c.new) for c in newest.diff_against(first).changes}
    assert changed == {"family_name": ("Müller", "Meier"), "birth_year": (None, 1961)}
    assert Membership.history.filter(player_id=player.pk, history_user=organiser_a).count() == 1


def test_lookalike_player_warns_and_offers_the_existing_record(club_a, organiser_a):
    first = services.create_player(
        organiser_a, club_a, given_name="Anna", family_name="Müller", player_number="1",
        birth_year=1960,
    )  # fmt: skip
    with pytest.raises(services.DuplicatePlayer) as caught:
        services.create_player(
            organiser_a, club_a, given_name="anna", family_name="MÜLLER", player_number="2",
            birth_year=1960,
        )  # fmt: skip
    assert caught.value.candidates == [first]
    second = services.create_player(
        organiser_a, club_a, given_name="Anna", family_name="Müller", player_number="2",
        birth_year=1960, allow_lookalike=True,
    )  # fmt: skip
    assert second.pk != first.pk


def test_organiser_pages_show_history(client, club_a, organiser_a):
    player = services.create_player(
        organiser_a, club_a, given_name="Anna", family_name="Müller", player_number="77"
    )
    services.update_player(organiser_a, player, family_name="Meier")
    client.force_login(organiser_a)
    page = client.get(player.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "History" in page and "Müller → Meier" in page and "org_a" in page
    viewer = user_with_role(club_a, ClubRole.Role.VIEWER)
    client.force_login(viewer)
    page = client.get(player.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Müller → Meier" not in page
