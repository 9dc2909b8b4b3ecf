"""A refused sheet on a 390 px phone: the summary of what to fix is on screen and focused
when the page comes back, in hand order, each problem a link into its cell."""

import random
from pathlib import Path

import pytest

from rules import PRESETS, random_hand
from scoring.models import Sheet
from tests.factories import ClubFactory, user_with_role
from tests.sheets.conftest import make_series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_a_refused_sheet_shows_its_problems_first_on_a_phone(live_server, browser):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    user_with_role(club, "organiser", username="leitung")
    series, _tables = make_series(club, tables=1, rounds=5)  # table 1: Anna Müller, …
    rng = random.Random(7)
    hands = [random_hand(PRESETS["german-minus"], 4, rng, dealer=i % 4) for i in range(20)]
    cells = {}
    for n, hand in enumerate(hands, start=1):
        for s, seat in enumerate(hand.seats, start=1):
            cells[f"cell-{n}-{s}"] = str(seat.hand_points)
    losers = {n: next(s for s in range(4) if s != hands[n - 1].winner) for n in (3, 5, 9)}
    cells[f"cell-9-{losers[9] + 1}"] = "Jo Xx"  # no card: the engine reports it first
    cells[f"cell-3-{losers[3] + 1}"] = "1"  # below the minimum
    cells[f"cell-5-{losers[5] + 1}"] = "0"  # a second winner
    # The rules name the seat of the later zero.
    named = {n: losers[n] for n in (3, 9)} | {5: max(losers[5], hands[4].winner)}

    context = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/login/?next=/series/{series.pk}/tables/1/sheet/")
    page.fill("input[name=username]", "leitung")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url("**/tables/1/sheet/")
    for name, value in cells.items():
        page.fill(f"input[name='{name}']", value)
    with page.expect_navigation():
        page.click("#sheet-submit")

    summary = page.locator("#sheet-error-summary")
    summary.wait_for()
    assert not Sheet.objects.filter(table__series=series).exists()
    assert page.evaluate("document.activeElement.id") == "sheet-error-summary"
    box = summary.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    heading = page.locator("#sheet-error-heading").inner_text()
    assert heading == "3 Fehler: Es wurde nichts gespeichert."
    links = summary.locator("#sheet-problems a")
    assert [links.nth(i).get_attribute("href") for i in range(3)] == [
        f"#cell-{n}-{named[n] + 1}" for n in (3, 5, 9)
    ]
    assert links.nth(0).inner_text().startswith("Tisch 1, Spiel 3, Platz ")
    # The grid says the same: the cells are invalid, the two winners' row is marked.
    second_zero = page.locator(f"#cell-5-{named[5] + 1}")
    assert second_zero.get_attribute("aria-invalid") == "true"
    assert "has-problem" in page.locator("tr[data-hand='5']").get_attribute("class")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sheet-errors-phone.png"), full_page=False)

    # A link puts the cursor into its cell, on screen.
    links.nth(2).click()
    assert page.evaluate("document.activeElement.id") == f"cell-9-{losers[9] + 1}"
    cell = page.locator(f"#cell-9-{losers[9] + 1}").bounding_box()
    assert cell["y"] >= 0 and cell["y"] + cell["height"] <= 844
    # Fixing a cell: the live check counts again and drops the mark and the description.
    fixed = f"cell-3-{named[3] + 1}"
    page.fill(f"#{fixed}", str(hands[2].seats[named[3]].hand_points))
    page.locator("#sheet-error-heading").filter(has_text="2 Fehler").wait_for()
    assert page.locator(f"#{fixed}").get_attribute("aria-invalid") is None
    assert "has-problem" not in page.locator("tr[data-hand='3']").get_attribute("class")
    assert page.locator("#sheet-problems li").count() == 2
    context.close()
