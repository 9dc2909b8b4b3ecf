"""The director's backup page in the hall mode: the list (sortable by time, German dates),
the restore of an event backup through a confirmation and the archive import task, and who
may open it: the laptop's director only, nothing outside the hall mode."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse

from hall import backup_writer
from scoring.models import ArchiveImport
from tests.archive.test_archive import results
from tests.factories import IMMEDIATE_TASKS, UserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 14, 13, 32, 5, tzinfo=UTC)
PAGE = "/hall/backups/"
LAPTOP = {"HTTP_HOST": "127.0.0.1", "REMOTE_ADDR": "127.0.0.1"}


@pytest.fixture(autouse=True)
def immediate_tasks(settings):
    settings.TASKS = IMMEDIATE_TASKS


@pytest.fixture
def laptop():
    return Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9", **LAPTOP)


@pytest.fixture
def archives(hall, event):
    where = hall / "backups"
    first = backup_writer.write_archive(event.pk, where, T0)
    Event.objects.filter(pk=event.pk).update(results_version=99)
    second = backup_writer.write_archive(event.pk, where, T0 + timedelta(minutes=5))
    return first, second


def test_the_url_is_the_hall_s():
    assert reverse("hall:backups") == PAGE


def test_the_director_sees_the_backups_newest_first_with_german_dates(laptop, director, archives):
    first, second = archives
    laptop.force_login(director)
    page = laptop.get(PAGE)
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index(second.name) < text.index(first.name)
    assert "14.11.2026 14:37" in text and "14.11.2026 14:32" in text
    assert "Hamelner Saalturnier" in text and "Wiederherstellen" in text
    assert "restore_backup" in text  # how to restore a database copy
    oldest_first = laptop.get(PAGE, {"sort": "taken"}).content.decode()
    assert oldest_first.index(first.name) < oldest_first.index(second.name)


def test_restoring_asks_first_then_imports_as_the_director(laptop, director, archives, event):
    _first, second = archives
    laptop.force_login(director)
    url = reverse("hall:backup_restore")
    confirm = laptop.get(url, {"file": second.name})
    assert confirm.status_code == 200
    assert "Hamelner Saalturnier (Sicherung 14:37)" in confirm.content.decode()
    assert Event.objects.count() == 1  # nothing happens on the way there
    done = laptop.post(url, {"file": second.name})
    job = ArchiveImport.objects.get()
    assert done.status_code == 302 and done["Location"] == f"/archive/imports/{job.pk}/"
    assert job.state == ArchiveImport.State.DONE, job.error
    restored = Event.objects.get(name="Hamelner Saalturnier (Sicherung 14:37)")
    assert results(restored) == results(event)
    assert restored.history.earliest().history_user == director


@pytest.mark.parametrize("name", ["../secret_key.txt", "romme_20261114-133205Z.sqlite3", ""])
def test_only_an_event_backup_of_the_folder_can_be_restored(laptop, director, archives, name):
    laptop.force_login(director)
    url = reverse("hall:backup_restore")
    assert laptop.get(url, {"file": name}).status_code == 404
    assert laptop.post(url, {"file": name}).status_code == 404


def test_only_the_director(laptop, archives, club_a):
    assert laptop.get(PAGE).status_code == 302  # to the login
    organiser = UserFactory(username="helfer")
    laptop.force_login(organiser)
    assert laptop.get(PAGE).status_code == 403
    url = reverse("hall:backup_restore")
    assert laptop.post(url, {"file": archives[1].name}).status_code == 403
    assert Event.objects.count() == 1


def test_never_from_another_device(settings, director, archives):
    settings.HALL_OTHER_DEVICES = ["127.0.0.3"]  # a loopback alias that counts as a phone
    phone = Client(HTTP_HOST="127.0.0.1", REMOTE_ADDR="127.0.0.3")
    phone.force_login(director)
    assert phone.get(PAGE).status_code == 403


def test_not_found_outside_the_hall_mode(client, director, settings):
    settings.HALL_MODE = False
    client.force_login(director)
    assert client.get(PAGE).status_code == 404
    assert client.get(reverse("hall:backup_restore"), {"file": "x.json"}).status_code == 404


def test_the_start_page_links_to_it(laptop, director, hall):
    laptop.force_login(director)
    assert f'href="{PAGE}"' in laptop.get("/").content.decode()
