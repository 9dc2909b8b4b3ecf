"""The hall mode's pages and checks (issue 26): the host, the first start, the start page
with the phones' address, the director's hall settings, what a phone sees."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import Club, ClubRole
from common.lan import Interface
from hall.models import HallSettings

pytestmark = pytest.mark.django_db
LAPTOP = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000"}
PHONE = {"REMOTE_ADDR": "192.168.1.50", "HTTP_HOST": "192.168.1.23:8000"}
FIRST_START = {
    "club_name": "Rommé-Club Herz Dame Kassel",
    "club_short_name": "HDK",
    "town": "Kassel",
    "username": "leitung",
    "password": "Kreuz-Bube-2026",
    "password_again": "Kreuz-Bube-2026",
}


@pytest.fixture
def german(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    return client


def test_a_host_that_is_not_the_laptop_gets_400_in_german(german, hall_mode, superuser):
    response = german.get("/", REMOTE_ADDR="192.168.1.50", HTTP_HOST="evil.example")
    assert response.status_code == 400
    text = response.content.decode()
    assert "gehört nicht zu diesem Laptop" in text and "http://192.168.1.23:8000" in text
    for host in ("192.168.1.23:8000", "localhost:8000", "127.0.0.1", "172.17.0.1:8000"):
        assert german.get("/", REMOTE_ADDR="127.0.0.1", HTTP_HOST=host).status_code == 200, host


def test_the_first_start_is_asked_for_on_the_laptop_only(german, hall_mode):
    response = german.get("/events/", **LAPTOP)
    assert response.status_code == 302 and response["Location"] == reverse("hall:setup")
    page = german.get(reverse("hall:setup"), **LAPTOP).content.decode()
    assert "Erster Start" in page and "Passwort" in page
    refused = german.get(reverse("hall:setup"), **PHONE)
    assert refused.status_code == 403 and "nur am Laptop der Turnierleitung" in (
        refused.content.decode()
    )
    assert german.post(reverse("hall:setup"), FIRST_START, **PHONE).status_code == 403
    assert not get_user_model().objects.exists()


def test_the_first_start_makes_the_director_and_the_club(german, hall_mode):
    bad = german.post(reverse("hall:setup"), {**FIRST_START, "password_again": "x"}, **LAPTOP)
    assert bad.status_code == 200 and "Die beiden Passwörter unterscheiden sich" in (
        bad.content.decode()
    )
    response = german.post(reverse("hall:setup"), FIRST_START, **LAPTOP)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    director = get_user_model().objects.get()
    assert director.username == "leitung" and director.is_superuser
    club = Club.objects.get()
    assert club.short_name == "HDK"
    assert ClubRole.objects.get(user=director, club=club).role == "organiser"
    home = german.get("/", **LAPTOP).content.decode()
    assert "leitung" in home and "Handys:" in home
    # Once set up, the page is gone: nobody makes a second director through it.
    german.logout()
    again = german.post(reverse("hall:setup"), {**FIRST_START, "username": "x"}, **LAPTOP)
    assert again.status_code == 302 and get_user_model().objects.count() == 1


def test_the_start_page_shows_the_phones_address_with_a_qr(german, hall_mode, superuser):
    german.force_login(superuser)
    page = german.get("/", **LAPTOP).content.decode()
    assert "Handys:" in page and "<strong>http://192.168.1.23:8000</strong>" in page
    assert 'class="hall-qr" src="data:image/png;base64,' in page
    assert "http://172.17.0.1:8000" in page  # the other address, small
    assert "Turnierleitung auch von anderen Geräten" in page


def test_without_network_the_start_page_says_so(german, hall_mode, network, superuser):
    network[:] = [Interface("lo", "127.0.0.1", True)]
    from common import lan

    lan.forget_cached_address()
    german.force_login(superuser)
    page = german.get("/", **LAPTOP).content.decode()
    assert "kein Netzwerk gefunden" in page and "hall-qr" not in page


def test_a_phone_sees_the_published_results(german, hall_mode, superuser):
    from tests.factories import EventFactory, SeriesFactory

    shown = EventFactory(name="Herbstturnier")
    SeriesFactory(event=shown, number=1, published=True)
    hidden = EventFactory(name="Geheimturnier")
    SeriesFactory(event=hidden, number=1, published=False)
    page = german.get("/", **PHONE).content.decode()
    assert "Ergebnisse im Saal" in page and "Herbstturnier" in page
    assert "Geheimturnier" not in page
    assert reverse("standings:public", args=[shown.pk]) in page
    assert "Anmelden" not in page  # no login link while the direction is the laptop's only
    assert german.get(reverse("standings:public", args=[shown.pk]), **PHONE).status_code == 200


def test_only_the_director_changes_the_hall_settings(german, hall_mode, superuser, organiser_a):
    url = reverse("hall:settings")
    german.force_login(organiser_a)
    assert german.post(url, {"remote_direction": "on"}, **LAPTOP).status_code == 403
    german.force_login(superuser)
    assert german.post(url, {"remote_direction": "on"}, **PHONE).status_code == 403
    response = german.post(url, {"remote_direction": "on", "backup_folder": ""}, **LAPTOP)
    assert response.status_code == 302
    row = HallSettings.objects.get()
    assert row.remote_direction
    assert row.history.first().history_user == superuser  # who changed it, when
    assert german.get("/login/", **PHONE).status_code == 200


def test_a_backup_folder_that_cannot_be_written_is_refused(german, hall_mode, superuser, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    german.force_login(superuser)
    response = german.post(
        reverse("hall:settings"),
        {"backup_folder": str(blocker / "backups")},
        follow=True,
        **LAPTOP,
    )
    assert "Sicherungen können nicht" in response.content.decode()
    assert HallSettings.objects.get().backup_folder == ""


def test_hall_pages_do_not_exist_outside_the_hall_mode(client, superuser):
    client.force_login(superuser)
    assert client.get(reverse("hall:setup")).status_code == 404
    assert client.post(reverse("hall:settings"), {}).status_code == 404
    assert client.get(reverse("hall:guide")).status_code == 200  # explains the hall mode
