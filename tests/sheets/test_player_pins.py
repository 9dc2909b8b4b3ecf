"""A seat named by the player's number and a PIN the director set (issue 16)."""

import pytest
from django.contrib.auth.hashers import check_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from scoring.models import PlayerPin
from scoring.sheets.table import links as table_links
from scoring.sheets.table import pins as player_pins
from tests.factories import user_with_role
from tests.sheets.conftest import make_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(club_a, organiser_a):
    series, _made = make_series(club_a, tables=2, rounds=1)
    links = {x.table.number: x for x in table_links.create_table_links(organiser_a, series)}
    return series, links


def _number(link, seat):
    return link.table.seats.get(position=seat).participant.player.player_number


def _pin_login(link, number, pin):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    url = reverse("scoring:table_seat", kwargs={"token": link.token})
    return client, client.post(url, {"player_number": number, "pin": pin})


def test_a_pin_is_stored_hashed_and_its_history_kept(tables, organiser_a):
    series, links = tables
    number = _number(links[1], 2)
    player_pins.set_player_pin(organiser_a, series.event, number, "4711")
    row = PlayerPin.objects.get()
    assert "4711" not in row.pin_hash and check_password("4711", row.pin_hash)
    player_pins.set_player_pin(organiser_a, series.event, number.lower(), "")  # cleared
    player_pins.set_player_pin(organiser_a, series.event, number, "0815")
    history = player_pins.pin_history(series.event)
    assert [bool(r.pin_hash) for r in history] == [True, False, True]
    assert {r.set_by for r in history} == {organiser_a}
    for pin in ("123", "12345", "abcd"):
        with pytest.raises(ValidationError):
            player_pins.set_player_pin(organiser_a, series.event, number, pin)
    with pytest.raises(ValidationError):
        player_pins.set_player_pin(organiser_a, series.event, "NO-SUCH", "1234")


def test_only_an_organiser_sets_pins(tables, club_a):
    series, links = tables
    scorer = user_with_role(club_a, "scorer", username="pin_scorer")
    with pytest.raises(PermissionDenied):
        player_pins.set_player_pin(scorer, series.event, _number(links[1], 0), "1234")


def test_number_and_pin_name_the_seat_on_the_players_table_only(tables, organiser_a):
    series, links = tables
    number = _number(links[1], 2)
    player_pins.set_player_pin(organiser_a, series.event, number, "4711")
    client, response = _pin_login(links[1], number, "4711")
    assert response.status_code == 302
    page = client.get(reverse("scoring:table_phone", kwargs={"token": links[1].token}))
    assert "Sie sind Platz 3" in page.content.decode()
    # The same player and PIN on another table's link: not a seat there.
    _client, response = _pin_login(links[2], number, "4711")
    assert response.status_code == 400
    assert "passen zu keinem Platz" in response.content.decode()


def test_a_cleared_or_wrong_pin_names_no_seat(tables, organiser_a):
    series, links = tables
    number = _number(links[1], 1)
    assert _pin_login(links[1], number, "4711")[1].status_code == 400  # no PIN yet
    player_pins.set_player_pin(organiser_a, series.event, number, "4711")
    player_pins.set_player_pin(organiser_a, series.event, number, "")
    assert _pin_login(links[1], number, "4711")[1].status_code == 400


def test_wrong_pins_count_against_the_links_limit(tables, organiser_a):
    series, links = tables
    number = _number(links[1], 0)
    player_pins.set_player_pin(organiser_a, series.event, number, "4711")
    for guess in range(table_links.CODE_TRIES_PER_MINUTE):
        assert _pin_login(links[1], number, f"{guess:04d}")[1].status_code == 400
    # Now even the right PIN (and a right seat code) waits a minute.
    assert _pin_login(links[1], number, "4711")[1].status_code == 429
    with pytest.raises(table_links.TooManyTries):
        table_links.seat_for_code(links[1], links[1].seat_codes[0])
    # Another table's link is not slowed down.
    assert table_links.seat_for_code(links[2], links[2].seat_codes[0]) == 0


def test_the_director_sets_a_pin_on_the_links_page(tables, organiser_a):
    series, links = tables
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(organiser_a)
    url = reverse("scoring:table_link_pin", kwargs={"pk": series.pk})
    number = _number(links[1], 3)
    response = client.post(url, {"player_number": number, "pin": "2468"}, follow=True)
    assert "PIN von" in response.content.decode() and "gesetzt" in response.content.decode()
    page = response.content.decode()
    assert 'id="pin-history"' in page and number in page and "2468" not in page
    assert client.post(url, {"player_number": number, "pin": "24"}, follow=True).status_code == 200
    assert PlayerPin.objects.count() == 1  # the short PIN was refused
    viewer = user_with_role(series.event.club, "viewer", username="pin_viewer")
    client.force_login(viewer)
    assert client.post(url, {"player_number": number, "pin": "1357"}).status_code == 403
    assert PlayerPin.objects.count() == 1
