"""The event archive in Chromium (de-DE), desktop and phone: a director downloads an event's
archive from the event page (an export job a real worker runs), imports it under a new
name on the import page (a task a real worker runs) and follows the link to the new event.
Screenshots of the import page go to test-artifacts/ at 1920x1080 and 390x844."""

import json

import pytest

from tests.browser.test_german_director import SIZES, _shot
from tests.exports.conftest import run_worker
from tests.factories import ClubFactory, user_with_role
from tests.standings.db.conftest import generated
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", SIZES)
def test_download_an_archive_and_import_it_under_a_new_name(
    live_server, browser, settings, tmp_path, size
):
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "live"]}
    }
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    user_with_role(club, "organiser", username="leitung")
    event = generated(club, 8, series=2, confirmed_series=2)
    Event.objects.filter(pk=event.pk).update(name="Kasseler Herbstturnier")
    width, height = SIZES[size]
    context = browser.new_context(
        locale="de-DE", viewport={"width": width, "height": height}, accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    page.goto(f"{base}/login/")
    page.fill("input[name=username]", "leitung")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_load_state()

    # Download: the event page queues the export, a worker writes it, the link appears.
    page.goto(f"{base}/events/{event.pk}/")
    page.click("button:has-text('Veranstaltungsarchiv (JSON) herunterladen')")
    box = page.locator(".archive-download .export-progress")
    box.locator(".export-progress-message").filter(
        has_text="Wartet auf einen freien Hintergrunddienst"
    ).wait_for()
    run_worker()
    link = box.locator("a.export-download")
    link.wait_for(state="visible")
    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename == "kasseler-herbstturnier-veranstaltungsarchiv.json"
    archive = tmp_path / download.suggested_filename
    download.save_as(archive)
    assert json.loads(archive.read_text(encoding="utf-8"))["event"]["name"] == (
        "Kasseler Herbstturnier"
    )

    # Import: from the events list to the import page; the upload waits for a worker.
    page.goto(f"{base}/events/")
    page.click("a:has-text('Veranstaltungsarchiv importieren')")
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Veranstaltungsarchiv importieren"
    _shot(page, "archive-import", size)
    page.set_input_files("input[name=file]", str(archive))
    page.fill("input[name=rename]", "Kasseler Herbstturnier (Verbandsserver)")
    page.click("main form.form button[type=submit]")
    page.wait_for_load_state()
    message = page.locator(".export-progress-message")
    message.filter(has_text="Wartet auf einen freien Hintergrunddienst").wait_for()
    _shot(page, "archive-import-waiting", size)
    run_worker()
    # exports.js sees "done" and reloads: the page shows the link and what was created.
    opened = page.locator(
        "a:has-text('Neue Veranstaltung „Kasseler Herbstturnier (Verbandsserver)“ öffnen')"
    )
    opened.wait_for()
    assert "Importiert als „Kasseler Herbstturnier (Verbandsserver)“." in message.inner_text()
    assert "Spiellisten" in page.locator("main").inner_text()
    _shot(page, "archive-import-done", size)
    opened.click()
    page.wait_for_load_state()
    new = Event.objects.get(name="Kasseler Herbstturnier (Verbandsserver)")
    assert page.url.rstrip("/").endswith(f"/events/{new.pk}")
    assert page.locator("h1").inner_text().startswith("Kasseler Herbstturnier (Verbandsserver)")
    context.close()
