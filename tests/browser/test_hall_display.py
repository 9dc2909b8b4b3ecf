"""The hall display on a 1920x1080 beamer: a 20-player field at once in large type, larger
fields paged through automatically. Screenshots are kept in test-artifacts/."""

from pathlib import Path

import pytest

from tests.factories import ClubFactory
from tests.standings.db.conftest import generated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _display(browser, url, name):
    context = browser.new_context(locale="de-DE", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(url)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"hall-display-{name}.png"))
    return context, page


def test_twenty_players_fit_on_one_screen_in_large_type(live_server, browser):
    event = generated(ClubFactory(), 20, series=3, rounds=1)
    context, page = _display(browser, f"{live_server.url}/public/events/{event.pk}/display/", "20")
    panel = page.locator("[data-panel].active")
    rows = panel.locator("tbody tr")
    assert rows.count() == 20
    last = rows.nth(19).bounding_box()
    assert last["y"] + last["height"] <= 1080, "the 20th row is below the screen"
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.display-table td')).fontSize)"
    )
    assert size >= 28
    assert "Platz" in page.locator("[data-panel].active thead").inner_text()
    context.close()


def test_a_larger_field_is_paged_through_automatically(live_server, browser):
    event = generated(ClubFactory(), 45, series=2, rounds=1)
    url = f"{live_server.url}/public/events/{event.pk}/display/"
    context, page = _display(browser, url, "45")
    first = page.locator("[data-panel].active h2").inner_text()
    assert "Seite 1 von 3" in first
    # The rotation moves on by itself (every 10 s at most).
    page.locator("[data-panel].active h2", has_text="Seite 2 von 3").wait_for(timeout=15_000)
    # After the regular reload the rotation resumes, it does not start over.
    page.reload()
    assert "Seite 2 von 3" in page.locator("[data-panel].active h2").inner_text()
    context.close()
