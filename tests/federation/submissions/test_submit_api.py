"""POST /api/federation/v1/submissions: a club's event from another installation, sent with
a club token. Bad input gets a German JSON error and stores nothing; a re-send replaces the
same event (same pk, a new version for review); players are never merged silently. The
worker's task runs at once here (immediate backend): the answer is 202 with the state the
task left (tests/federation/submissions/test_submit_task.py: a task that has not run yet)."""

import copy
import json

import pytest
from django.core.cache import cache
from django.utils import timezone

from clubs.models import Player
from federation.models import EventVersion, PlayerMatch, Ranking, RankingStatus, Submission
from live.models import ReceivedEvent
from live.server.tokens import issue_token
from tests.factories import IMMEDIATE_TASKS
from tests.federation.submit_helpers import (
    ORIGIN,
    URL,
    archive_of,
    body,
    elsewhere,
    german,
    people,
    played,
    post,
)
from tests.security.bombs import deep_json, huge_number_json
from tournaments.models import Event, Participant, Series

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate():
    cache.clear()


@pytest.fixture(autouse=True)
def _tasks_at_once(settings):
    settings.TASKS = IMMEDIATE_TASKS


def _nothing_stored(events_before):
    assert Submission.objects.count() == 0
    assert PlayerMatch.objects.count() == 0
    assert Event.objects.count() == events_before


def test_first_arrival_is_imported_as_a_new_event(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    answer = response.json()
    assert answer["state"] == "imported" and answer["open"] == 0
    assert answer["status_url"].endswith(f"{URL}/{answer['submission']}")
    assert answer["message"] == german(
        "Taken in as “%(event)s”; the event has no granted ranking status here, so "
        "nothing was submitted for review."
    ) % {"event": "Verbandsturnier"}
    event = Event.objects.get(pk=answer["event"])
    assert event.club == club_a and event.name == "Verbandsturnier"
    assert Participant.objects.filter(event=event).count() == len(players)
    submission = Submission.objects.get()
    assert submission.data == {} and submission.source == "api" and submission.event == event
    assert submission.token.club == club_a


def _status(event, association):
    ranking = Ranking.objects.create(association=association, name="Rangliste")
    return RankingStatus.objects.create(event=event, ranking=ranking, state="granted")


def test_resend_replaces_the_same_event_as_a_new_version(
    client, club_a, players, token, region_a, affiliation_a
):
    archive = elsewhere(club_a, players)
    first = post(client, token, body(archive)).json()
    event_pk = first["event"]
    status = _status(Event.objects.get(pk=event_pk), region_a)
    # The sender corrected the event: series 2 dropped, the venue changed, one player
    # more registered (not seated).
    late = people(club_a, count=1, prefix="L")[0]
    again = copy.deepcopy(archive)
    again["event"]["venue"] = "Bürgerhaus"
    again["series"] = again["series"][:1]
    again["players"].append(
        {"player_number": late.player_number, "given_name": late.given_name,
         "family_name": late.family_name, "birth_year": late.birth_year}
    )  # fmt: skip
    extra = dict(again["participants"][0], ref=99, player_number=late.player_number)
    again["participants"].append(extra)
    kept = set(Participant.objects.filter(event_id=event_pk).values_list("pk", flat=True))
    second = post(client, token, body(again))
    assert second.status_code == 202, second.content
    assert second.json()["event"] == event_pk
    assert Event.objects.filter(name="Verbandsturnier").count() == 1
    event = Event.objects.get(pk=event_pk)
    assert event.venue == "Bürgerhaus"
    assert list(Series.objects.filter(event=event).values_list("number", flat=True)) == [1]
    now = set(Participant.objects.filter(event=event).values_list("pk", flat=True))
    assert kept < now and len(now) == len(players) + 1  # the others kept their rows
    version = EventVersion.objects.get(status=status)
    assert version.number == 1 and version.source == "api" and version.state == "pending"
    assert version.series_count == 1 and version.field_size == len(players)  # who played
    # Sent a third time: the waiting version is superseded, the review restarts on v2.
    third = post(client, token, body(again))
    assert third.json()["event"] == event_pk
    states = dict(EventVersion.objects.filter(status=status).values_list("number", "state"))
    assert states == {1: "superseded", 2: "pending"}
    rows = Submission.objects.order_by("received_at", "pk").values_list("state", flat=True)
    assert list(rows) == ["replaced", "replaced", "imported"]


def test_unknown_player_waits_for_matching_and_nothing_is_created(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    archive["players"][0]["player_number"] = "NEU-1"
    number = players[0].player_number
    for participant in archive["participants"]:
        if participant["player_number"] == number:
            participant["player_number"] = "NEU-1"
    events = Event.objects.count()
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    assert response.json()["state"] == "matching" and response.json()["open"] == 1
    row = PlayerMatch.objects.get()
    assert (row.player_number, row.problem, row.state) == ("NEU-1", "unknown", "open")
    assert not Player.objects.filter(player_number="NEU-1").exists()
    assert Event.objects.count() == events
    assert Submission.objects.get().data["players"][0]["player_number"] == "NEU-1"


def test_known_number_with_another_name_or_year_waits(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    archive["players"][1]["family_name"] = "Anders"
    archive["players"][2]["birth_year"] = 1950
    response = post(client, token, body(archive))
    assert response.status_code == 202
    problems = sorted(PlayerMatch.objects.values_list("player_number", "problem"))
    assert problems == [
        (players[1].player_number, "different"),
        (players[2].player_number, "different"),
    ]
    players[1].refresh_from_db()
    assert players[1].family_name == "Name1"  # never overwritten


def test_number_twice_in_the_archive_waits(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    twin = archive["players"][1]["player_number"]
    old = archive["players"][3]["player_number"]
    archive["players"][3]["player_number"] = twin
    for participant in archive["participants"]:
        if participant["player_number"] == old:
            participant["player_number"] = twin
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    rows = PlayerMatch.objects.filter(problem="duplicate")
    assert rows.count() == 2 and {r.player_number for r in rows} == {twin}


def test_unknown_or_revoked_token_is_401(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    events = Event.objects.count()
    response = post(client, "falsch", body(archive))
    assert response.status_code == 401
    assert response.json()["error"] == german("The club token is unknown to this server.")
    assert post(client, None, body(archive)).status_code == 401
    made, raw = issue_token(club_a)
    made.revoked_at = timezone.now()
    made.save()
    response = post(client, raw, body(archive))
    assert response.status_code == 401
    assert response.json()["error"].startswith(
        german("The club token was revoked on %(when)s; ask for a new one.")[:20]
    )
    _nothing_stored(events)


def test_archive_of_another_club_is_403(client, club_a, club_b, token):
    archive = elsewhere(club_b, people(club_b, prefix="B"))
    events = Event.objects.count()
    response = post(client, token, body(archive))
    assert response.status_code == 403
    assert "KBF" in response.json()["error"]
    _nothing_stored(events)


def test_token_bound_to_a_live_event_submits_that_event_only(client, club_a, players):
    mine = played(club_a, players, name="Live-Turnier")
    ReceivedEvent.objects.create(event=mine, origin="c" * 32, origin_event=3)
    _made, raw = issue_token(club_a, event=mine)
    archive = elsewhere(club_a, players, name="Anderes Turnier", seed=2)
    response = post(client, raw, body(archive, event=99))
    assert response.status_code == 403
    # The live copy itself: named, not copied again.
    response = post(client, raw, {"origin": "c" * 32, "event": 3, "live": True})
    assert response.status_code == 200, response.content  # no archive: in the request
    submission = Submission.objects.get()
    assert submission.source == "live" and submission.event == mine and submission.data == {}
    assert Event.objects.filter(name="Live-Turnier").count() == 1


def test_live_without_a_live_copy_is_refused(client, token):
    response = post(client, token, {"origin": ORIGIN, "event": 5, "live": True})
    assert response.status_code == 400
    assert response.json()["error"] == german(
        "This server holds no live copy of that event; send it with its archive."
    )
    assert Submission.objects.count() == 0


HOSTILE = [
    (b"nicht json", "$"),
    (b"[1, 2]", "$"),
    (deep_json(5_000), ""),
    (huge_number_json(5_000), ""),
    (json.dumps({"origin": ORIGIN, "event": 1}), "$.archive"),
    (json.dumps({"origin": "../etc", "event": 1, "archive": {}}), "origin"),
    (json.dumps({"origin": ORIGIN, "event": True, "archive": {}}), "event"),
    (json.dumps({"origin": ORIGIN, "event": 10**30, "archive": {}}), ""),
    (json.dumps({"origin": ORIGIN, "event": 1, "archive": {}, "x": 1}), "$"),
    (json.dumps({"origin": ORIGIN, "event": 1, "archive": {"format": "zip"}}), "$.archive"),
    (json.dumps({"origin": ORIGIN, "event": 1, "live": "ja"}), "live"),
    ('{"origin": "' + ORIGIN + '", "event": 1, "archive": "\x00"}', ""),
]


@pytest.mark.parametrize(("content", "said"), HOSTILE)
def test_hostile_bodies_are_400_in_german_and_store_nothing(client, token, content, said):
    events = Event.objects.count()
    response = post(client, token, content)
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["code"] == "invalid" and answer["error"]
    assert said in answer["path"]
    _nothing_stored(events)


def test_bad_sheet_in_the_archive_is_refused_by_the_task_and_changes_nothing(
    client, club_a, players, token
):
    archive = elsewhere(club_a, players)
    table = archive["series"][0]["tables"][0]
    table["seats"] = table["seats"][:1]
    events = Event.objects.count()
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    answer = response.json()
    assert answer["state"] == "refused" and answer["event"] is None
    prefix = german("The archive cannot be taken in – at %(path)s: %(message)s").split("%")[0]
    assert answer["message"].startswith(prefix + "$.series[0]")
    submission = Submission.objects.get()
    assert submission.state == "refused" and submission.data == {}
    assert Event.objects.count() == events and PlayerMatch.objects.count() == 0


def test_declared_size_over_the_limit_is_413(client, token):
    response = post(client, token, b"{}", CONTENT_LENGTH=str(10**9))
    assert response.status_code == 413 and "MB" in response.json()["error"]


def test_get_is_405(client):
    assert client.get(URL).status_code == 405


def test_rate_limited_per_token(client, token, settings):
    settings.FEDERATION_SUBMISSIONS_PER_MINUTE = 2
    codes = [post(client, token, b"[]").status_code for _ in range(3)]
    assert codes == [400, 400, 429]


# ----- the pages: club tokens, "An den Verband senden" ---------------------------------------


def _tokens_url(club):
    return f"/federation/clubs/{club.pk}/tokens/"


def test_organiser_and_regional_officer_make_and_revoke_club_tokens(
    client, club_a, organiser_a, officer_a, officer_b, affiliation_a, affiliation_b
):
    from live.models import LiveToken
    from live.server.tokens import find_token

    client.force_login(organiser_a)
    page = client.post(_tokens_url(club_a), {"label": "Vereinsserver"})
    assert page.status_code == 200
    raw = page.context["shown"]
    made = find_token(raw)
    assert made.club == club_a and made.label == "Vereinsserver" and made.event is None
    assert client.get(_tokens_url(club_a)).context["shown"] is None  # shown once
    client.force_login(officer_b)  # another region
    assert client.get(_tokens_url(club_a)).status_code == 403
    assert client.post(f"/federation/tokens/{made.pk}/revoke/", {"reason": "x"}).status_code == 403
    client.force_login(officer_a)
    assert client.get(_tokens_url(club_a)).status_code == 200
    response = client.post(f"/federation/tokens/{made.pk}/revoke/", {"reason": "Laptop weg"})
    assert response.status_code == 302
    made = LiveToken.objects.get(pk=made.pk)
    assert made.revoked_at is not None and made.revoked_by == officer_a
    assert made.history.first().history_change_reason == "Laptop weg"
    assert post(client, raw, {"origin": ORIGIN, "event": 1, "live": True}).status_code == 401


def test_send_page_is_for_the_clubs_organisers(client, club_a, club_b, players, organiser_a):
    from tests.factories import user_with_role

    event = played(club_a, players)
    url = f"/events/{event.pk}/submit/"
    client.force_login(user_with_role(club_b, "organiser", username="org_b"))
    assert client.get(url).status_code == 403
    client.force_login(organiser_a)
    assert client.get(url).status_code == 200
    detail = client.get(f"/events/{event.pk}/").content.decode()
    assert url in detail
    answer = client.post(url, {"server_url": "http://verband.example.org", "token": "x"})
    assert answer.status_code == 400 and "https" in answer.content.decode()
    assert client.post(url, {"server_url": "", "token": ""}).status_code == 400


def test_an_archive_naming_a_club_unknown_here_is_refused(client, club_a, club_b, players, token):
    from tests.factories import MembershipFactory

    guest = people(club_b, count=1, prefix="G")[0]
    MembershipFactory(player=guest, club=club_a)
    event = played(club_a, [*players[:7], guest])
    Participant.objects.filter(event=event, player=guest).update(club=club_b)
    archive = archive_of(event)
    assert [c["short_name"] for c in archive["clubs"]] == ["KBF"]
    archive["clubs"][0]["short_name"] = "XYZ"
    for participant in archive["participants"]:
        if participant["club_short_name"] == "KBF":
            participant["club_short_name"] = "XYZ"
    event.name = "Nur hier"
    event.save()
    events = Event.objects.count()
    response = post(client, token, body(archive))
    assert response.status_code == 400, response.content
    assert response.json()["path"] == "$.archive.clubs[0].short_name"
    _nothing_stored(events)


def test_the_event_prepared_here_for_its_status_receives_the_content(
    client, club_a, players, token, region_a, affiliation_a
):
    import datetime as dt

    archive = elsewhere(club_a, players)
    prepared = Event.objects.create(
        club=club_a, name="Verbandsturnier", start_date=dt.date(2026, 3, 14)
    )
    status = _status(prepared, region_a)
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    assert response.json()["event"] == prepared.pk
    assert Participant.objects.filter(event=prepared).count() == len(players)
    version = EventVersion.objects.get(status=status)
    assert version.field_size == len(players) and version.state == "pending"


def test_an_event_played_here_is_never_overwritten_by_an_arrival(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    here = played(club_a, players, seed=5)  # same name and date, scored here
    before = archive_of(here)
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    assert response.json()["state"] == "refused"
    assert str(here.pk) in response.json()["message"]
    assert Submission.objects.get().state == "refused"
    after = archive_of(here)
    assert after["series"] == before["series"] and after["participants"] == before["participants"]
