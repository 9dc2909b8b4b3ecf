"""A form whose CSRF token is refused (its page opened before a new login, or the browser sent
no cookie) gets the app's German page, or JSON for a phone's queued hand, never Django's
technical page; nothing is saved (romme.views.csrf_failure)."""

import pytest
from django.test import Client

from tests.factories import ClubFactory, user_with_role

pytestmark = pytest.mark.django_db

STALE = "x" * 64  # a well-formed token of another cookie


def _organiser_client():
    club = ClubFactory(name="Herz Dame Kassel", town="Kassel")
    user = user_with_role(club, "organiser", username="leitung")
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    client.get(f"/clubs/{club.pk}/edit/")  # the page sets the CSRF cookie
    return club, client


def _post(client, club, **headers):
    data = {"name": club.name, "short_name": "HDK", "town": "Fulda", "csrfmiddlewaretoken": STALE}
    return client.post(f"/clubs/{club.pk}/edit/", data, **headers)


def test_a_stale_form_gets_the_german_page_and_saves_nothing():
    club, client = _organiser_client()
    page = _post(client, club, HTTP_REFERER=f"http://testserver/clubs/{club.pk}/edit/")
    assert page.status_code == 403
    text = page.content.decode()
    assert '<html lang="de"' in text
    assert "<h1>Die Seite war nicht mehr gültig</h1>" in text
    assert "Es wurde nichts gespeichert." in text
    assert "Zurück-Taste des Browsers" in text
    assert f'<a href="http://testserver/clubs/{club.pk}/edit/">Seite neu öffnen</a>' in text
    assert "CSRF" not in text and "DEBUG" not in text
    club.refresh_from_db()
    assert club.town == "Kassel"


def test_the_page_offers_no_link_to_another_site():
    club, client = _organiser_client()
    page = _post(client, club, HTTP_REFERER="http://evil.example/form/")
    assert page.status_code == 403
    text = page.content.decode()
    assert "evil.example" not in text and "Seite neu öffnen" not in text
    assert "Zurück zur Startseite" in text


def test_english_users_read_it_in_english():
    club, client = _organiser_client()
    page = _post(client, club, HTTP_ACCEPT_LANGUAGE="en")
    assert "<h1>This page had expired</h1>" in page.content.decode()


def test_a_phone_asking_for_json_gets_words_for_its_status_line():
    club, client = _organiser_client()
    answer = _post(client, club, HTTP_ACCEPT="application/json")
    assert answer.status_code == 403
    body = answer.json()
    assert body["stale_page"] is True
    assert body["message"].startswith("Diese Seite war nicht mehr gültig")
    assert "Die Hände bleiben auf diesem Gerät" in body["message"]
    assert body["message_en"].startswith("This page was no longer valid")
    club.refresh_from_db()
    assert club.town == "Kassel"
