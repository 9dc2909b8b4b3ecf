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


def test_a_long_event_name_wraps_beside_the_clock_on_a_beamer_and_a_phone(live_server, browser):
    event = generated(ClubFactory(), 8, series=3, rounds=1)
    event.name = "Offene Hessische Rommé-Meisterschaft der Seniorinnen und Senioren 2026"
    event.save()
    url = f"{live_server.url}/public/events/{event.pk}/display/"
    for width, height in ((1920, 1080), (390, 844)):
        context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        clock = page.locator("[data-clock]").bounding_box()
        assert clock["x"] + clock["width"] <= width
        # A phone keeps rank, name and total (before, the total was cut off at the right).
        total = page.locator("[data-panel].active td.total").first.bounding_box()
        assert total["x"] + total["width"] <= width
        club = page.locator("[data-panel].active td.col-club").first
        assert club.is_visible() == (width > 700)
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


def test_the_display_and_the_public_page_follow_a_confirmation_without_a_reload(
    live_server, browser
):
    from scoring.sheets import services
    from tests.browser.test_sheet_trust import _login, _url
    from tests.sheets.conftest import make_series, random_grid, scorer

    series, tables = make_series(ClubFactory(name="Pik As Marburg", short_name="PAM"))
    series.published = True
    series.save()
    club = series.event.club
    grid = random_grid(seed=43)
    services.save_sheet(scorer(club, "anna"), tables[0], grid, expected_version=0, submit=True)
    scorer(club, "bernd")
    display_url = f"{live_server.url}/public/events/{series.event_id}/display/"
    public_url = f"{live_server.url}/public/events/{series.event_id}/"
    context, display = _display(browser, display_url, "live-before")
    public = context.new_page()
    public.goto(public_url)
    for page in (display, public):
        page.evaluate("window.notReloaded = true")
    assert "Anna Müller" not in display.locator("main").inner_text()

    # Another browser, another person: Bernd confirms the sheet on its page.
    ctx_b, b = _login(browser, live_server, "bernd", _url(tables[0]))
    try:
        b.click("#sheet-confirm")
        b.locator(".messages .message").first.wait_for()
    finally:
        ctx_b.close()

    # Within a poll or two the display and the page show the result, without a reload.
    display.locator("[data-panel] td", has_text="Anna Müller").first.wait_for(timeout=12_000)
    public.locator("[data-live] td", has_text="Anna Müller").first.wait_for(timeout=12_000)
    assert display.evaluate("window.notReloaded") is True
    assert public.evaluate("window.notReloaded") is True
    display.screenshot(path=str(ARTIFACTS / "hall-display-live-after.png"))
    context.close()
