"""The archive upload as a submission (issue 27, point 4a): on the import page a club's
organiser or the ranking officer of its region chooses "as a submission to the federation"
(offered when they have an affiliated club or an officer role); the upload becomes a
`Submission` (source "upload") that goes through the worker, matching and review like one
sent with a club token, instead of a plain import. The plain import stays as it was."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from federation.models import EventVersion, PlayerMatch, Ranking, RankingStatus, Submission
from tests.factories import IMMEDIATE_TASKS, user_with_role
from tests.federation.submit_helpers import elsewhere, german, people
from tournaments.models import Event

pytestmark = pytest.mark.django_db

IMPORT = "/archive/import/"
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


@pytest.fixture(autouse=True)
def _tasks_at_once(settings):
    settings.TASKS = IMMEDIATE_TASKS


def upload(client, archive, **fields):
    content = json.dumps(archive).encode()
    data = {"file": SimpleUploadedFile("turnier.json", content), "rename": "", **fields}
    return client.post(IMPORT, data, **DE)


def test_organiser_of_an_affiliated_club_submits_an_upload(
    client, club_a, players, organiser_a, region_a, affiliation_a
):
    archive = elsewhere(club_a, players)
    client.force_login(organiser_a)
    page = client.get(IMPORT, **DE)
    assert page.status_code == 200 and 'name="handoff"' in page.content.decode()
    response = upload(client, archive, handoff="on")
    assert response.status_code == 302, response.content
    submission = Submission.objects.get()
    assert response["Location"] == f"/federation/submissions/{submission.pk}/"
    assert submission.source == "upload" and submission.received_by == organiser_a
    assert submission.token is None and submission.state == "imported"
    event = submission.event
    assert event.name == "Verbandsturnier" and event.club == club_a
    shown = client.get(response["Location"], **DE).content.decode()
    assert 'data-submit-state="imported"' in shown and event.name in shown

    # The same event uploaded again: the same event, a version for review.
    ranking = Ranking.objects.create(association=region_a, name="Rangliste")
    status = RankingStatus.objects.create(event=event, ranking=ranking, state="granted")
    archive["event"]["venue"] = "Bürgerhaus"
    assert upload(client, archive, handoff="on").status_code == 302
    assert Event.objects.filter(name="Verbandsturnier").count() == 1
    assert Event.objects.get(pk=event.pk).venue == "Bürgerhaus"
    version = EventVersion.objects.get(status=status)
    assert version.source == "upload" and version.state == "pending"
    states = Submission.objects.order_by("pk").values_list("state", flat=True)
    assert list(states) == ["replaced", "imported"]


def test_unknown_players_of_an_upload_wait_for_the_officer(
    client, club_a, players, organiser_a, officer_a, affiliation_a
):
    archive = elsewhere(club_a, players)
    archive["players"][2]["family_name"] = "Anders"
    client.force_login(organiser_a)
    assert upload(client, archive, handoff="on").status_code == 302
    submission = Submission.objects.get()
    assert submission.state == "matching"
    assert PlayerMatch.objects.get().problem == "different"
    client.force_login(officer_a)
    listed = client.get("/federation/matching/", **DE).content.decode()
    assert "Anders" in listed


def test_the_regional_officer_may_submit_but_not_import(
    client, club_a, players, officer_a, officer_b, affiliation_a, affiliation_b
):
    archive = elsewhere(club_a, players)
    client.force_login(officer_b)  # another region: refused, nothing stored
    response = upload(client, archive, handoff="on")
    assert response.status_code == 403
    assert Submission.objects.count() == 0
    client.force_login(officer_a)
    assert 'name="handoff"' in client.get(IMPORT, **DE).content.decode()
    plain = upload(client, archive)
    assert plain.status_code == 403
    assert german("You need the role “organiser” in a club to import events.") in (
        plain.content.decode()
    )
    assert upload(client, archive, handoff="on").status_code == 302
    assert Submission.objects.get().received_by == officer_a


def test_a_club_without_association_is_not_offered_and_refused(client, club_a, players):
    organiser = user_with_role(club_a, "organiser", username="org_allein")
    client.force_login(organiser)
    page = client.get(IMPORT, **DE)
    assert page.status_code == 200 and 'name="handoff"' not in page.content.decode()
    # Even if the field is sent: a plain import, as before.
    archive = elsewhere(club_a, players)
    response = upload(client, archive, handoff="on")
    assert response.status_code == 302 and "/archive/imports/" in response["Location"]
    assert Submission.objects.count() == 0
    assert Event.objects.filter(name="Verbandsturnier").exists()


def test_an_affiliated_clubs_upload_of_an_unaffiliated_club_is_refused(
    client, club_a, club_b, organiser_a, affiliation_a
):
    both = user_with_role(club_b, "organiser", username="org_beide")
    from clubs.models import ClubRole

    ClubRole.objects.create(user=both, club=club_a, role="organiser")
    archive = elsewhere(club_b, people(club_b, prefix="B"))
    client.force_login(both)
    response = upload(client, archive, handoff="on")
    assert response.status_code == 400
    said = german(
        "the club “%(club)s” belongs to no regional association: there is nobody to "
        "submit its event to (import it without this choice)"
    ) % {"club": club_b.name}
    assert said in response.content.decode()
    assert Submission.objects.count() == 0


def test_the_plain_import_is_unchanged(client, club_a, players, organiser_a, affiliation_a):
    client.force_login(organiser_a)
    response = upload(client, elsewhere(club_a, players))
    assert response.status_code == 302 and "/archive/imports/" in response["Location"]
    assert Submission.objects.count() == 0
    assert Event.objects.filter(name="Verbandsturnier").exists()
