"""The score sheet on a 390 px phone: one card per hand, a labelled field per seat, large
targets, the page never wider than the screen; typing works as on the desktop."""

from pathlib import Path

import pytest

from scoring.models import Sheet
from tests.factories import (
    ClubFactory,
    EventFactory,
    ParticipantFactory,
    SeriesFactory,
    seated_table,
    user_with_role,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_a_scorer_enters_hands_on_a_phone(live_server, browser):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    user_with_role(club, "scorer", username="schreiber")
    event = EventFactory(club=club, rounds_per_series=1)
    series = SeriesFactory(event=event, number=1, status="in_play")
    # A long double name: the first-dealer choice and the dealer line must wrap, not widen.
    names = [
        ("Dieter-Alexander", "Schröder-Müllenhoff"),
        ("Bernd", "Becker"),
        ("Clara", "Schulz"),
        ("Anna", "Müller"),
    ]
    people = [
        ParticipantFactory(event=event, player__given_name=g, player__family_name=f)
        for g, f in names
    ]
    seated_table(series, people, 1)
    context = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/login/?next=/series/{series.pk}/tables/1/sheet/")
    page.fill("input[name=username]", "schreiber")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url("**/tables/1/sheet/")

    assert page.evaluate("document.documentElement.scrollWidth") <= 391
    card = page.locator("tbody tr").first.bounding_box()
    dealer = page.locator("tbody tr td.dealer").first.bounding_box()
    assert dealer["x"] + dealer["width"] <= card["x"] + card["width"]
    first = page.locator("input[name='cell-1-1']")
    box = first.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 120
    # Each seat's field is labelled with the player's name on the card itself.
    label = page.evaluate(
        "getComputedStyle(document.querySelector('td.cell[data-seat=\"1\"]'), '::before').content"
    )
    assert "Bernd Becker" in label
    # The keyboard flow is the desktop's: Enter moves to the next seat of the hand.
    first.focus()
    for value in ["0", "25", "40", "12"]:
        page.keyboard.type(value)
        page.keyboard.press("Enter")
    assert page.input_value("input[name='cell-1-4']") == "12"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sheet-phone.png"), full_page=False)
    page.locator("button[name=action][value=draft], button[value=draft]").first.click()
    page.wait_for_load_state()
    assert Sheet.objects.filter(table__series=series).exists()
    context.close()
