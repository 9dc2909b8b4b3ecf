"""Participants: registration from the registry or on the spot, check-in, withdrawal;
pairs and teams."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import Membership, Player
from tests.factories import EventFactory, MembershipFactory, PlayerFactory
from tests.tournaments.conftest import make_participants
from tournaments import services
from tournaments.models import Group, Participant

pytestmark = pytest.mark.django_db


def test_registration_keeps_the_players_current_club(event_a, organiser_a, member_b, club_b):
    participant = services.register_participant(organiser_a, event_a, member_b, checked_in=True)
    assert participant.club == club_b and participant.checked_in
    assert participant.history.get().history_user == organiser_a
    with pytest.raises(ValidationError):
        services.register_participant(organiser_a, event_a, member_b)


def test_search_and_register_from_the_event_page(client, event_a, organiser_a, club_a):
    player = MembershipFactory(
        club=club_a, player=PlayerFactory(given_name="Hildegard", family_name="Rommelmann")
    ).player
    client.force_login(organiser_a)
    url = event_a.get_absolute_url()
    page = client.get(url, {"q": "rommel"})
    assert [p.pk for p in page.context["found"]] == [player.pk]
    response = client.post(
        reverse("tournaments:participant_add", args=[event_a.pk]),
        {"player": player.pk, "checked_in": "1"},
    )
    assert response.status_code == 302
    participant = Participant.objects.get(event=event_a)
    assert participant.player == player and participant.club == club_a
    assert client.get(url, {"q": "rommel"}).context["found"][0].registered


@pytest.mark.parametrize("organiser_there", [True, False])
def test_a_player_added_on_the_spot_enters_the_registry_with_history(
    client, event_a, organiser_a, club_a, club_b, organiser_there
):
    club = club_a if organiser_there else club_b
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:participant_new", args=[event_a.pk]),
        {"given_name": "Erna", "family_name": "Spontan", "club": club.pk, "checked_in": "on"},
    )
    assert response.status_code == 302
    player = Player.objects.get(family_name="Spontan")
    assert player.player_number.startswith("S-")
    record = player.history.get()
    assert record.history_type == "+" and record.history_user == organiser_a
    participant = Participant.objects.get(player=player)
    assert participant.event == event_a and participant.checked_in
    memberships = list(Membership.objects.filter(player=player).values_list("club", flat=True))
    # A membership only where the organiser may record one.
    assert memberships == ([club_a.pk] if organiser_there else [])
    assert participant.club_id == (club_a.pk if organiser_there else None)


def test_on_the_spot_asks_before_creating_a_lookalike(client, event_a, organiser_a):
    PlayerFactory(given_name="Erna", family_name="Doppel", birth_year=1960)
    client.force_login(organiser_a)
    url = reverse("tournaments:participant_new", args=[event_a.pk])
    data = {"given_name": "Erna", "family_name": "Doppel", "birth_year": "1960"}
    response = client.post(url, data)
    assert response.status_code == 200 and len(response.context["lookalikes"]) == 1
    assert Player.objects.filter(family_name="Doppel").count() == 1
    response = client.post(url, {**data, "allow_lookalike": "on"})
    assert response.status_code == 302
    assert Player.objects.filter(family_name="Doppel").count() == 2


def test_check_in_withdraw_and_undo(client, event_a, organiser_a):
    (participant,) = make_participants(event_a, 1, checked_in=False)
    client.force_login(organiser_a)
    client.post(
        reverse("tournaments:participant_check_in", args=[participant.pk]), {"checked_in": "1"}
    )
    participant.refresh_from_db()
    assert participant.checked_in
    client.post(
        reverse("tournaments:participant_withdraw", args=[participant.pk]), {"from_series": "3"}
    )
    participant.refresh_from_db()
    assert participant.withdrawn_from_series == 3
    assert participant.plays_in(2) and not participant.plays_in(3)
    client.post(reverse("tournaments:participant_reinstate", args=[participant.pk]))
    participant.refresh_from_db()
    assert participant.withdrawn_from_series is None
    client.post(
        reverse("tournaments:participant_check_in", args=[participant.pk]), {"checked_in": "0"}
    )
    participant.refresh_from_db()
    assert not participant.checked_in
    assert participant.history.count() == 5


def test_remove_a_registration(client, event_a, organiser_a):
    (participant,) = make_participants(event_a, 1)
    client.force_login(organiser_a)
    client.post(reverse("tournaments:participant_remove", args=[participant.pk]))
    assert not Participant.objects.exists()


# Pairs and teams


def test_pairs_and_teams_have_their_exact_size(event_a, organiser_a):
    players = make_participants(event_a, 6)
    pair = services.create_group(organiser_a, event_a, kind="pair", name="A", members=players[:2])
    team = services.create_group(organiser_a, event_a, kind="team", name="T", members=players[:4])
    assert set(pair.members.all()) == set(players[:2])
    assert team.memberships.count() == 4
    with pytest.raises(ValidationError, match="exactly 2"):
        services.create_group(organiser_a, event_a, kind="pair", name="B", members=players[2:5])
    with pytest.raises(ValidationError, match="exactly 4"):
        services.create_group(organiser_a, event_a, kind="team", name="U", members=players[4:])
    with pytest.raises(ValidationError, match="only once"):
        services.create_group(
            organiser_a, event_a, kind="pair", name="C", members=[players[5], players[5]]
        )


def test_a_player_is_in_at_most_one_pair_and_one_team(event_a, organiser_a):
    players = make_participants(event_a, 4)
    services.create_group(organiser_a, event_a, kind="pair", name="A", members=players[:2])
    with pytest.raises(ValidationError, match="already belongs to the pair"):
        services.create_group(organiser_a, event_a, kind="pair", name="B", members=players[1:3])
    # ... but a pair player may also play in a team.
    services.create_group(organiser_a, event_a, kind="team", name="T", members=players)
    assert Group.objects.count() == 2


def test_members_must_be_participants_of_the_same_event(event_a, organiser_a, club_a):
    other = EventFactory(club=club_a)
    mine = make_participants(event_a, 1)
    theirs = make_participants(other, 1)
    with pytest.raises(ValidationError, match="participant of this event"):
        services.create_group(organiser_a, event_a, kind="pair", name="X", members=mine + theirs)
    assert not Group.objects.exists()


def test_group_form_on_the_page(client, event_a, organiser_a):
    players = make_participants(event_a, 3)
    client.force_login(organiser_a)
    url = reverse("tournaments:group_create", args=[event_a.pk])
    response = client.post(
        url,
        {"kind": "team", "name": "Zu klein", "member_1": players[0].pk, "member_2": players[1].pk},
    )
    assert response.status_code == 200 and response.context["form"].non_field_errors()
    response = client.post(
        url,
        {"kind": "pair", "name": "Duo", "member_1": players[0].pk, "member_2": players[1].pk},
    )
    assert response.status_code == 302
    page = client.get(event_a.get_absolute_url()).content.decode()
    assert "Duo" in page
