"""A rule-set change is queued by the page and applied by a task worker."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scoring.models import HandSeat, RulesetChange
from scoring.sheets import ruleset_jobs, services
from tests.exports.conftest import run_worker
from tests.factories import ClubFactory, user_with_role
from tests.sheets.conftest import make_series, random_grid

FORM = {"slug": "german-minus", "hand_romme_multiplier": "2", "reason": "House rule"}


@pytest.fixture
def event_with_a_sheet(club_a, scorer_a):
    series, tables = make_series(club_a)
    grid = random_grid(seed=13, hand_romme_rate=0.3)
    services.save_sheet(scorer_a, tables[0], grid, expected_version=0, submit=True)
    return series.event


def _points(event):
    return sorted(
        HandSeat.objects.filter(hand__sheet__table__series__event=event).values_list(
            "hand_id", "position", "points"
        )
    )


@pytest.mark.django_db(transaction=True)
def test_the_page_queues_and_a_worker_applies(event_with_a_sheet, organiser_a, club_a):
    event = event_with_a_sheet
    before = _points(event)
    page_url = reverse("scoring:event_ruleset", args=[event.pk])
    first, second = Client(), Client()  # two app servers' sessions of the organiser
    first.force_login(organiser_a)
    second.force_login(organiser_a)
    response = first.post(page_url, FORM, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    change = RulesetChange.objects.get()
    status_url = reverse("scoring:ruleset_change_status", args=[event.pk, change.pk])
    status = second.get(status_url, HTTP_ACCEPT_LANGUAGE="de").json()
    assert status["state"] == "queued"
    assert status["message"] == "Wartet auf einen freien Hintergrunddienst …"
    page = second.get(page_url).content.decode()
    assert status_url in page and "data-reload-when-done" in page
    # A second change waits for the first.
    response = second.post(page_url, FORM, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and "still being applied" in response.content.decode()
    assert RulesetChange.objects.count() == 1
    event.refresh_from_db()
    assert event.ruleset_overrides == {} and _points(event) == before

    run_worker()
    assert DBTaskResult.objects.get().status == TaskResultStatus.SUCCESSFUL
    event.refresh_from_db()
    assert event.ruleset_overrides == {"hand_romme_multiplier": 2}
    assert _points(event) != before
    for client in (first, second):
        status = client.get(status_url, HTTP_ACCEPT_LANGUAGE="en").json()
        assert status["state"] == "done" and status["percent"] == 100
        assert "results on 1 sheets were recomputed" in status["message"]
    page = first.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "results on 1 sheets were recomputed" in page and "data-reload-when-done" not in page


@pytest.mark.django_db
def test_only_the_events_organisers_read_the_status(client, event_with_a_sheet, organiser_a):
    event = event_with_a_sheet
    change = ruleset_jobs.queue_ruleset_change(organiser_a, event, "german-minus", None, "x")
    url = reverse("scoring:ruleset_change_status", args=[event.pk, change.pk])
    other_club = user_with_role(ClubFactory(name="Pik As Kiel"), "organiser", username="org_k")
    scorer = user_with_role(event.club, "scorer", username="scorer_k")
    for user, expected in ((organiser_a, 200), (other_club, 403), (scorer, 403)):
        client.force_login(user)
        assert client.get(url).status_code == expected, user
    client.force_login(organiser_a)
    wrong = reverse("scoring:ruleset_change_status", args=[event.pk, "y" * 24])
    assert client.get(wrong).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302


@pytest.mark.django_db
def test_bad_rule_sets_are_refused_at_once(event_with_a_sheet, organiser_a):
    from django.core.exceptions import ValidationError

    event = event_with_a_sheet
    with pytest.raises(ValidationError):
        ruleset_jobs.queue_ruleset_change(organiser_a, event, "german-minus", {"jokers": -1}, "x")
    with pytest.raises(ValidationError):
        ruleset_jobs.queue_ruleset_change(organiser_a, event, "german-minus", None, " ")
    assert not RulesetChange.objects.exists()


@pytest.mark.django_db
def test_a_change_gone_quiet_reads_as_failed_in_german(event_with_a_sheet, organiser_a, client):
    event = event_with_a_sheet
    change = ruleset_jobs.queue_ruleset_change(organiser_a, event, "german-minus", None, "x")
    quiet = timezone.now() - ruleset_jobs.JOB_STALE_AFTER - dt.timedelta(seconds=1)
    RulesetChange.objects.filter(pk=change.pk).update(updated_at=quiet)
    client.force_login(organiser_a)
    url = reverse("scoring:ruleset_change_status", args=[event.pk, change.pk])
    status = client.get(url, HTTP_ACCEPT_LANGUAGE="de").json()
    assert status["state"] == "failed"
    assert status["message"] == (
        "Das Regelwerk wurde nicht geändert: Kein Hintergrunddienst hat geantwortet."
    )
    # A quiet change no longer blocks a new one.
    ruleset_jobs.queue_ruleset_change(organiser_a, event, "german-minus", None, "again")
    assert RulesetChange.objects.count() == 2
    # Changes older than an hour are removed when the next one is queued.
    RulesetChange.objects.update(updated_at=timezone.now() - dt.timedelta(hours=2))
    RulesetChange.objects.update(state="done")
    newest = ruleset_jobs.queue_ruleset_change(organiser_a, event, "german-minus", None, "3")
    assert list(RulesetChange.objects.values_list("pk", flat=True)) == [newest.pk]


@pytest.mark.django_db(transaction=True)
def test_a_role_lost_before_the_worker_came(event_with_a_sheet, organiser_a, settings):
    from clubs.models import ClubRole

    event = event_with_a_sheet
    change = ruleset_jobs.queue_ruleset_change(organiser_a, event, "german-minus", None, "x")
    ClubRole.objects.filter(user=organiser_a).delete()
    run_worker()
    change.refresh_from_db()
    assert change.state == "failed" and event.club.name in change.error  # the role message
    event.refresh_from_db()
    assert event.ruleset_overrides == {}
