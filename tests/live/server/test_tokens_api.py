"""The server's live tokens (made, shown once, hashed, revoked) and its endpoint: every check
before anything is stored, the sequence rules, and hostile bodies never answered with 500.

The apply (live.server.apply, another module) is replaced here by a small fake that creates the
event and records what it was given; tests/live/server/test_handover.py runs the real one."""

import hashlib
import io
import json

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from live.models import LiveToken, ReceivedEvent
from live.server import api, tokens
from live.shared import protocol
from tests.factories import EventFactory
from tournaments.models import Event
from tournaments.results import bump_results_version

pytestmark = pytest.mark.django_db

ORIGIN = "a" * 32
URL = protocol.BATCHES_PATH
STATUS = protocol.STATUS_PATH


class FakeApplyError(Exception):
    def __init__(self, message, path):
        super().__init__(message)
        self.message, self.path = message, path


class FakeApply:
    """create_event / apply_batch as live.server.apply offers them; writes like the real one
    (a results bump, which the owner's guard lets pass inside the endpoint's applying_live)."""

    ApplyError = FakeApplyError

    def __init__(self):
        self.applied = []

    def create_event(self, token, batch):
        data = next(p["data"] for p in batch["parts"] if p["key"] == protocol.EVENT)
        event = EventFactory(club=token.club, name=str(data.get("name", "Live-Turnier")))
        received = ReceivedEvent.objects.create(
            event=event, origin=batch["origin"], origin_event=batch["event"], token=token
        )
        self.apply_batch(received, batch)  # as the real one, the first batch's every part
        return received

    def apply_batch(self, received, batch):
        for part in batch["parts"]:
            if part["key"] == "section:bad":
                raise FakeApplyError("Der Abschnitt ist kaputt.", "$.parts[0].data")
            if part["key"] == "section:crash":
                part["data"]["missing"]  # a KeyError deep in the apply
        Event.objects.filter(pk=received.event_id).update(venue=f"to {batch['to_seq']}")
        bump_results_version(received.event_id)
        self.applied.append((batch["from_seq"], batch["to_seq"], batch["final"]))


@pytest.fixture
def fake(monkeypatch):
    module = FakeApply()
    monkeypatch.setattr(api, "apply_module", lambda: module)
    cache.clear()
    return module


@pytest.fixture
def secret(club_a, organiser_a):
    _token, raw = tokens.make_token(organiser_a, club_a, label="Saal 1")
    return raw


def batch(from_seq=1, to_seq=1, *, final=True, parts=None, event=7, origin=ORIGIN, **extra):
    if parts is None:
        parts = [
            {"key": "event", "data": {"name": "Kasseler Live-Cup"}},
            {"key": "roster", "data": {"clubs": [], "players": [], "participants": []}},
        ]
    body = {
        "protocol": protocol.PROTOCOL, "version": protocol.VERSION, "origin": origin,
        "event": event, "from_seq": from_seq, "to_seq": to_seq, "final": final,
        "parts": parts, "removed": [],
    }  # fmt: skip
    body.update(extra)
    return body


def post(client, body, raw=None, **headers):
    if raw is not None:
        headers.setdefault("HTTP_AUTHORIZATION", f"Bearer {raw}")
    content = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(URL, content, content_type="application/json", **headers)


# ----- tokens ------------------------------------------------------------------------------


def test_a_token_is_kept_as_its_hash_only(club_a, organiser_a):
    token, raw = tokens.make_token(organiser_a, club_a, label="Saal 1")
    assert len(raw) >= 40
    token.refresh_from_db()
    assert token.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert token.prefix == raw[:8] and raw not in repr(LiveToken.objects.values_list())
    assert tokens.find_token(raw) == token
    assert tokens.find_token(raw + "x") is None and tokens.find_token("") is None
    assert tokens.find_token("ü" * 10) is None and tokens.find_token("x" * 5000) is None
    assert token.history.count() == 1 and token.history.first().history_user == organiser_a


def test_a_secret_never_looks_like_a_command_line_option(monkeypatch):
    # One in 64 urlsafe secrets starts with "-": "--token -x…" made argparse fail in CI.
    drawn = iter(["-abc", "-def", "ghi"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: next(drawn))
    assert tokens.new_secret() == "ghi"


def test_only_organisers_make_and_revoke_tokens(club_a, club_b, organiser_a, scorer_a):
    from django.core.exceptions import PermissionDenied

    from tests.factories import user_with_role

    with pytest.raises(PermissionDenied):
        tokens.make_token(scorer_a, club_a)
    token, _raw = tokens.make_token(organiser_a, club_a)
    with pytest.raises(PermissionDenied):
        tokens.revoke_token(user_with_role(club_b, "organiser", username="org_b"), token)
    assert LiveToken.objects.get(pk=token.pk).revoked_at is None


def test_revoking_is_audited(club_a, organiser_a):
    token, _raw = tokens.make_token(organiser_a, club_a)
    tokens.revoke_token(organiser_a, token, "Laptop gestohlen")
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == organiser_a
    newest = token.history.first()
    assert newest.history_change_reason == "Laptop gestohlen"
    assert newest.history_user == organiser_a


def test_the_command_prints_the_token_and_nothing_else(club_a):
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "live_token", "--club", str(club_a.pk), "--label", "Skript", stdout=out, stderr=err
    )
    raw = out.getvalue().strip()
    assert "\n" not in raw and " " not in raw
    token = tokens.find_token(raw)
    assert token.club == club_a and token.label == "Skript" and token.event is None


def test_the_command_refuses_an_event_not_received(club_a):
    from django.core.management.base import CommandError

    event = EventFactory(club=club_a)
    with pytest.raises(CommandError, match=r"(not received|kam nicht von einem Laptop)"):
        call_command("live_token", "--club", str(club_a.pk), "--event", str(event.pk))
    with pytest.raises(CommandError, match="no club"):
        call_command("live_token", "--club", "999999")


def test_last_used_is_written_at_most_once_a_minute(client, fake, secret):
    assert post(client, batch(), secret).status_code == 200
    token = LiveToken.objects.get()
    first = token.last_used_at
    assert first is not None
    assert post(client, batch(), secret).status_code == 200  # a duplicate: nothing changes
    token.refresh_from_db()
    assert token.last_used_at == first


# ----- the organisers' page ------------------------------------------------------------------


def test_the_page_shows_a_new_token_once(client, club_a, organiser_a):
    client.force_login(organiser_a)
    url = reverse("live:club_tokens", args=[club_a.pk])
    page = client.get(url)
    assert page.status_code == 200 and "live-token-secret" not in page.content.decode()
    made = client.post(url, {"label": "Saal 2", "event": ""})
    assert made.status_code == 200
    token = LiveToken.objects.get()
    text = made.content.decode()
    raw = text.split('id="live-token-secret"')[1].split('value="')[1].split('"')[0]
    assert tokens.find_token(raw) == token
    again = client.get(url).content.decode()
    assert raw not in again and token.prefix in again and "Saal 2" in again
    revoked = client.post(reverse("live:token_revoke", args=[token.pk]))
    assert revoked.status_code == 302
    assert LiveToken.objects.get().revoked_at is not None


def test_the_page_is_refused_to_others(client, club_a, club_b, scorer_a, organiser_a):
    from tests.factories import user_with_role

    token, _raw = tokens.make_token(organiser_a, club_a)
    url = reverse("live:club_tokens", args=[club_a.pk])
    for user in (scorer_a, user_with_role(club_b, "organiser", username="org_b")):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url, {"label": "x"}).status_code == 403
        assert client.post(reverse("live:token_revoke", args=[token.pk])).status_code == 403
    assert LiveToken.objects.count() == 1 and LiveToken.objects.get().revoked_at is None


# ----- the endpoint: the first batch and the numbers -----------------------------------------


def test_the_first_batch_creates_the_event_and_binds_the_token(client, fake, secret, club_a):
    response = post(client, batch(1, 3), secret)
    assert response.status_code == 200, response.content
    assert response.json() == {"last_seq": 3}
    received = ReceivedEvent.objects.get()
    assert received.event.club == club_a and received.event.name == "Kasseler Live-Cup"
    assert received.last_seq == 3 and received.last_push_at is not None
    assert received.origin == ORIGIN and received.origin_event == 7
    assert LiveToken.objects.get().event == received.event
    assert fake.applied == [(1, 3, True)]


def test_the_numbers_duplicate_gap_and_partial_batches(client, fake, secret):
    assert post(client, batch(1, 3), secret).json() == {"last_seq": 3}
    # Sent twice: answered with the number held, nothing applied again.
    again = post(client, batch(1, 3), secret)
    assert again.status_code == 200 and again.json() == {"last_seq": 3}
    assert fake.applied == [(1, 3, True)]
    gap = post(client, batch(5, 6, parts=[]), secret)
    assert gap.status_code == 409
    assert gap.json()["code"] == "gap" and gap.json()["last_seq"] == 3
    assert "ab 4" in gap.json()["error"]
    # A large backlog split: the number moves with the final batch only.
    assert post(client, batch(4, 9, final=False, parts=[]), secret).json() == {"last_seq": 3}
    assert post(client, batch(4, 9, parts=[]), secret).json() == {"last_seq": 9}
    assert ReceivedEvent.objects.get().last_seq == 9
    assert fake.applied[1:] == [(4, 9, False), (4, 9, True)]


def test_a_first_batch_must_start_at_one_and_carry_event_and_roster(client, fake, secret):
    late = post(client, batch(4, 5), secret)
    assert late.status_code == 409 and late.json() == {
        "error": late.json()["error"], "code": "gap", "last_seq": 0
    }  # fmt: skip
    bare = post(client, batch(1, 2, parts=[{"key": "series:1", "data": {}}]), secret)
    assert bare.status_code == 400 and bare.json()["code"] == "invalid"
    assert "roster" in bare.json()["error"]
    assert not ReceivedEvent.objects.exists() and not fake.applied


def test_a_bad_part_is_refused_and_nothing_stays(client, fake, secret):
    assert post(client, batch(1, 1), secret).status_code == 200
    before = Event.objects.get().results_version
    bad = post(client, batch(2, 2, parts=[{"key": "section:bad", "data": {}}]), secret)
    assert bad.status_code == 400
    assert bad.json() == {
        "error": "Der Abschnitt ist kaputt.", "code": "invalid", "path": "$.parts[0].data"
    }  # fmt: skip
    crash = post(client, batch(2, 2, parts=[{"key": "section:crash", "data": {}}]), secret)
    assert crash.status_code == 400 and crash.json()["code"] == "invalid"
    received = ReceivedEvent.objects.get()
    assert received.last_seq == 1 and Event.objects.get().results_version == before


# ----- the endpoint: who may send what ------------------------------------------------------


def test_unknown_and_revoked_tokens_are_401(client, fake, club_a, organiser_a):
    token, raw = tokens.make_token(organiser_a, club_a)
    for headers in ({}, {"HTTP_AUTHORIZATION": "Bearer nope"}, {"HTTP_AUTHORIZATION": raw}):
        response = post(client, batch(), **headers)
        assert response.status_code == 401 and response.json()["code"] == "token"
        assert "kennt den Live-Token nicht" in response.json()["error"]
    tokens.revoke_token(organiser_a, token)
    revoked = post(client, batch(), raw)
    assert revoked.status_code == 401 and "widerrufen" in revoked.json()["error"]
    assert not ReceivedEvent.objects.exists()


def test_a_token_writes_only_its_own_event(client, fake, secret, club_a, club_b, organiser_a):
    assert post(client, batch(1, 1, event=7), secret).status_code == 200
    other = post(client, batch(1, 1, event=8), secret)
    assert other.status_code == 403 and other.json()["code"] == "token"
    assert "nur die Veranstaltung" in other.json()["error"]
    # Another club's token is refused the event outright.
    from tests.factories import user_with_role

    org_b = user_with_role(club_b, "organiser", username="org_b")
    _token, raw_b = tokens.make_token(org_b, club_b)
    foreign = post(client, batch(2, 2, event=7, parts=[]), raw_b)
    assert foreign.status_code == 403 and "anderen Verein" in foreign.json()["error"]
    assert ReceivedEvent.objects.count() == 1 and ReceivedEvent.objects.get().last_seq == 1


def test_a_new_token_for_a_received_event_carries_on(client, fake, secret, club_a, organiser_a):
    assert post(client, batch(1, 2), secret).status_code == 200
    received = ReceivedEvent.objects.get()
    old = LiveToken.objects.get()
    tokens.revoke_token(organiser_a, old)
    _new, raw = tokens.make_token(organiser_a, club_a, event=received.event)
    assert post(client, batch(3, 4, parts=[]), secret).status_code == 401
    assert post(client, batch(3, 4, parts=[]), raw).json() == {"last_seq": 4}


def test_the_rate_limit_per_token(client, fake, secret, settings):
    settings.LIVE_BATCHES_PER_MINUTE = 3
    for _ in range(3):
        assert post(client, batch(), secret).status_code == 200
    limited = post(client, batch(), secret)
    assert limited.status_code == 429
    assert 1 <= limited.json()["retry_after"] <= 61 and limited["Retry-After"]
    assert "höchstens 3" in limited.json()["error"]


def test_status(client, fake, secret):
    def status(**query):
        return client.get(STATUS, query, HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert status(origin=ORIGIN, event=7).json() == {"last_seq": 0, "owner": None}
    post(client, batch(1, 5), secret)
    assert status(origin=ORIGIN, event=7).json() == {"last_seq": 5, "owner": "laptop"}
    assert status(origin=ORIGIN, event=8).status_code == 403
    assert status(origin="../x", event=7).status_code == 400
    assert status(origin=ORIGIN, event="99999999999999999999999").status_code == 400
    assert client.get(STATUS, {"origin": ORIGIN, "event": 7}).status_code == 401
    assert client.post(STATUS).status_code == 405


# ----- the endpoint: hostile bodies -----------------------------------------------------------


HOSTILE = [
    b"not json",
    b"\xff\xfe\x00garbage",
    b"[1, 2, 3]",
    b'"text"',
    b"{}",
    b"[" * 5000 + b"]" * 5000,
    b'{"a": ' * 40 + b"1" + b"}" * 40,
    b'{"event": 1' + b"0" * 400 + b"}",
    b'{"event": NaN}',
    b'{"event": 1e999}',
    b'{"protocol": "romme-live", "version": "1"}',
    b'{"protocol": "romme-live", "version": 1, "origin": 7}',
]


def _hostile_batches():
    yield batch(event="7")
    yield batch(event=True)
    yield batch(event=2**70)
    yield batch(from_seq=0)
    yield batch(from_seq=5, to_seq=2)
    yield batch(final="yes")
    yield batch(parts={"key": "event"})
    yield batch(parts=[{"key": "event"}])
    yield batch(parts=[{"key": "sheet:1:x", "data": {}}])
    yield batch(parts=[{"key": ["event"], "data": {}}])
    yield batch(parts=[{"key": "section:a b", "data": {}}])
    yield batch(removed="sheet:1:1")
    yield batch(removed=[{"x": 1}])
    yield batch(origin="x" * 33)
    yield batch(origin="\u0000abc")
    yield batch(extra_field=1)
    yield batch(version=2)
    yield batch(protocol="romme-ledger-event")
    yield batch(parts=[{"key": "event", "data": {"name": "a\u0000b"}}])
    yield batch(parts=[{"key": "event", "data": {"name": "x" * 20_000}}])


def test_hostile_bodies_get_a_german_refusal_and_store_nothing(client, fake, secret):
    bodies = [*HOSTILE, *(json.dumps(b).encode() for b in _hostile_batches())]
    # Infinity inside a part: short enough for the digit limit (before: a 500 in the apply).
    seed = batch()
    seed["parts"][0]["data"]["lots_seed"] = 7654321
    seed = json.dumps(seed)
    bodies += [seed.replace("7654321", n).encode() for n in ("1e999", "-1e999")]
    for body in bodies:
        response = post(client, body, secret)
        assert response.status_code == 400, (body[:80], response.status_code, response.content)
        answer = response.json()
        assert answer["code"] in ("invalid", "protocol") and answer["error"], body[:80]
    assert not ReceivedEvent.objects.exists() and not fake.applied


def test_too_large_is_413_before_it_is_read(client, fake, secret, monkeypatch):
    monkeypatch.setattr(protocol, "MAX_BATCH_BYTES", 1000)
    body = json.dumps(batch(parts=[{"key": "event", "data": {"name": "x" * 2000}}]))
    response = post(client, body, secret)
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    assert not ReceivedEvent.objects.exists()


def test_only_post_and_no_session(client, fake, secret):
    got = client.get(URL, HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert got.status_code == 405 and got.json()["code"] == "protocol"
    response = post(client, batch(), secret)
    assert response.status_code == 200 and not response.cookies
    assert response["Content-Type"].startswith("application/json")


def test_csrf_is_not_asked(fake, secret):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert post(strict, batch(), secret).status_code == 200


def test_the_fake_is_shaped_like_the_real_apply():
    real = pytest.importorskip("live.server.apply")
    for name in ("create_event", "apply_batch", "ApplyError"):
        assert hasattr(real, name), name
