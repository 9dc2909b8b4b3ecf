"""The pages of background jobs in a browser: the progress box polls until a real worker
(database backend) has done the job; the rule-set page then reloads itself."""

import pytest

from tests.exports.conftest import run_worker
from tests.factories import (
    ClubFactory,
    EventFactory,
    ParticipantFactory,
    SeriesFactory,
    seated_table,
    user_with_role,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_rule_set_change_waits_for_the_worker_then_shows_its_result(live_server, page, settings):
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "live"]}
    }
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    user_with_role(club, "organiser", username="orga")
    event = EventFactory(club=club, rounds_per_series=5)
    series = SeriesFactory(event=event, number=1, status="in_play")
    people = [ParticipantFactory(event=event) for _ in range(4)]
    seated_table(series, people, 1)
    base = live_server.url
    page.goto(f"{base}/login/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_load_state()

    page.goto(f"{base}/events/{event.pk}/ruleset/")
    page.fill("textarea[name=reason], input[name=reason]", "Hausregel")
    page.click("form.form button[type=submit]")
    message = page.locator(".export-progress-message")
    message.filter(has_text="Wartet auf einen freien Hintergrunddienst").wait_for()
    run_worker()
    # exports.js sees "done" and reloads: the page now shows the result, no longer polling.
    # (A poll every 0.7 s, then a reload: on a CI host running two test workers and their
    # browsers this once took longer than the default 10 s.)
    page.locator(".export-progress:not([data-reload-when-done])").wait_for(timeout=30_000)
    assert "neu berechnet" in message.inner_text()
