"""manage.py submit_event against the federation's installation running as a real second
process (gunicorn on 127.0.0.1 and its task worker `manage.py db_worker`, its own SQLite
file in a tmp folder): the server answers "received" at once, the command asks the status
URL until the worker has read the event; the first send waits for the ranking officer's
matching (exit 0, said so), the officer's decisions take it in, a corrected re-send
replaces the same event there (same id, a new version for review), a wrong token exits 1
with the server's German reason. The page "An den Verband senden" sends and shows the
state on its own page. The sending side is this test's installation (pytest's
database)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from bench.rigs.production import manage, production_env
from bench.rigs.serving import ROOT, collect_static, wait_until_up
from federation.submissions import client as submit_client
from tests.federation.submit_helpers import people, played
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

PORT = 8751
URL = f"http://127.0.0.1:{PORT}"

# Run on the federation's side: the club there, in a region, with a ranking.
PREPARE = """
import datetime as dt, json
from django.contrib.auth import get_user_model
from clubs.models import Club
from federation.models import Affiliation, Association
club = Club.objects.create(name="Herz Dame Kassel", short_name="HDK", town="Kassel")
national = Association.objects.create(name="DRV", short_name="DRV", kind="national")
region = Association.objects.create(name="LV Hessen", short_name="LV HE", kind="regional",
                                    parent=national)
Affiliation.objects.create(club=club, association=region, since=dt.date(2024, 1, 1))
get_user_model().objects.create_superuser("wart", password=None)
print(json.dumps({"club": club.pk, "region": region.pk}))
"""

# The officer (a superuser here) creates every open player, then reports.
DECIDE = """
import json
from django.contrib.auth import get_user_model
from federation.submissions import services as submissions
from federation.models import PlayerMatch
officer = get_user_model().objects.get(username="wart")
taken = None
for row in PlayerMatch.objects.filter(state="open"):
    taken = submissions.create_player(officer, row, player_number=row.player_number,
                                      reason_text="Neu im Verband") or taken
print(json.dumps({"state": taken.state if taken else None,
                  "event": taken.event_id if taken else None}))
"""

GRANT = """
import json
from federation.models import Ranking, RankingStatus
from tournaments.models import Event
event = Event.objects.get(pk={event})
ranking = Ranking.objects.create(association_id={region}, name="Landesrangliste")
RankingStatus.objects.create(event=event, ranking=ranking, state="granted")
print("ok")
"""

REPORT = """
import json
from federation.models import EventVersion, Submission
from tournaments.models import Event, Participant, Series
print(json.dumps({
    "events": list(Event.objects.values_list("pk", "name", "venue")),
    "participants": Participant.objects.count(),
    "series": list(Series.objects.values_list("event_id", "number")),
    "submissions": list(Submission.objects.order_by("pk").values_list("state", "source")),
    "versions": list(EventVersion.objects.order_by("number").values_list("number", "state")),
}))
"""


@pytest.fixture(scope="module")
def federation(tmp_path_factory):
    folder = tmp_path_factory.mktemp("verband")
    env = production_env(f"sqlite:///{folder / 'verband.sqlite3'}")
    env.pop("REDIS_URL", None)
    env.update(CONN_MAX_AGE="0", FEDERATION_SUBMISSIONS_PER_MINUTE="100")
    manage(env, "migrate", "--verbosity", "0")
    ids = json.loads(manage(env, "shell", "-c", PREPARE).splitlines()[-1])
    token = manage(env, "club_token", str(ids["club"]), "--label", "Vereinslaptop")
    collect_static(env)  # production settings: an HTML answer needs the manifest
    log = open(folder / "server.log", "wb")  # noqa: SIM115 - closed below
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "romme.wsgi", "--bind", f"127.0.0.1:{PORT}", "--workers", "1",
         "--timeout", "120", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=log,
    )  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2",
         "--queue-name", "default"],
        cwd=ROOT, env=env, stdout=log, stderr=log,
    )  # fmt: skip
    try:
        wait_until_up(process, PORT, seconds=60)
        yield env, ids, token.splitlines()[-1]
    finally:
        for running in (process, worker):
            running.terminate()
        for running in (process, worker):
            running.wait(timeout=30)
        log.close()
        text = (folder / "server.log").read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]


def _german(msgid: str) -> str:
    with translation.override("de"):
        return translation.gettext(msgid)


def _there(env, code: str) -> dict:
    return json.loads(manage(env, "shell", "-c", code).splitlines()[-1])


def _send(event, token, capsys) -> str:
    with translation.override("de"):
        call_command("submit_event", str(event.pk), "--to", URL, "--token", token)
    return capsys.readouterr().out


def test_submit_event_end_to_end(federation, club_a, capsys):
    env, ids, token = federation
    event = played(club_a, people(club_a), name="Kasseler Frühjahrsturnier")

    # First send: every player is new to the federation's register; they wait. The
    # command waited for the worker (the server's first answer is "received").
    out = _send(event, token, capsys)
    held = _german("The federation holds the event. %(message)s")  # fmt: skip
    assert out.startswith(held.split("%")[0]), out
    report = _there(env, REPORT)
    assert report["submissions"] == [["matching", "api"]] and report["events"] == []

    decided = _there(env, DECIDE)
    assert decided["state"] == "imported"
    there = decided["event"]
    manage(env, "shell", "-c", GRANT.format(event=there, region=ids["region"]))

    # Corrected here (the venue) and sent again: the same event there, a version to review.
    Event.objects.filter(pk=event.pk).update(venue="Bürgerhaus")
    out = _send(event, token, capsys)
    assert out.strip()
    report = _there(env, REPORT)
    assert [e[0] for e in report["events"]] == [there]
    assert report["events"][0][2] == "Bürgerhaus"
    assert report["submissions"] == [["replaced", "api"], ["imported", "api"]]
    assert report["versions"] == [[1, "pending"]]

    # Once more: the waiting version is superseded; still one event there.
    _send(event, token, capsys)
    report = _there(env, REPORT)
    assert [e[0] for e in report["events"]] == [there]
    assert report["versions"] == [[1, "superseded"], [2, "pending"]]


def test_wrong_token_exits_1_with_the_servers_reason(federation, club_a):
    event = played(club_a, people(club_a, prefix="W"), name="Anderes Turnier")
    with translation.override("de"), pytest.raises(CommandError) as refused:
        call_command("submit_event", str(event.pk), "--to", URL, "--token", "falsch")
    with translation.override("de"):
        expected = translation.gettext("The club token is unknown to this server.")
    assert str(refused.value) == expected


def test_plain_http_only_to_this_computer(club_a):
    event = played(club_a, people(club_a, prefix="H"), name="Drittes Turnier")
    sent = submit_client.submit(event, "http://verband.example.org", "x")
    assert not sent.ok and "https" in sent.message
    with pytest.raises(CommandError):
        call_command("submit_event", str(event.pk), "--to", "ftp://127.0.0.1", "--token", "x")


def test_an_unknown_event_exits_1(db):
    with pytest.raises(CommandError):
        call_command("submit_event", "999999", "--to", URL, "--token", "x")


def test_club_token_prints_a_working_token(club_a, capsys):
    call_command("club_token", str(club_a.pk), "--label", "Server")
    raw = capsys.readouterr().out.strip()
    from live.server.tokens import find_token

    token = find_token(raw)
    assert token is not None and token.club == club_a and token.event is None
    with pytest.raises(CommandError):
        call_command("club_token", "999999")


def test_an_event_sent_live_to_that_server_is_named_not_copied(club_a):
    from live.models import LiveLink

    event = played(club_a, people(club_a, prefix="V"), name="Live gespielt")
    LiveLink.objects.create(event=event, server_url=URL + "/", token="t", acked_seq=4)
    named = submit_client.payload(event, URL)
    assert named["live"] is True and "archive" not in named and named["event"] == event.pk
    other = submit_client.payload(event, "https://verband.example.org")
    assert "live" not in other and other["archive"]["event"]["name"] == "Live gespielt"


def test_the_send_page_shows_the_state_from_the_federation(federation, client, club_a):
    from tests.factories import user_with_role

    _env, _ids, token = federation
    organiser = user_with_role(club_a, "organiser", username="org_sendet")
    event = played(club_a, people(club_a, prefix="P"), name="Von der Seite gesendet")
    client.force_login(organiser)
    sent = client.post(f"/events/{event.pk}/submit/", {"server_url": URL, "token": token})
    assert sent.status_code == 302, sent.content
    status_url = f"/events/{event.pk}/submit/status/"
    assert sent["Location"] == status_url
    deadline = time.monotonic() + 60
    while True:  # the page reloads itself while the federation's worker reads the event
        text = client.get(status_url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        if 'data-submit-state="received"' not in text:
            break
        assert 'http-equiv="refresh"' in text
        assert time.monotonic() < deadline, text
        time.sleep(0.3)
    assert 'data-submit-state="matching"' in text, text  # its players are new there
    assert token not in text and 'http-equiv="refresh"' not in text
    # The outcome was shown: the token is no longer kept in the session.
    assert client.get(status_url).status_code == 302


HERE = "https://verband.example.org"


def _answers(monkeypatch, answers: list):
    asked = []

    def get_json(url, token, timeout):
        asked.append(url)
        answer = answers.pop(0) if len(answers) > 1 else answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(submit_client.transport, "get_json", get_json)
    monkeypatch.setattr(submit_client, "POLL_FIRST_S", 0.01)
    return asked


def test_following_gives_up_after_the_timeout(monkeypatch):
    asked = _answers(monkeypatch, [(200, {"state": "received", "submission": 5, "message": "…"})])
    sent = submit_client.follow(HERE, "t", 5, deadline=time.monotonic() + 0.3)
    assert not sent.ok and sent.state == "received" and "5" in sent.message
    assert asked and set(asked) == {f"{HERE}/api/federation/v1/submissions/5"}


def test_following_asks_again_after_a_network_fault_or_a_busy_server(monkeypatch):
    done = {"state": "imported", "message": "Übernommen", "submission": 5, "event": 9}
    _answers(monkeypatch, [OSError("reset"), (503, {}), (429, {}), (200, done)])
    sent = submit_client.follow(HERE, "t", 5, deadline=time.monotonic() + 10)
    assert sent.ok and not sent.pending and sent.event == 9 and sent.message == "Übernommen"


def test_a_refusal_while_following_ends_it(monkeypatch):
    _answers(monkeypatch, [(401, {"error": "Widerrufen", "code": "token"})])
    sent = submit_client.follow(HERE, "t", 5, deadline=time.monotonic() + 10)
    assert not sent.ok and sent.message == "Widerrufen" and sent.status == 401


def test_a_refused_submission_is_no_success(monkeypatch):
    answer = {"state": "refused", "message": "Abgelehnt", "submission": 5}
    _answers(monkeypatch, [(200, answer)])
    sent = submit_client.follow(HERE, "t", 5, deadline=time.monotonic() + 10)
    assert not sent.ok and sent.state == "refused" and sent.message == "Abgelehnt"
