"""Laptop DB → server DB in one test database: the laptop's sender pushes through the
server's real endpoint (django.test.Client), the server's copy (ReceivedEvent.event) ends
up equal to the laptop's event; a second push sends nothing; a batch delivered twice
changes nothing."""

import json

import pytest
from django.core.cache import cache
from django.test import Client

from clubs.permissions import ORGANISER
from live.laptop import sender, transport
from live.models import LiveLink, ReceivedEvent
from live.server import tokens
from live.shared import protocol
from scoring.models import Sheet
from scoring.sheets.services import confirm_sheet
from tests.factories import user_with_role
from tests.live.server.test_apply import SUFFIX, assert_same, laptop_event, server_rows
from tournaments.models import Event

pytestmark = pytest.mark.django_db


class Bridge:
    """post_json over the Django test client to the server's endpoint. Laptop and server
    share the test database, so the server's copy gets a name apart (as tests/live/
    test_apply.py does): an event of the same name and day would be a duplicate."""

    def __init__(self):
        self.client = Client()
        self.sent = []

    def __call__(self, url, token, payload, timeout):
        assert url == "https://ergebnisse.example" + protocol.BATCHES_PATH
        body = json.loads(json.dumps(payload))
        for part in body["parts"]:
            if part["key"] == protocol.EVENT:
                part["data"]["name"] += SUFFIX
        self.sent.append(body)
        return self.post(body, token)

    def post(self, body, token):
        response = self.client.post(
            protocol.BATCHES_PATH,
            json.dumps(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        return response.status_code, response.json()


@pytest.fixture
def laptop():
    return laptop_event(players=12, series=3)


@pytest.fixture
def bridge(monkeypatch, laptop):
    cache.clear()  # the endpoint's rate limit per token
    _token, raw = tokens.issue_token(laptop.club, label="Saal")
    LiveLink.objects.create(event=laptop, server_url="https://ergebnisse.example", token=raw)
    fake = Bridge()
    monkeypatch.setattr(transport, "post_json", fake)
    return fake


def test_a_confirmation_on_the_laptop_reaches_the_server(laptop, bridge):
    first = sender.push(laptop)
    assert first.state == "done", first.message
    received = ReceivedEvent.objects.select_related("event").get(origin_event=laptop.pk)
    assert received.event_id != laptop.pk and received.last_seq == 1
    assert_same(laptop, received.event)

    # The director confirms the entered sheet on the laptop.
    sheet = Sheet.objects.get(table__series__event=laptop, status=Sheet.Status.ENTERED)
    director = user_with_role(laptop.club, ORGANISER, username="leiter", password=None)
    grid = sheet.versions.order_by("-number").first().grid
    confirm_sheet(director, sheet.table, grid, expected_version=sheet.version)
    link = LiveLink.objects.get(event=laptop)
    assert link.next_seq - 1 > link.acked_seq  # the outbox numbered the change

    second = sender.push(laptop)
    assert second.state == "done", second.message
    key = protocol.sheet_key(sheet.table.series.number, sheet.table.number)
    assert key in second.keys and "roster" not in second.keys
    server_event = Event.objects.get(pk=received.event_id)
    server_sheet = Sheet.objects.get(
        table__series__event=server_event, table__number=sheet.table.number,
        table__series__number=sheet.table.series.number,
    )  # fmt: skip
    assert server_sheet.status == Sheet.Status.CONFIRMED
    assert_same(laptop, server_event)
    received.refresh_from_db()
    assert received.last_seq == LiveLink.objects.get(event=laptop).acked_seq

    # Nothing more to send: no request at all.
    count = len(bridge.sent)
    assert sender.push(laptop).state == "nothing" and len(bridge.sent) == count

    # The last batch delivered twice (an answer lost on the way): nothing changes.
    before = server_rows(server_event)
    status, answer = bridge.post(bridge.sent[-1], LiveLink.objects.get(event=laptop).token)
    assert status == 200 and answer["last_seq"] == received.last_seq
    assert server_rows(server_event) == before
    assert_same(laptop, server_event)
