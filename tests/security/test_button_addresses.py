"""A GET of an address that only takes a form's POST gets the app's German page with 405,
not the browser's bare error page (romme.button_addresses); nothing is changed by it."""

import pytest
from django.test import Client

from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


def _client(user, language="de"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_buttons_address_opened_as_a_page_says_so_in_german(organiser_a, club_a):
    event = EventFactory(club=club_a)
    url = f"/events/{event.pk}/categories/edit/"
    page = _client(organiser_a).get(url, HTTP_REFERER=f"http://testserver/events/{event.pk}/")
    assert page.status_code == 405
    assert page["Allow"] == "POST"
    text = page.content.decode()
    assert '<html lang="de"' in text
    assert "<h1>Diese Adresse gehört zu einem Knopf</h1>" in text
    assert "Es wurde nichts geändert." in text
    assert f'<a href="http://testserver/events/{event.pk}/">Zurück zur vorigen Seite</a>' in text


def test_no_link_to_another_site_and_english_in_english(organiser_a, club_a):
    event = EventFactory(club=club_a)
    url = f"/events/{event.pk}/categories/edit/"
    page = _client(organiser_a, "en").get(url, HTTP_REFERER="http://evil.example/x/")
    text = page.content.decode()
    assert page.status_code == 405
    assert "<h1>This address belongs to a button</h1>" in text
    assert "evil.example" not in text and "Back to the start page" in text


def test_a_phone_asking_for_json_and_other_methods_keep_the_bare_answer(organiser_a, club_a):
    event = EventFactory(club=club_a)
    url = f"/events/{event.pk}/categories/edit/"
    client = _client(organiser_a)
    assert client.get(url, HTTP_ACCEPT="application/json").content == b""
    assert client.put(url).content == b""
    assert client.get(url).status_code == 405
