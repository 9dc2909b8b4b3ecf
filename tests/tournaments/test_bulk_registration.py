"""Registering many players at once: ticked search results, a pasted list, a whole club."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.factories import MembershipFactory, ParticipantFactory, PlayerFactory
from tournaments import registration
from tournaments.models import Participant

pytestmark = pytest.mark.django_db


def _registered(event):
    return set(Participant.objects.filter(event=event).values_list("player_id", flat=True))


def test_ticked_players_are_registered_in_one_post(client, event_a, organiser_a, club_a):
    players = [MembershipFactory(club=club_a).player for _ in range(3)]
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:participant_add", args=[event_a.pk]),
        {"player": [p.pk for p in players[:2]], "checked_in": "1"},
    )
    assert response.status_code == 302
    assert _registered(event_a) == {players[0].pk, players[1].pk}
    assert all(p.club == club_a and p.checked_in for p in Participant.objects.all())
    # Sent again, nobody is registered twice and the page says who already was.
    response = client.post(
        reverse("tournaments:participant_add", args=[event_a.pk]),
        {"player": [players[0].pk, players[2].pk]},
        follow=True,
    )
    texts = [str(m) for m in get_messages(response.wsgi_request)] or [
        str(m) for m in response.context["messages"]
    ]
    assert _registered(event_a) == {p.pk for p in players}
    assert any(players[0].full_name in t for t in texts)


def test_a_pasted_list_by_number_and_name_reports_each_unknown_line(event_a, organiser_a):
    anna = PlayerFactory(given_name="Anna", family_name="Groß", player_number="D-1")
    bernd = PlayerFactory(given_name="Bernd", family_name="Öztürk", player_number="D-2")
    PlayerFactory(given_name="Carl", family_name="Weber", player_number="D-3")
    PlayerFactory(given_name="Carl", family_name="Weber", player_number="D-4")
    text = "D-1\n\nöztürk, bernd\nCarl Weber\nNiemand Unbekannt\n"
    result = registration.register_list(organiser_a, event_a, text)
    assert {p.pk for p in result.registered} == {anna.pk, bernd.pk}
    assert len(result.problems) == 2
    assert "Line 4" in result.problems[0] and "2 players" in result.problems[0]
    assert "Line 5" in result.problems[1] and "Niemand" in result.problems[1]


def test_a_family_name_alone_finds_the_one_player_or_the_one_club_member(
    event_a, organiser_a, club_a, club_b
):
    heide = PlayerFactory(given_name="Hans", family_name="von der Heide", player_number="D-7")
    PlayerFactory(given_name="Ute", family_name="Heide", player_number="D-8")
    ours = MembershipFactory(
        club=club_a, player=PlayerFactory(given_name="Anna", family_name="Müller")
    ).player
    MembershipFactory(club=club_b, player=PlayerFactory(given_name="Bernd", family_name="Müller"))
    for given in ("Carl", "Dora"):  # two of them in another club: the line names both
        MembershipFactory(club=club_b, player=PlayerFactory(given_name=given, family_name="Weiß"))
    text = "VON DER HEIDE\nmüller,\nWeiß\nSchulze\n"
    result = registration.register_list(organiser_a, event_a, text)
    assert {p.pk for p in result.registered} == {heide.pk, ours.pk}
    assert len(result.problems) == 2
    weiss, unknown = result.problems
    assert "Line 3" in weiss and "2 players have this family name" in weiss
    assert "Carl Weiß (" in weiss and "Dora Weiß (" in weiss
    assert "Line 4" in unknown and "no player" in unknown


def test_the_family_name_message_in_german(event_a, organiser_a, club_b):
    from django.utils import translation

    for given in ("Carl", "Dora"):
        MembershipFactory(club=club_b, player=PlayerFactory(given_name=given, family_name="Weiß"))
    with translation.override("de"):
        result = registration.register_list(organiser_a, event_a, "weiß")
    assert result.problems[0].startswith(
        "Zeile 1 „weiß“: 2 Spieler haben diesen Nachnamen (Carl Weiß ("
    )
    assert result.problems[0].endswith("bitte auch den Vornamen oder die Nummer angeben.")


def test_all_active_members_of_a_club(client, event_a, organiser_a, club_a, club_b):
    active = [MembershipFactory(club=club_b).player for _ in range(4)]
    inactive = MembershipFactory(club=club_b, player=PlayerFactory(active=False)).player
    ParticipantFactory(event=event_a, player=active[0], club=club_b)
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:participant_add_list", args=[event_a.pk]),
        {"club": club_b.pk, "checked_in": "on"},
    )
    assert response.status_code == 302
    assert _registered(event_a) == {p.pk for p in active}
    assert inactive.pk not in _registered(event_a)


def test_only_organisers_register_and_empty_requests_are_refused(
    client, event_a, scorer_a, organiser_a
):
    player = PlayerFactory()
    client.force_login(scorer_a)
    url = reverse("tournaments:participant_add_list", args=[event_a.pk])
    assert client.post(url, {"text": player.player_number}).status_code == 403
    client.force_login(organiser_a)
    response = client.post(url, {"text": "  "}, follow=True)
    assert response.status_code == 200 and not _registered(event_a)
    assert "Paste a list" in response.content.decode()
