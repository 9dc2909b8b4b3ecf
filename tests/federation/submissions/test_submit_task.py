"""A submission as a worker task (issue 27, point 4): the endpoint stores the arrival as
"received" and answers 202 at once; the task (`federation.submissions.jobs.read_submission`)
checks, matches and takes it in, or keeps a refusal with its German message and changes
nothing of the event. The status URL answers the state to a token of the same club only.

Without IMMEDIATE_TASKS the tests' task backend is the database's: the task waits (as
with no worker running) until the test runs it with `submit_jobs.process`."""

import copy
import json

import pytest
from django.core.cache import cache
from django_tasks_db.models import DBTaskResult

from federation.models import EventVersion, PlayerMatch, Ranking, RankingStatus, Submission
from federation.submissions import jobs as submit_jobs
from live.server.tokens import issue_token
from tests.factories import IMMEDIATE_TASKS
from tests.federation.submit_helpers import URL, archive_of, body, elsewhere, german, post
from tournaments.models import Event, Participant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate():
    cache.clear()


def status(client, token, pk):
    return client.get(f"{URL}/{pk}", HTTP_AUTHORIZATION=f"Bearer {token}")


def test_202_at_once_and_the_status_url_says_received_until_the_task_ran(
    client, club_a, players, token
):
    archive = elsewhere(club_a, players)
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    answer = response.json()
    assert answer["state"] == "received" and answer["event"] is None
    assert answer["message"] == german("Received; the federation's server is reading the archive.")
    pk = answer["submission"]
    assert answer["status_url"] == f"http://testserver{URL}/{pk}"
    queued = DBTaskResult.objects.get()
    assert queued.task_path == "federation.submissions.jobs.read_submission"
    assert queued.args_kwargs["kwargs"] == {"submission_id": pk}
    # Nothing of the event yet: the worker has not read it.
    assert not Event.objects.filter(name="Verbandsturnier").exists()
    waiting = status(client, token, pk)
    assert waiting.status_code == 200 and waiting.json()["state"] == "received"
    assert waiting["Cache-Control"].startswith("max-age=0")

    submit_jobs.process(pk)
    done = status(client, token, pk).json()
    assert done["state"] == "imported" and done["open"] == 0
    event = Event.objects.get(pk=done["event"])
    assert Participant.objects.filter(event=event).count() == len(players)
    assert Submission.objects.get().data == {}


def test_status_of_another_clubs_submission_is_404_in_german(
    client, club_a, club_b, players, token
):
    pk = post(client, token, body(elsewhere(club_a, players))).json()["submission"]
    other = issue_token(club_b)[1]
    response = status(client, other, pk)
    assert response.status_code == 404
    assert response.json()["error"] == german("This club has no submission number %(id)d here.") % {
        "id": pk
    }
    assert status(client, other, pk + 1000).status_code == 404
    assert status(client, "falsch", pk).status_code == 401
    assert client.post(f"{URL}/{pk}", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 405


def test_status_is_rate_limited_per_token(client, club_a, players, token, settings):
    settings.FEDERATION_STATUS_PER_MINUTE = 2
    pk = post(client, token, body(elsewhere(club_a, players))).json()["submission"]
    codes = [status(client, token, pk).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_resend_while_received_replaces_the_waiting_one(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    first = post(client, token, body(archive)).json()["submission"]
    again = copy.deepcopy(archive)
    again["event"]["venue"] = "Bürgerhaus"
    second = post(client, token, body(again)).json()["submission"]
    assert status(client, token, first).json()["state"] == "received"
    # The first one's task sees the later arrival and does not read it.
    submit_jobs.process(first)
    replaced = status(client, token, first).json()
    assert replaced["state"] == "replaced" and replaced["event"] is None
    assert replaced["message"] == german("Replaced by a newer arrival of the same event.")
    assert not Event.objects.filter(name="Verbandsturnier").exists()
    submit_jobs.process(second)
    assert Event.objects.get(name="Verbandsturnier").venue == "Bürgerhaus"
    states = Submission.objects.order_by("pk").values_list("state", flat=True)
    assert list(states) == ["replaced", "imported"]


def test_resend_while_matching_replaces_the_waiting_one(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    archive["players"][1]["given_name"] = "Jemand"  # known number, another name: waits
    first = post(client, token, body(archive)).json()["submission"]
    submit_jobs.process(first)
    assert Submission.objects.get(pk=first).state == "matching"
    second = post(client, token, body(archive_of_fixed(archive, players))).json()["submission"]
    submit_jobs.process(second)
    assert Submission.objects.get(pk=first).state == "replaced"
    assert Submission.objects.get(pk=second).state == "imported"
    assert Event.objects.filter(name="Verbandsturnier").count() == 1


def archive_of_fixed(archive, players):
    fixed = copy.deepcopy(archive)
    fixed["players"][1]["given_name"] = players[1].given_name
    return fixed


def _content(event):
    data = archive_of(event)
    data.pop("exported_at")
    return data


def test_refused_by_the_task_keeps_the_event_as_it_was(
    client, club_a, players, token, region_a, affiliation_a, settings
):
    settings.TASKS = IMMEDIATE_TASKS
    archive = elsewhere(club_a, players)
    first = post(client, token, body(archive)).json()
    event = Event.objects.get(pk=first["event"])
    ranking = Ranking.objects.create(association=region_a, name="Rangliste")
    RankingStatus.objects.create(event=event, ranking=ranking, state="granted")
    before = _content(event)
    bad = copy.deepcopy(archive)
    bad["event"]["venue"] = "Anderswo"
    bad["players"].append(dict(bad["players"][0]))  # one player twice, the same data
    response = post(client, token, body(bad))
    assert response.status_code == 202
    answer = response.json()
    assert answer["state"] == "refused" and answer["event"] is None
    number = archive["players"][0]["player_number"]
    assert answer["message"] == german(
        "The archive lists player %(number)s twice with the same data."
    ) % {"number": number}
    event.refresh_from_db()
    assert event.venue != "Anderswo" and _content(event) == before
    assert EventVersion.objects.count() == 0 and PlayerMatch.objects.count() == 0
    rows = Submission.objects.order_by("pk").values_list("state", flat=True)
    assert list(rows) == ["imported", "refused"]


def test_the_archive_limits_are_the_workers(client, club_a, players, token):
    archive = elsewhere(club_a, players)
    archive["players"][0]["family_name"] = "N" * 10_001  # longer than archive_string_chars
    response = post(client, token, body(archive))
    assert response.status_code == 202, response.content
    pk = response.json()["submission"]
    submit_jobs.process(pk)
    refused = Submission.objects.get(pk=pk)
    assert refused.state == "refused" and "10000" in refused.message.replace(".", "")
    assert not Event.objects.filter(name="Verbandsturnier").exists()


def test_a_fault_in_the_worker_is_kept_as_a_refusal(client, club_a, players, token, monkeypatch):
    pk = post(client, token, body(elsewhere(club_a, players))).json()["submission"]

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(submit_jobs.checks, "check_archive", broken)
    with pytest.raises(RuntimeError):
        submit_jobs.process(pk)
    refused = Submission.objects.get(pk=pk)
    assert refused.state == "refused" and "RuntimeError" in refused.message
    submit_jobs.process(pk)  # run again (a retry): nothing more happens
    assert Submission.objects.get(pk=pk).state == "refused"


def test_the_submission_page_shows_the_state_to_the_club_and_its_officer(
    client, club_a, players, token, organiser_a, officer_a, officer_b, affiliation_a
):
    pk = post(client, token, body(elsewhere(club_a, players))).json()["submission"]
    url = f"/federation/submissions/{pk}/"
    client.force_login(organiser_a)
    page = client.get(url)
    assert page.status_code == 200 and 'http-equiv="refresh"' in page.content.decode()
    assert 'data-submit-state="received"' in page.content.decode()
    client.force_login(officer_b)
    assert client.get(url).status_code == 404
    submit_jobs.process(pk)
    client.force_login(officer_a)
    page = client.get(url).content.decode()
    assert 'data-submit-state="imported"' in page and 'http-equiv="refresh"' not in page


def _nested(depth):
    document = 1
    for _level in range(depth):
        document = [document]
    return {"a": document}


@pytest.mark.parametrize(
    ("document", "name"),
    [
        (_nested(40), "archive_depth"),
        ({"a": list(range(100_001))}, "archive_array_items"),
        ({"a": "x" * 10_001}, "archive_string_chars"),
        ({"a\u0000": 1}, "control_chars"),
    ],
)
def test_the_workers_limits_are_the_archive_files(document, name):
    from common import limits

    with pytest.raises(limits.LimitExceeded) as refused:
        submit_jobs.check_limits(document)
    assert refused.value.name == name
    with pytest.raises(limits.LimitExceeded) as as_file:
        limits.load_json(json.dumps(document))
    assert as_file.value.name == name  # the same refusal as the file's reader
    submit_jobs.check_limits({"a": [[1]], "b": "x" * 10_000})  # within: no refusal


def test_an_event_taken_in_is_announced_once_committed(
    client, club_a, players, token, django_capture_on_commit_callbacks
):
    """`tournaments.results.event_arrived` tells who waits for events from elsewhere (a
    league's match day) that one was taken in: after the commit, with the event here."""
    from tournaments.results import event_arrived

    heard = []

    def listen(sender, *, event_id, **_kwargs):
        heard.append(event_id)

    event_arrived.connect(listen)
    try:
        pk = post(client, token, body(elsewhere(club_a, players))).json()["submission"]
        with django_capture_on_commit_callbacks(execute=True):
            submit_jobs.process(pk)
    finally:
        event_arrived.disconnect(listen)
    assert heard == [Submission.objects.get(pk=pk).event_id] and heard[0] is not None
