"""A create form sent twice creates one object (common.once): a double click, the browser's
"send again", Back and Save. The second sending is sent to what the first created, with a
German message; changed values are a new object; a refused form can be corrected and sent."""

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory

from clubs.models import Player
from common import once
from tests.factories import ClubFactory, EventFactory, user_with_role
from tests.page_forms import form_values
from tournaments.models import Event, Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    cache.clear()
    club = ClubFactory(name="Herz Dame Kassel")
    event = EventFactory(club=club, name="Kasseler Open")
    user = user_with_role(club, "organiser", username="leitung")
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    return client, user, event


def _new_event(client) -> dict:
    values = form_values(client.get("/events/new/"))
    assert len(values[once.ONCE]) >= 16
    return {**values, "name": "Nordhessen-Cup", "start_date": "2026-12-05"}


def test_an_event_sent_twice_is_created_once_and_the_second_sending_shows_it(organiser):
    client, _, _ = organiser
    values = _new_event(client)
    first = client.post("/events/new/", values)
    assert first.status_code == 302, first.content.decode()[:2000]
    created = Event.objects.get(name="Nordhessen-Cup")
    assert first.url == created.get_absolute_url()

    again = client.post("/events/new/", values, follow=True)
    assert Event.objects.filter(name="Nordhessen-Cup").count() == 1
    assert again.redirect_chain == [(created.get_absolute_url(), 302)]
    assert "Dieses Formular war schon gespeichert" in again.content.decode()


def test_back_with_a_changed_value_and_save_is_a_second_object(organiser):
    client, _, event = organiser
    values = form_values(client.get(f"/events/{event.pk}/series/new/"))
    assert client.post(f"/events/{event.pk}/series/new/", values).status_code == 302
    assert client.post(f"/events/{event.pk}/series/new/", values).status_code == 302
    assert Series.objects.filter(event=event).count() == 1

    changed = {**values, "planned_rounds": str(int(values["planned_rounds"]) + 1)}
    assert client.post(f"/events/{event.pk}/series/new/", changed).status_code == 302
    assert Series.objects.filter(event=event).count() == 2


def test_a_refused_form_keeps_its_token_and_saves_when_corrected(organiser):
    client, _, _ = organiser
    values = {**_new_event(client), "end_date": "2026-12-01"}  # before the start
    refused = client.post("/events/new/", values)
    assert refused.status_code == 200
    assert not Event.objects.filter(name="Nordhessen-Cup").exists()
    assert form_values(refused)[once.ONCE] == values[once.ONCE]

    corrected = {**form_values(refused), "end_date": "2026-12-06"}
    assert client.post("/events/new/", corrected).status_code == 302
    assert Event.objects.filter(name="Nordhessen-Cup").count() == 1


def _key(user, path, values):
    request = RequestFactory().post(path, values)
    request.user = user

    class Sent:
        data = request.POST
        is_bound = True

    return once._key(request, Sent)


def test_a_second_click_while_the_first_still_saves_waits_for_its_object(organiser, monkeypatch):
    client, user, _ = organiser
    values = _new_event(client)
    key = _key(user, "/events/new/", values)
    cache.set(key, "pending")  # the first click's request, still writing
    monkeypatch.setattr(once.Once, "wait_seconds", 0.3)

    busy = client.post("/events/new/", values, follow=True)
    assert busy.redirect_chain == [("/events/new/", 302)]
    assert "wird gerade von einem früheren Klick gespeichert" in busy.content.decode()
    assert not Event.objects.filter(name="Nordhessen-Cup").exists()

    cache.set(key, "/events/")  # the first one finished
    done = client.post("/events/new/", values)
    assert (done.status_code, done.url) == (302, "/events/")
    assert not Event.objects.filter(name="Nordhessen-Cup").exists()


def test_each_user_and_each_page_has_its_own_claim(organiser):
    client, user, event = organiser
    values = _new_event(client)
    other = user_with_role(event.club, "organiser", username="kasse")
    assert _key(user, "/events/new/", values) != _key(other, "/events/new/", values)
    assert _key(user, "/events/new/", values) != _key(user, "/clubs/new/", values)


def test_a_page_from_before_the_token_saves_as_ever(organiser):
    client, _, _ = organiser
    values = _new_event(client)
    del values[once.ONCE]
    values["name"] = "Ohne Marke"
    assert client.post("/events/new/", values).status_code == 302
    assert client.post("/events/new/", values).status_code == 302
    assert Event.objects.filter(name="Ohne Marke").count() == 2


@pytest.mark.parametrize("token", ["x", "<script>", "a" * 65, "ä" * 20])
def test_a_forged_token_is_no_token(organiser, token):
    client, _, _ = organiser
    values = {**_new_event(client), once.ONCE: token}
    assert client.post("/events/new/", values).status_code == 302
    assert Event.objects.filter(name="Nordhessen-Cup").count() == 1


def test_a_lookalike_player_is_still_asked_about_and_then_created_once(organiser):
    client, _, event = organiser
    url = f"/clubs/{event.club.pk}/players/new/"
    values = {**form_values(client.get(url)), "given_name": "Anna", "family_name": "Schmidt"}
    assert client.post(url, {**values, "player_number": "4711"}).status_code == 302
    values = {**values, "player_number": "4712", once.ONCE: form_values(client.get(url))[once.ONCE]}
    asked = client.post(url, values)
    assert asked.status_code == 200  # "is this the same person?"
    confirmed = form_values(asked)
    assert confirmed["allow_lookalike"] == "on"
    assert client.post(url, confirmed).status_code == 302
    # Sent again: the new player's number is taken now, but the answer is the player.
    again = client.post(url, confirmed)
    assert (
        again.status_code == 302
        and again.url == Player.objects.get(player_number="4712").get_absolute_url()
    )
    assert Player.objects.filter(family_name="Schmidt").count() == 2
