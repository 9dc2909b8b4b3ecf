"""The public standings on a 390x844 phone in German: rank, name and total in view, the rest
of a row opened by a tap, and "Meine Zeile finden" remembered on the device. Screenshots are
kept in test-artifacts/."""

from pathlib import Path

import pytest

from tests.factories import ClubFactory
from tests.standings.db.conftest import generated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _visible_rows(page):
    return page.evaluate(
        "[...document.querySelectorAll('table.standings > tbody > tr:not(.row-detail)')]"
        ".filter(r => !r.hidden).length"
    )


def test_the_public_standing_reads_well_on_a_phone(live_server, browser):
    event = generated(ClubFactory(short_name="HDK"), 24, series=3, rounds=1)
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/public/events/{event.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    table = page.locator("table.standings")
    assert table.evaluate("t => t.scrollWidth") <= 390, "the table itself does not scroll"
    shown = table.evaluate(
        "t => [...t.querySelectorAll('thead th')]"
        ".filter(th => getComputedStyle(th).display !== 'none')"
        ".map(th => th.textContent.replace(/[^A-Za-zäöüÄÖÜß ]/g, '').trim())"
    )
    assert shown == ["Platz", "Name", "Summe"]

    # A tap opens the row's other values under their German headings; a second tap closes.
    first = table.locator("tbody tr").first
    first.click()
    detail = table.locator("tr.row-detail")
    assert detail.count() == 1
    text = detail.inner_text()
    for label in ("Verein", "S1", "S3", "HDK"):
        assert label in text
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "public-phone-detail.png"))
    first.click()
    assert detail.count() == 0

    # Find my line: part of a name, any case and without umlauts; remembered after a reload.
    name = table.locator("tbody tr").nth(5).locator("td.name").inner_text().strip()
    family = name.split()[-1]
    typed = family.lower().replace("ü", "u").replace("ö", "o").replace("ä", "a")
    page.fill("[data-find-line]", typed)
    assert 1 <= _visible_rows(page) < 24
    assert "von 24 Zeilen angezeigt" in page.locator("[data-find-count]").inner_text()
    page.screenshot(path=str(ARTIFACTS / "public-phone-find.png"))
    page.reload()
    assert page.input_value("[data-find-line]") == typed
    assert 1 <= _visible_rows(page) < 24
    # ... or by the player number from the seating list: exactly that player's line.
    from tournaments.models import Participant

    player = Participant.objects.filter(event=event).select_related("player")[7].player
    page.fill("[data-find-line]", player.player_number.lower())
    assert _visible_rows(page) == 1
    assert (
        player.family_name
        in page.locator("table.standings > tbody > tr:not([hidden]) td.name").inner_text()
    )
    page.fill("[data-find-line]", "")
    assert _visible_rows(page) == 24
    context.close()


def test_the_desktop_shows_every_column(live_server, browser):
    event = generated(ClubFactory(short_name="HDK"), 12, series=2, rounds=1)
    context = browser.new_context(locale="de-DE", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/public/events/{event.pk}/")
    assert page.locator("table.standings th", has_text="Verein").is_visible()
    page.locator("table.standings tbody tr").first.click()
    assert page.locator("tr.row-detail").count() == 0
    context.close()
