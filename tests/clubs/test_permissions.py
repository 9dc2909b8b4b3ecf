"""Roles are enforced on the server for every write, not only by hiding links."""

import pytest
from django.urls import reverse

from clubs.models import Club, ClubRole, Membership, Player
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def write_requests(club, player, membership, club_role, player_import):
    """Every write the registry offers, aimed at one club's objects: (method, url, data)."""
    return [
        ("post", reverse("clubs:club_create"), {"name": "X", "short_name": "X"}),
        ("get", reverse("clubs:club_edit", args=[club.pk]), None),
        ("post", reverse("clubs:club_edit", args=[club.pk]), {"name": "Hacked", "short_name": "H"}),
        ("get", reverse("clubs:club_users", args=[club.pk]), None),
        (
            "post",
            reverse("clubs:club_users", args=[club.pk]),
            {"username": "mole", "password": "a-long-password-1", "role": "organiser"},
        ),
        (
            "post",
            reverse("clubs:club_role_set", args=[club.pk]),
            {"username": "bystander", "role": "organiser"},
        ),
        ("post", reverse("clubs:club_role_remove", args=[club_role.pk]), {}),
        ("get", reverse("clubs:player_create", args=[club.pk]), None),
        (
            "post",
            reverse("clubs:player_create", args=[club.pk]),
            {
                "given_name": "A",
                "family_name": "B",
                "player_number": "999",
                "member_from": "2024-01-01",
            },
        ),
        ("get", reverse("clubs:player_edit", args=[player.pk]), None),
        (
            "post",
            reverse("clubs:player_edit", args=[player.pk]),
            {"given_name": "A", "family_name": "B", "player_number": "999"},
        ),
        (
            "post",
            reverse("clubs:player_join_club", args=[player.pk]),
            {"club": club.pk, "valid_from": "2030-01-01"},
        ),
        (
            "post",
            reverse("clubs:membership_end", args=[membership.pk]),
            {"valid_until": "2030-01-01"},
        ),
        ("get", reverse("clubs:import_upload", args=[club.pk]), None),
        ("post", reverse("clubs:import_upload", args=[club.pk]), {}),
        ("get", reverse("clubs:import_preview", args=[club.pk, player_import.pk]), None),
        (
            "post",
            reverse("clubs:import_preview", args=[club.pk, player_import.pk]),
            {"confirm": "1"},
        ),
    ]


@pytest.fixture
def targets(club_b, organiser_a):
    from clubs import services

    membership = MembershipFactory(club=club_b)
    bystander = UserFactory(username="bystander")
    club_role = ClubRole.objects.create(user=bystander, club=club_b, role="viewer")
    organiser_b = UserFactory(username="org_b")
    ClubRole.objects.create(user=organiser_b, club=club_b, role="organiser")
    player_import = services.upload_player_file(
        organiser_b, club_b, "x.csv", b"Spielernummer;Vorname;Nachname\n5;A;B\n"
    )
    return club_b, membership.player, membership, club_role, player_import


def _snapshot():
    return (
        list(Club.objects.values_list("name", "short_name")),
        list(Player.objects.values_list("given_name", "family_name", "player_number")),
        list(Membership.objects.values_list("club_id", "valid_until")),
        list(ClubRole.objects.values_list("user_id", "club_id", "role")),
    )


@pytest.mark.parametrize("role", ["organiser", "scorer", "viewer"])
def test_a_role_in_club_a_gives_403_on_every_write_of_club_b(client, club_a, targets, role):
    user = UserFactory(username=f"{role}_of_a")
    ClubRole.objects.create(user=user, club=club_a, role=role)
    client.force_login(user)
    before = _snapshot()
    for method, url, data in write_requests(*targets):
        response = getattr(client, method)(url, data) if data is not None else client.get(url)
        assert response.status_code == 403, (method, url, response.status_code)
    assert _snapshot() == before


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_scorers_and_viewers_cannot_write_the_registry_of_their_own_club(
    client, club_b, targets, role
):
    user = UserFactory(username=f"{role}_of_b")
    ClubRole.objects.create(user=user, club=club_b, role=role)
    client.force_login(user)
    before = _snapshot()
    for method, url, data in write_requests(*targets):
        response = getattr(client, method)(url, data) if data is not None else client.get(url)
        assert response.status_code == 403, (method, url, response.status_code)
    assert _snapshot() == before


def test_the_organiser_of_club_b_may_do_these_writes(client, targets):
    client.force_login(UserFactory(username="org_b"))
    club, player, *_ = targets
    assert client.get(reverse("clubs:club_edit", args=[club.pk])).status_code == 200
    response = client.post(
        reverse("clubs:player_edit", args=[player.pk]),
        {"given_name": "Neu", "family_name": "Name", "player_number": player.player_number},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.given_name == "Neu"


def test_anonymous_users_are_sent_to_login(client, targets):
    club, player, *_ = targets
    urls = [
        reverse("clubs:club_list"),
        reverse("clubs:player_list"),
        club.get_absolute_url(),
        player.get_absolute_url(),
    ] + [url for _method, url, _data in write_requests(*targets)]
    for url in urls:
        for response in (client.get(url), client.post(url, {})):
            if response.status_code == 405:  # POST-only views answer GET with 405 first
                continue
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("login")), url


def test_forbidden_page_says_which_role_is_missing(client, club_a, targets):
    user = UserFactory(username="curious")
    ClubRole.objects.create(user=user, club=club_a, role="viewer")
    client.force_login(user)
    club = targets[0]
    response = client.get(reverse("clubs:club_edit", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "organiser" in response.content.decode() and club.name in response.content.decode()
