"""'Live veröffentlichen' on the laptop (directors only), the status line on the event page
and manage.py live_push, in German; never an error page for a network problem."""

import datetime as dt
import urllib.error
import zoneinfo

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from clubs.permissions import ORGANISER, SCORER
from live.laptop import sender, transport
from live.models import LiveLink
from live.shared.parts import event_parts
from tests.factories import ClubFactory, EventFactory, user_with_role
from tests.live.fake_server import FakeServer

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


@pytest.fixture
def club():
    return ClubFactory(short_name="HDK")


@pytest.fixture
def event(club):
    return EventFactory(club=club, name="Live-Turnier")


@pytest.fixture
def director(club):
    return user_with_role(club, ORGANISER, username="leitung")


@pytest.fixture
def page(event):
    return reverse("live:publish", args=[event.pk])


def pushes(event):
    return DBTaskResult.objects.filter(
        task_path=sender.push_live.module_path,
        status=TaskResultStatus.READY,
        args_kwargs__kwargs__event_id=event.pk,
    )


def test_only_the_events_directors_open_it(client, event, page, club):
    assert client.get(page).status_code == 302  # to the login
    client.force_login(user_with_role(club, SCORER, username="schreiber"))
    assert client.get(page).status_code == 403
    client.force_login(user_with_role(ClubFactory(), ORGANISER, username="fremd"))
    assert client.get(page).status_code == 403
    assert client.post(page, {"server_url": "https://x.example", "token": "t"}).status_code == 403
    assert not LiveLink.objects.exists()


def test_pairing_starts_the_sending_and_never_shows_the_token_again(
    client, event, page, director, django_capture_on_commit_callbacks
):
    client.force_login(director)
    html = client.get(page, **DE).content.decode()
    assert (
        "Live veröffentlichen" in html and "Serveradresse" in html and "Verbindung testen" in html
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            page,
            {"action": "save", "server_url": "https://ergebnisse.example/", "token": "geheim-4711"},
            **DE,
        )
    assert response.status_code == 302
    link = LiveLink.objects.get(event=event)
    assert (link.server_url, link.token, link.enabled) == (
        "https://ergebnisse.example/",
        "geheim-4711",
        True,
    )
    assert link.created_by == director
    assert pushes(event).count() == 1  # the worker is asked to send

    html = client.get(page, **DE).content.decode()
    assert "geheim-4711" not in html
    assert "Gespeichert. Der Laptop sendet die Veranstaltung jetzt an den Server." in html
    assert "live: noch nichts gesendet · 0 Änderungen warten" in html

    # Saved again with the token field empty: the stored token stays.
    client.post(page, {"action": "save", "server_url": "https://ergebnisse.example/"}, **DE)
    assert LiveLink.objects.get(event=event).token == "geheim-4711"


@pytest.mark.parametrize(
    "url, words",
    [
        ("http://ergebnisse.example", "nur zu diesem Rechner"),
        ("ergebnisse.example", "muss mit https:// beginnen"),
        ("https://ergebnisse.example:99999", "keine gültige Webadresse"),
    ],
)
def test_a_bad_address_is_refused_in_german(client, event, page, director, url, words):
    client.force_login(director)
    response = client.post(page, {"action": "save", "server_url": url, "token": "t"}, **DE)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not LiveLink.objects.exists()


def test_a_first_pairing_needs_the_token(client, event, page, director):
    client.force_login(director)
    response = client.post(page, {"action": "save", "server_url": "https://e.example"}, **DE)
    assert "Geben Sie das Token ein" in response.content.decode()
    assert not LiveLink.objects.exists()


@pytest.mark.parametrize(
    "answer, words",
    [
        (
            urllib.error.URLError(OSError("Name or service not known")),
            "Keine Verbindung zum Server.",
        ),
        (TimeoutError("timed out"), "nicht rechtzeitig geantwortet"),
        ((200, {"last_seq": 0, "owner": "laptop"}), "nimmt das Token an"),
        ((200, {"last_seq": 12, "owner": "laptop"}), "bis Änderung 12"),
        ((401, {"error": "Das Token ist zurückgezogen.", "code": "token"}), "zurückgezogen"),
        ((404, {}), "kein Rommé-Ledger-Server"),
    ],
)
def test_the_connection_test_answers_on_the_page(
    client, event, page, director, monkeypatch, answer, words
):
    asked = []

    def fake_get(url, token, timeout):
        asked.append((url, token))
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(transport, "get_json", fake_get)
    client.force_login(director)
    data = {"action": "test", "server_url": "https://e.example", "token": "tok"}
    response = client.post(page, data, follow=True, **DE)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert asked[0][0].startswith("https://e.example/api/live/v1/status?origin=")
    assert asked[0][1] == "tok"
    assert not LiveLink.objects.exists()  # a test saves nothing


def test_stop_and_resume(client, event, page, director):
    client.force_login(director)
    response = client.post(page, {"action": "stop"}, follow=True, **DE)
    assert "Geben Sie zuerst die Serveradresse und das Token ein." in response.content.decode()
    LiveLink.objects.create(event=event, server_url="https://e.example", token="t")
    html = client.post(page, {"action": "stop"}, follow=True, **DE).content.decode()
    assert not LiveLink.objects.get(event=event).enabled
    assert "live: Senden angehalten" in html and "Senden fortsetzen" in html
    client.post(page, {"action": "start"}, **DE)
    assert LiveLink.objects.get(event=event).enabled


def test_the_event_page_shows_the_state(client, event, director):
    url = event.get_absolute_url()
    client.force_login(director)
    assert "data-live-status" not in client.get(url, **DE).content.decode()
    link = LiveLink.objects.create(
        event=event,
        server_url="https://e.example",
        token="t",
        next_seq=1,
        last_sent_at=dt.datetime(2026, 3, 14, 14, 32, 5, tzinfo=BERLIN),
    )
    html = client.get(url, **DE).content.decode()
    assert "live: zuletzt gesendet 14:32:05 · 0 Änderungen warten" in html
    assert "Live veröffentlichen" in html

    LiveLink.objects.filter(pk=link.pk).update(
        next_seq=38, acked_seq=0, failing_since=dt.datetime(2026, 3, 14, 14, 20, tzinfo=BERLIN)
    )
    html = client.get(url, **DE).content.decode()
    assert "keine Verbindung seit 14:20 · 37 Änderungen warten" in html

    LiveLink.objects.filter(pk=link.pk).update(refused="Übernommen am 14.03.2026 von anna")
    html = client.get(url, **DE).content.decode()
    assert "vom Server abgelehnt – Übernommen am 14.03.2026 von anna" in html

    # Someone else's eyes: a scorer of the club sees no live state.
    client.force_login(user_with_role(event.club, SCORER, username="schreiber"))
    assert "data-live-status" not in client.get(url, **DE).content.decode()


def test_the_status_line_nudges_a_push_that_never_came(client, event, director):
    LiveLink.objects.create(event=event, server_url="https://e.example", token="t", next_seq=3)
    client.force_login(director)
    client.get(event.get_absolute_url(), **DE)
    client.get(event.get_absolute_url(), **DE)
    assert pushes(event).count() == 1


# ----- manage.py live_push -------------------------------------------------------------------


def test_live_push_exits_0_when_the_server_holds_everything(event, monkeypatch, capsys):
    server = FakeServer()
    monkeypatch.setattr(transport, "post_json", server)
    call_command(
        "live_push", str(event.pk), "--to", "https://ergebnisse.example", "--token", "tok-123"
    )
    out = capsys.readouterr().out
    assert "Der Server hat alles bis Änderung 1." in out
    assert server.parts == event_parts(event)
    link = LiveLink.objects.get(event=event)
    assert link.acked_seq == 1 and link.created_by is None


def test_live_push_exits_1_with_the_reason(event, monkeypatch):
    server = FakeServer()
    server.script = [(503, {})]
    monkeypatch.setattr(transport, "post_json", server)
    with pytest.raises(CommandError, match="Störung"):
        call_command(
            "live_push", str(event.pk), "--to", "https://ergebnisse.example", "--token", "tok-123"
        )
    with pytest.raises(CommandError, match="nur zu diesem Rechner"):
        call_command("live_push", str(event.pk), "--to", "http://ergebnisse.example")
    with pytest.raises(CommandError, match="keine Veranstaltung 0"):
        call_command("live_push", "0", "--to", "https://ergebnisse.example", "--token", "t")
    server.script = [(409, {"error": "Übernommen am 14.03. von anna", "code": "taken_over"})]
    with pytest.raises(CommandError, match="Übernommen"):
        call_command(
            "live_push", str(event.pk), "--to", "https://ergebnisse.example", "--token", "tok-123"
        )
