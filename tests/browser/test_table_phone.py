"""Players score at the table on their phones (issue 16), at 390×844 in German: two seats on
two phones enter and confirm a series, one hand is entered during a Wi-Fi drop and nothing
is duplicated; a locked link and another table's seat code are refused."""

from pathlib import Path

import pytest

from scoring.models import Hand, Sheet, TableHand
from scoring.sheets.table import links as table_links
from tests.factories import (
    ClubFactory,
    EventFactory,
    ParticipantFactory,
    SeriesFactory,
    seated_table,
    user_with_role,
)
from tests.sheets.conftest import random_grid

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NAMES = [
    ("Anna", "Müller"),
    ("Bernd", "Becker"),
    ("Clara", "Schulz"),
    ("Dieter-Alexander", "Schröder-Müllenhoff"),  # breaks at its hyphens, not in a word
]
# Every column of the sheet is at least as wide as the longest word of its header.
NO_WORD_BROKEN = """() => [...document.querySelectorAll('#phone-sheet thead th')].every(th => {
    const style = getComputedStyle(th);
    const room = th.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return th.textContent.split(/[\\s-]+/).every(word => {
        const probe = document.createElement('span');
        probe.style.cssText = 'position:absolute;white-space:nowrap;font:' + style.font;
        probe.textContent = word;
        document.body.appendChild(probe);
        const fits = probe.getBoundingClientRect().width <= room + 0.5;
        probe.remove();
        return fits;
    });
})"""


@pytest.fixture
def tables():
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    director = user_with_role(club, "organiser", username="leitung")
    event = EventFactory(club=club, rounds_per_series=1)
    series = SeriesFactory(event=event, number=1, status="in_play")
    people = [
        ParticipantFactory(event=event, player__given_name=g, player__family_name=f)
        for g, f in NAMES
    ]
    seated_table(series, people, 1)
    seated_table(series, [ParticipantFactory(event=event) for _ in range(4)], 2)
    links = {x.table.number: x for x in table_links.create_table_links(director, series)}
    return series, links


VIOLATIONS = []


def _phone(browser):
    context = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    # The scripts run under the enforced Content-Security-Policy: no violation, no error.
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('CSP violation ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    page.on("console", lambda m: VIOLATIONS.append(m.text) if "CSP" in m.text else None)
    page.on("pageerror", lambda e: VIOLATIONS.append(str(e)))
    return context, page


def _sit_down(page, url, code):
    page.goto(url)
    page.fill("#seat-code", code)
    page.click("#seat-form button[type=submit]")
    page.wait_for_selector("#my-seat")


def _enter(page, hand):
    form = page.locator("#hand-form")
    form.locator(f"input[name=winner][value='{hand['winner'] + 1}']").check()
    for k, seat in enumerate(hand["seats"], start=1):
        if k - 1 != hand["winner"]:
            form.locator(f"input[name=points-{k}]").fill(str(seat["hand_points"]))
    page.click("#save-hand")


def test_two_seats_enter_and_confirm_a_series_through_a_wifi_drop(live_server, browser, tables):
    _series, links = tables
    link = links[1]
    url = f"{live_server.url}/t/{link.token}/"
    grid = random_grid(hands=4, seed=31, no_winner_rate=0, hand_romme_rate=0)
    writer_context, writer = _phone(browser)
    _sit_down(writer, url, link.seat_codes[0].lower())
    assert "Sie sind Platz 1 (Anna Müller)" in writer.inner_text("#my-seat")
    assert writer.evaluate("document.documentElement.scrollWidth") <= 391
    assert writer.evaluate(NO_WORD_BROKEN)
    points = writer.locator("input[name=points-2]").first
    assert points.get_attribute("inputmode") == "numeric"
    assert points.bounding_box()["height"] >= 44
    ARTIFACTS.mkdir(exist_ok=True)
    writer.screenshot(path=str(ARTIFACTS / "table-phone-entry.png"), full_page=True)

    _enter(writer, grid["hands"][0])
    writer.wait_for_selector("tr[data-hand='1']")
    assert Hand.objects.filter(sheet__table=link.table).count() == 1

    # The hall Wi-Fi drops: the hand waits on the phone and is sent when it returns.
    writer_context.set_offline(True)
    _enter(writer, grid["hands"][1])
    status = writer.locator("#net-status")
    status.wait_for(state="visible")
    assert "wartet auf Netz" in status.inner_text()
    assert "Spiel 3" in writer.inner_text(".new-hand h2")  # ready for the next hand
    writer.screenshot(path=str(ARTIFACTS / "table-phone-offline.png"), full_page=False)
    assert Hand.objects.filter(sheet__table=link.table).count() == 1
    writer_context.set_offline(False)
    writer.wait_for_selector("tr[data-hand='2']", timeout=20_000)
    for hand in grid["hands"][2:]:
        _enter(writer, hand)
        writer.wait_for_selector(f"tr[data-hand='{grid['hands'].index(hand) + 1}']")
    assert Hand.objects.filter(sheet__table=link.table).count() == 4
    assert TableHand.objects.filter(table=link.table).count() == 4  # nothing duplicated
    assert Sheet.objects.get(table=link.table).status == Sheet.Status.ENTERED

    # Seat 3 confirms on its own phone; it may not use table 2's code.
    checker_context, checker = _phone(browser)
    checker.goto(url)
    checker.fill("#seat-code", links[2].seat_codes[0])
    checker.click("#seat-form button[type=submit]")
    assert "kein Platz-Code dieses Tisches" in checker.inner_text("#phone-errors")
    _sit_down(checker, url, link.seat_codes[2])
    assert checker.locator("button.confirm-hand").count() == 4
    checker.click("#confirm-mine button")
    checker.wait_for_selector("#sheet-confirmed")
    checker.screenshot(path=str(ARTIFACTS / "table-phone-confirmed.png"), full_page=True)
    sheet = Sheet.objects.get(table=link.table)
    assert sheet.status == Sheet.Status.CONFIRMED
    assert Hand.objects.filter(sheet=sheet).count() == 4
    writer_context.close()
    checker_context.close()
    assert not VIOLATIONS, VIOLATIONS


def test_a_disputed_hand_and_a_locked_link(live_server, browser, tables):
    series, links = tables
    link = links[1]
    url = f"{live_server.url}/t/{link.token}/"
    grid = random_grid(hands=4, seed=41, no_winner_rate=0, hand_romme_rate=0)
    writer_context, writer = _phone(browser)
    _sit_down(writer, url, link.seat_codes[0])
    _enter(writer, grid["hands"][0])
    writer.wait_for_selector("tr[data-hand='1']")

    other_context, other = _phone(browser)
    _sit_down(other, url, link.seat_codes[1])
    other.click("#decide-1 details.dispute summary")
    hand = grid["hands"][0]
    loser = next(k for k in range(1, 5) if k - 1 != hand["winner"])
    field = other.locator(f"#decide-1 input[name=points-{loser}]")
    field.fill(str(int(field.input_value() or 0) + 5))
    other.click("#decide-1 details.dispute button[type=submit]")
    other.wait_for_selector("#sheet-disputed")
    assert Sheet.objects.get(table=link.table).status == Sheet.Status.DISPUTED
    other.screenshot(path=str(ARTIFACTS / "table-phone-disputed.png"), full_page=True)

    table_links.revoke_table_link(series.event.club.roles.first().user, link)
    writer.goto(url)
    assert "gesperrt" in writer.inner_text("#link-closed")
    writer_context.close()
    other_context.close()


def test_the_director_prints_the_links_and_sees_the_progress(live_server, browser, tables):
    series, links = tables
    context = browser.new_context(locale="de-DE", viewport={"width": 1024, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/login/?next=/series/{series.pk}/table-links/")
    page.fill("input[name=username]", "leitung")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url("**/table-links/")
    # The live server is on localhost: no phone could follow a QR there, so the page says so
    # and prints none (the hall mode's QR codes: tests/exports/test_hall_links.py).
    assert "Handys erreichen sie nicht" in page.inner_text("#links-local")
    assert page.locator(".link-qr").count() == 0
    assert page.locator("#link-table-1 .link-qr-missing").count() == 1
    card = page.inner_text("#link-table-1")
    assert "Anna Müller" in card and links[1].seat_codes[0] in card
    assert "Tisch-Links" in page.inner_text("h1")
    page.screenshot(path=str(ARTIFACTS / "table-links-director.png"), full_page=True)
    page.click("#link-progress tr[data-table='1'] button")
    page.wait_for_load_state()
    assert "gesperrt" in page.inner_text(".messages")
    links[1].refresh_from_db()
    assert links[1].revoked_at is not None
    context.close()
