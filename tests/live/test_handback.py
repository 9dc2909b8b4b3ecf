"""The hand-back (issue 28, item 4; live/server/handback.py): an event taken over on the server is
given back to a laptop by its archive. The round trip in one test database, as
test_end_to_end.py does it: the laptop pushes, the director takes the event over on the
server and changes it there, gives it back (token shown once, server read-only), the
archive is imported on a "second laptop" (another installation key) and published live
with that token: the server's copy ends equal to the second laptop's, the old laptop stays
refused. Also the cancel, the permissions and the tokens that must not work."""

import re
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from clubs.permissions import ORGANISER
from live.laptop import sender, transport
from live.laptop import services as laptop_services
from live.models import HandBack, LiveLink, LiveToken, ReceivedEvent
from live.server import tokens
from live.server.services import take_over
from live.shared import protocol
from scoring.archive.dump import export_event
from scoring.archive.load import import_event
from scoring.models import Sheet
from scoring.sheets.services import confirm_sheet
from scoring.standings.services import set_series_published
from tests.archive.test_archive import roundtrip
from tests.factories import ClubFactory, EventFactory, user_with_role
from tests.live.server.test_apply import SUFFIX, assert_same, laptop_event
from tests.live.test_end_to_end import Bridge
from tournaments.models import Event, Series
from tournaments.services import delete_series

pytestmark = pytest.mark.django_db

SERVER = "https://ergebnisse.example"
SECOND = "b" * 32  # the second laptop's installation
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def world(monkeypatch):
    """The laptop's event pushed to the server, taken over there and changed there (the
    entered sheet confirmed on the server)."""
    cache.clear()  # the endpoint's rate limit per token
    laptop = laptop_event(players=12, series=4)
    director = user_with_role(laptop.club, ORGANISER, username="leiter", password=None)
    _token, raw = tokens.make_token(director, laptop.club, label="Saal 1")
    LiveLink.objects.create(event=laptop, server_url=SERVER, token=raw)
    bridge = Bridge()
    monkeypatch.setattr(transport, "post_json", bridge)
    assert sender.push(laptop).state == "done"
    received = ReceivedEvent.objects.select_related("event").get(origin_event=laptop.pk)
    take_over(director, received, "Laptop defekt")
    server = Event.objects.get(pk=received.event_id)
    sheet = Sheet.objects.get(table__series__event=server, status=Sheet.Status.ENTERED)
    grid = sheet.versions.order_by("-number").first().grid
    confirm_sheet(director, sheet.table, grid, expected_version=sheet.version)
    return SimpleNamespace(
        laptop=laptop,
        director=director,
        raw=raw,
        bridge=bridge,
        received=received,
        server=server,
        first_origin=sender.origin_key(),
        monkeypatch=monkeypatch,
    )


def hand_back(client, w, **extra) -> str:
    """The director's hand-back on the server's page; the token the page shows once."""
    client.force_login(w.director)
    url = reverse("live:hand_back", args=[w.server.pk])
    form = {"reason": "Netz im Saal geht wieder", "label": "Laptop 2", "confirm": "on", **extra}
    page = client.post(url, form, **DE)
    assert page.status_code == 200, page.content.decode()[:500]
    html = page.content.decode()
    assert "An einen Laptop zurückgegeben" in html and "Veranstaltungsarchiv" in html
    assert 'value="http://testserver"' in html  # the address to enter on the laptop
    return re.search(r'id="live-token-secret"[^>]*value="([^"]+)"', html).group(1)


def second_laptop(w, secret, name="Kasseler Herbstturnier 2") -> Event:
    """The server's archive imported on a second laptop and paired with the token."""
    data = roundtrip(export_event(Event.objects.get(pk=w.server.pk)))
    event = import_event(data, rename=name, actor=w.director).event
    laptop_services.pair(w.director, event, server_url=SERVER, token=secret)
    return event


def as_second(w):
    w.monkeypatch.setattr(sender, "origin_key", lambda: SECOND)


def as_first(w):
    w.monkeypatch.setattr(sender, "origin_key", lambda: w.first_origin)


def toggle(actor, event, number=1):
    series = Series.objects.get(event=event, number=number)
    set_series_published(actor, series, not series.published)


def test_the_round_trip_to_a_second_laptop(client, world):
    w = world
    secret = hand_back(client, w)
    hb = HandBack.objects.get()
    assert hb.state == "pending" and hb.created_by == w.director
    assert hb.history.first().history_change_reason == "Netz im Saal geht wieder"
    received = ReceivedEvent.objects.get(pk=w.received.pk)
    assert received.owner == "laptop"
    assert received.history.first().history_change_reason == "Netz im Saal geht wieder"
    token = LiveToken.objects.get(pk=hb.token_id)
    assert token.event_id == w.server.pk and token.label == "Laptop 2"
    assert token.token_hash == tokens.digest(secret)  # shown once; only its hash is kept

    laptop2 = second_laptop(w, secret)
    toggle(w.director, laptop2)  # a change on the second laptop before its first push
    as_second(w)
    result = sender.push(laptop2)
    assert result.state == "done", result.message
    received.refresh_from_db()
    assert (received.origin, received.origin_event) == (SECOND, laptop2.pk)
    assert received.owner == "laptop" and received.token_id == hb.token_id
    assert received.last_seq == LiveLink.objects.get(event=laptop2).acked_seq >= 1
    hb.refresh_from_db()
    assert hb.state == "done" and hb.completed_at and hb.to_origin_event == laptop2.pk
    assert hb.from_origin == w.first_origin and hb.from_origin_event == w.laptop.pk
    assert_same(laptop2, w.server)  # the server's confirmation came back with the archive
    assert (
        Sheet.objects.filter(table__series__event=laptop2, status=Sheet.Status.ENTERED).count() == 0
    )

    # From now on the second laptop sends as usual; the server stays read-only.
    toggle(w.director, laptop2, 2)
    assert sender.push(laptop2).state == "done"
    assert_same(laptop2, w.server)
    with pytest.raises(PermissionDenied):
        toggle(w.director, w.server, 2)

    # The old laptop: refused with its own words, also with the new laptop's numbers.
    as_first(w)
    toggle(w.director, w.laptop)
    LiveLink.objects.filter(event=w.laptop).update(refused="")
    old = sender.push(w.laptop)
    assert old.state == "refused" and "an einen anderen Laptop zurückgegeben" in old.message
    status, answer = w.bridge.post(w.bridge.sent[-1], w.raw)
    assert status == 409 and answer["code"] == protocol.TAKEN_OVER
    assert "an einen anderen Laptop" in answer["error"]
    assert_same(laptop2, w.server)


def test_the_first_push_in_several_batches_removes_what_the_laptop_no_longer_has(client, world):
    w = world
    secret = hand_back(client, w)
    laptop2 = second_laptop(w, secret)
    delete_series(w.director, Series.objects.get(event=laptop2, number=4))
    w.monkeypatch.setattr(sender, "BATCH_BYTES", 3000)
    as_second(w)
    count = len(w.bridge.sent)
    result = sender.push(laptop2)
    assert result.state == "done", result.message
    assert len(w.bridge.sent) - count > 2  # the first range came in several batches
    assert not Series.objects.filter(event=w.server, number=4).exists()
    assert HandBack.objects.get().receiving_keys is None
    assert_same(laptop2, w.server)


def test_while_the_hand_back_waits_the_server_is_read_only(client, world):
    w = world
    secret = hand_back(client, w)
    series = Series.objects.get(event=w.server, number=1)
    url = reverse("standings:series_publish", args=[series.pk])
    answer = client.post(url, {"published": "" if series.published else "1"}, **DE)
    text = answer.content.decode()
    assert answer.status_code == 403
    assert "Zurückgegeben am" in text and "an einen Laptop; Änderungen nur dort" in text

    # The event page: the state and the cancel for the director, no take-over.
    page = client.get(reverse("tournaments:event_detail", args=[w.server.pk]), **DE)
    html = page.content.decode()
    assert "Zurückgegeben am" in html and "Rückgabe abbrechen" in html
    assert reverse("live:take_over", args=[w.server.pk]) not in html
    take = client.post(
        reverse("live:take_over", args=[w.server.pk]), {"reason": "x", "confirm": "on"}, **DE
    )
    assert take.status_code == 400
    again = client.post(
        reverse("live:hand_back", args=[w.server.pk]),
        {"reason": "nochmal", "confirm": "on"},
        **DE,
    )
    assert again.status_code == 400 and "Zurückgegeben am" in again.content.decode()
    public = client.get(reverse("standings:public", args=[w.server.pk]), **DE)
    assert "live aus dem Saal" not in public.content.decode()

    # The old laptop is refused; the hand-back's token on the old copy too.
    toggle(w.director, w.laptop)
    old = sender.push(w.laptop)
    assert old.state == "refused" and "Zurückgegeben am" in old.message
    status, answer = w.bridge.post(w.bridge.sent[0], secret)
    assert status == 403 and "Veranstaltungsarchiv des Servers" in answer["error"]
    # The new laptop's "test the connection" before its first push: accepted.
    probe = Client().get(
        protocol.STATUS_PATH,
        {"origin": SECOND, "event": 99},
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert probe.status_code == 200 and probe.json() == {"last_seq": 0, "owner": None}


def test_cancel_revokes_the_token_and_the_server_holds_the_event(client, world):
    w = world
    secret = hand_back(client, w)
    url = reverse("live:hand_back_cancel", args=[w.server.pk])
    assert client.get(url, **DE).status_code == 200
    assert client.post(url, {"reason": "Laptop startet nicht"}, **DE).status_code == 400
    done = client.post(url, {"reason": "Laptop startet nicht", "confirm": "on"}, **DE)
    assert done.status_code == 302
    hb = HandBack.objects.get()
    assert hb.state == "cancelled" and hb.cancelled_by == w.director
    assert LiveToken.objects.get(pk=hb.token_id).revoked_at is not None
    received = ReceivedEvent.objects.get(pk=w.received.pk)
    assert received.owner == "server"
    assert received.history.first().history_change_reason == "Laptop startet nicht"
    toggle(w.director, w.server)  # the server may change it again

    laptop2 = second_laptop(w, secret)
    as_second(w)
    refused = sender.push(laptop2)
    assert refused.state == "refused" and "widerrufen" in refused.message
    assert not ReceivedEvent.objects.filter(origin=SECOND).exists()
    page = client.get(reverse("tournaments:event_detail", args=[w.server.pk]), **DE)
    assert "An einen Laptop zurückgeben" in page.content.decode()  # may be given back anew
    assert client.post(url, {"reason": "x", "confirm": "on"}, **DE).status_code == 400


def test_another_event_and_a_reused_token_are_refused(client, world):
    w = world
    secret = hand_back(client, w)
    # Another event of the club on the laptop, paired with the hand-back's token.
    other = laptop_event_like(w)
    laptop_services.pair(w.director, other, server_url=SERVER, token=secret)
    as_second(w)
    refused = sender.push(other)
    assert refused.state == "refused" and "gibt die Veranstaltung" in refused.message
    assert HandBack.objects.get().state == "pending"

    laptop2 = second_laptop(w, secret)
    assert sender.push(laptop2).state == "done"
    # The same token from a third installation: it writes only its own event.
    third = dict(w.bridge.sent[-1], origin="c" * 32, from_seq=1)
    status, answer = w.bridge.post(third, secret)
    assert status == 403 and answer["code"] == protocol.TOKEN
    # An unknown token.
    status, answer = w.bridge.post(third, "kein-token-dieses-servers")
    assert status == 401 and answer["code"] == protocol.TOKEN
    assert ReceivedEvent.objects.get(pk=w.received.pk).origin == SECOND


def laptop_event_like(w) -> Event:
    """A second event of the same club on the laptop (another creation time)."""
    return EventFactory(club=w.laptop.club, name="Kasseler Frühjahrsturnier")


def test_only_the_clubs_directors_may_give_back(client, world):
    w = world
    urls = [
        reverse("live:hand_back", args=[w.server.pk]),
        reverse("live:hand_back_cancel", args=[w.server.pk]),
    ]
    viewer = user_with_role(w.laptop.club, "viewer", username="zuschauer", password=None)
    scorer = user_with_role(w.laptop.club, "scorer", username="schreiber", password=None)
    stranger = user_with_role(ClubFactory(short_name="KBX"), ORGANISER, username="fremd")
    for user in (viewer, scorer, stranger):
        client.force_login(user)
        for url in urls:
            assert client.get(url).status_code == 403, (user, url)
            form = {"reason": "x", "confirm": "on"}
            assert client.post(url, form).status_code == 403, (user, url)
        page = client.get(reverse("tournaments:event_detail", args=[w.server.pk]), **DE)
        assert "An einen Laptop zurückgeben" not in page.content.decode()
    assert not HandBack.objects.exists()
    assert ReceivedEvent.objects.get(pk=w.received.pk).owner == "server"
    client.logout()
    for url in urls:
        assert client.post(url, {"reason": "x", "confirm": "on"}).status_code == 302
    # An event not received from a laptop: nothing to give back.
    client.force_login(w.director)
    plain = EventFactory(club=w.laptop.club)
    assert client.get(reverse("live:hand_back", args=[plain.pk])).status_code == 404
    # The event page offers it to the director; the take-over page says how.
    page = client.get(reverse("tournaments:event_detail", args=[w.server.pk]), **DE)
    assert reverse("live:hand_back", args=[w.server.pk]) in page.content.decode()
    assert SUFFIX in w.server.name


def test_an_event_the_laptop_runs_cannot_be_given_back(client, world):
    w = world
    secret = hand_back(client, w)
    second_laptop(w, secret)
    as_second(w)
    assert sender.push(Event.objects.get(name="Kasseler Herbstturnier 2")).state == "done"
    url = reverse("live:hand_back", args=[w.server.pk])
    page = client.get(url, **DE)
    assert page.status_code == 200 and "Zurückgegeben am" not in page.content.decode()
    assert client.post(url, {"reason": "x", "confirm": "on"}, **DE).status_code == 400
    assert HandBack.objects.count() == 1
