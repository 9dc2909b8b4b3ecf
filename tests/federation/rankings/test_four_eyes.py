"""Four eyes on the ranking status: whoever asked for a status does not grant or refuse it,
whoever submitted (or uploaded) a version does not approve or reject it. Another officer of
the ranking's association (or above) or a superuser decides; a superuser may decide his own,
so that an installation with one administrator never waits for nobody."""

import datetime as dt
import json

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from federation.models import AssociationRole, EventVersion, PlayerMatch, RankingStatus
from federation.rankings import status_services as ss
from federation.submissions import services as submissions
from tests.factories import IMMEDIATE_TASKS, user_with_role
from tests.federation.status_helpers import make_ranking, played_event
from tests.federation.submit_helpers import elsewhere
from tournaments.models import Event

pytestmark = pytest.mark.django_db

State = RankingStatus.State
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
OWN_REQUEST = "Sie haben diesen Ranglistenstatus selbst beantragt"
OWN_VERSION = "Sie haben diese Version selbst eingereicht"
WHO = "ein anderer Ranglistenwart des Verbands „Landesverband Hessen“ oder ein Administrator"


@pytest.fixture
def ranking_a(region_a, affiliation_a):
    return make_ranking(region_a, "Hessen-Rangliste")


@pytest.fixture
def both(club_a, region_a):
    """The demo's case: the club's organiser is also the region's ranking officer."""
    user = user_with_role(club_a, "organiser", username="org_und_wart")
    AssociationRole.objects.create(user=user, association=region_a, role="officer")
    return user


@pytest.fixture
def event_a(club_a):
    return played_event(club_a)


@pytest.fixture
def own_request(both, event_a, ranking_a):
    return ss.request_status(both, event_a, ranking_a, event_class="ranking")


@pytest.fixture
def own_version(both, own_request, officer_a):
    return ss.submit_event(both, ss.decide_status(officer_a, own_request, grant=True, reason=""))


def _german(call):
    with translation.override("de"), pytest.raises(PermissionDenied) as refused:
        call()
    return str(refused.value)


# The services


def test_the_requester_may_neither_grant_nor_refuse(both, own_request):
    for grant, reason in ((True, ""), (False, "zu klein")):
        with translation.override("de"), pytest.raises(PermissionDenied) as refused:
            ss.decide_status(both, own_request, grant=grant, reason=reason)
        assert str(refused.value).startswith(OWN_REQUEST) and WHO in str(refused.value)
    status = RankingStatus.objects.get(pk=own_request.pk)
    assert (status.state, status.decided_by, status.decided_at) == (State.REQUESTED, None, None)
    assert status.history.count() == 1  # the request only


def test_another_officer_decides_the_request(both, own_request, officer_a, national_officer):
    status = ss.decide_status(officer_a, own_request, grant=True, reason="passt")
    assert (status.state, status.requested_by, status.decided_by) == (
        State.GRANTED, both, officer_a
    )  # fmt: skip
    # an officer above the region decides as well
    status = ss.withdraw_status(both, status, reason="neu beantragen")
    status = ss.request_status(both, status.event, status.ranking, event_class="ranking")
    assert ss.decide_status(national_officer, status, grant=False, reason="nein").state == (
        State.REFUSED
    )


def test_a_superuser_decides_his_own_request(superuser, event_a, ranking_a):
    status = ss.request_status(superuser, event_a, ranking_a, event_class="ranking")
    status = ss.decide_status(superuser, status, grant=True, reason="")
    assert status.state == State.GRANTED
    assert status.requested_by == status.decided_by == superuser


def test_the_submitter_may_neither_approve_nor_reject(both, own_version):
    assert own_version.submitted_by == both
    text = _german(lambda: ss.approve_version(both, own_version, note="ok"))
    assert text.startswith(OWN_VERSION) and WHO in text
    assert _german(lambda: ss.reject_version(both, own_version, note="falsch")).startswith(
        OWN_VERSION
    )
    version = EventVersion.objects.get(pk=own_version.pk)
    assert (version.state, version.reviewed_by) == (EventVersion.State.PENDING, None)
    assert version.status.state == State.SUBMITTED


def test_another_officer_approves_the_version(both, own_version, officer_a):
    version = ss.approve_version(officer_a, own_version)
    assert version.state == EventVersion.State.APPROVED and version.reviewed_by == officer_a


def test_the_requester_approves_a_version_the_club_submitted(
    both, own_request, officer_a, organiser_a
):
    # the rule is per step: asking for the status does not bar reviewing another's version
    status = ss.decide_status(officer_a, own_request, grant=True, reason="")
    version = ss.approve_version(both, ss.submit_event(organiser_a, status))
    assert version.state == EventVersion.State.APPROVED


def test_a_superuser_approves_his_own_version(superuser, event_a, ranking_a):
    status = ss.request_status(superuser, event_a, ranking_a, event_class="ranking")
    status = ss.decide_status(superuser, status, grant=True, reason="")
    version = ss.approve_version(superuser, ss.submit_event(superuser, status))
    assert version.submitted_by == version.reviewed_by == superuser
    assert version.state == EventVersion.State.APPROVED


# Uploads: the uploader is the submitter, also when an officer's matching takes them in


def _upload_waiting_for_matching(client, club_a, players, ranking_a, uploader):
    archive = elsewhere(club_a, players)
    archive["players"][1]["given_name"] = "Jemand"  # known here under another name
    # the event prepared here for its status, which the upload fills
    prepared = Event.objects.create(club=club_a, name="Verbandsturnier",
                                    start_date=dt.date(2026, 3, 14))  # fmt: skip
    status = RankingStatus.objects.create(event=prepared, ranking=ranking_a, state="granted")
    client.force_login(uploader)
    upload = SimpleUploadedFile("turnier.json", json.dumps(archive).encode())
    answer = client.post("/archive/import/", {"file": upload, "rename": "", "handoff": "on"}, **DE)
    assert answer.status_code == 302, answer.content
    return status


def test_an_upload_is_the_uploaders_version_after_the_officers_matching(
    client, settings, club_a, players, ranking_a, both, officer_a
):
    settings.TASKS = IMMEDIATE_TASKS
    status = _upload_waiting_for_matching(client, club_a, players, ranking_a, both)
    row = PlayerMatch.objects.get()
    # the officer who matches does not become the sender: he may review it
    submissions.match_player(officer_a, row, players[1], reason_text="Rufname")
    version = EventVersion.objects.get(status=status)
    assert version.source == "upload" and version.submitted_by == both
    with pytest.raises(PermissionDenied):
        ss.approve_version(both, version)
    assert ss.approve_version(officer_a, version).state == EventVersion.State.APPROVED


def test_the_uploader_who_matches_himself_still_may_not_approve(
    client, settings, club_a, players, ranking_a, both
):
    settings.TASKS = IMMEDIATE_TASKS
    status = _upload_waiting_for_matching(client, club_a, players, ranking_a, both)
    submissions.match_player(both, PlayerMatch.objects.get(), players[1], reason_text="Rufname")
    version = EventVersion.objects.get(status=status)
    assert version.submitted_by == both
    with pytest.raises(PermissionDenied):
        ss.approve_version(both, version)


# The pages mirror it; a POST is refused by the service


def test_the_requester_sees_no_decision_form_and_his_post_is_refused(
    client, both, own_request, officer_a
):
    url = reverse("federation:status_detail", args=[own_request.pk])
    client.force_login(both)
    text = client.get(url, **DE).content.decode()
    assert "data-own-request" in text and 'name="decision"' not in text
    assert "Sie haben diesen Antrag selbst gestellt; entscheiden muss ein anderer" in text
    queue = client.get(reverse("federation:review_queue"), **DE).content.decode()
    assert "Ihr eigener Antrag" in queue
    answer = client.post(
        reverse("federation:status_decide", args=[own_request.pk]),
        {"decision": "grant", "reason": ""},
        **DE,
    )
    assert answer.status_code == 403 and OWN_REQUEST in answer.content.decode()
    assert RankingStatus.objects.get(pk=own_request.pk).state == State.REQUESTED
    client.force_login(officer_a)
    text = client.get(url, **DE).content.decode()
    assert 'name="decision"' in text and "data-own-request" not in text
    client.post(reverse("federation:status_decide", args=[own_request.pk]), {"decision": "grant"})
    assert RankingStatus.objects.get(pk=own_request.pk).state == State.GRANTED


def test_the_submitter_sees_no_review_form_and_his_post_is_refused(
    client, both, own_version, officer_a
):
    url = reverse("federation:version_detail", args=[own_version.pk])
    client.force_login(both)
    text = client.get(url, **DE).content.decode()
    approve = reverse("federation:version_approve", args=[own_version.pk])
    assert "data-own-submission" in text and approve not in text and 'name="note"' not in text
    assert "Sie haben diese Version selbst eingereicht; prüfen muss sie ein anderer" in text
    queue = client.get(reverse("federation:review_queue"), **DE).content.decode()
    assert "Ihre eigene Einreichung" in queue
    for action in ("version_approve", "version_reject"):
        answer = client.post(
            reverse(f"federation:{action}", args=[own_version.pk]), {"note": "x"}, **DE
        )
        assert answer.status_code == 403 and OWN_VERSION in answer.content.decode()
    assert EventVersion.objects.get(pk=own_version.pk).state == EventVersion.State.PENDING
    client.force_login(officer_a)
    assert b'name="note"' in client.get(url).content
    client.post(approve, {"note": ""})
    assert EventVersion.objects.get(pk=own_version.pk).state == EventVersion.State.APPROVED


def test_a_superuser_sees_the_forms_for_his_own(client, superuser, event_a, ranking_a):
    status = ss.request_status(superuser, event_a, ranking_a, event_class="ranking")
    client.force_login(superuser)
    text = client.get(reverse("federation:status_detail", args=[status.pk])).content.decode()
    assert 'name="decision"' in text and "data-own-request" not in text
