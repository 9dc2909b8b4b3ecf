"""A German tournament director in Chromium (de-DE), on a desktop and on a phone: dates
in forms, a refused form, registering many players at once, the club page, a player's
results chart. Screenshots are kept in test-artifacts/ at 1920x1080 and 390x844."""

from pathlib import Path

import pytest

from clubs.models import ClubRole
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.standings.db.conftest import generated
from tournaments.models import Event, Participant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = {"desktop": (1920, 1080), "phone": (390, 844)}
# A table's column headings the screen shows (a phone hides the "detail" ones).
SHOWN = (
    "t => [...t.querySelectorAll('thead th')].filter(th => getComputedStyle(th).display !== 'none')"
    ".map(th => th.textContent.trim())"
)


def _login(browser, live_server, size, username):
    width, height = SIZES[size]
    context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return context, page


def _shot(page, name, size):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0] + 1, f"{name} is {width}px wide on the {size}"


@pytest.mark.parametrize("size", SIZES)
def test_event_form_dates_and_error_summary(live_server, browser, size):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=club, role="organiser")
    context, page = _login(browser, live_server, size, "leitung")
    page.goto(f"{live_server.url}/events/new/")
    page.fill("input[name=name]", "Adventsturnier")
    # A German browser shows the date picker in German; the value is ISO underneath.
    page.fill("input[name=start_date]", "2026-12-05")
    page.fill("input[name=rounds_per_series]", "0")
    page.click("main form.form button[type=submit]")
    page.wait_for_load_state()
    summary = page.locator(".error-summary")
    assert summary.is_visible()
    assert "nicht gespeichert" in summary.inner_text()
    # The field is named in German, never a database constraint.
    assert "event_at_least_one_round" not in summary.inner_text()
    assert "größer oder gleich 1" in summary.inner_text()
    # The typed values are kept, the date too.
    assert page.input_value("input[name=name]") == "Adventsturnier"
    assert page.input_value("input[name=start_date]") == "2026-12-05"
    _shot(page, "event-form-refused", size)
    page.fill("input[name=rounds_per_series]", "5")
    page.click("main form.form button[type=submit]")
    page.wait_for_load_state()
    event = Event.objects.get(name="Adventsturnier")
    assert str(event.start_date) == "2026-12-05"
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_register_many_players_at_once(live_server, browser, size):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    other = ClubFactory(name="Kreuz Bube Fulda", short_name="KBF")
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=club, role="organiser")
    event = generated(club, 4, series=1)
    for i in range(3):
        MembershipFactory(club=other, player=PlayerFactory(family_name=f"Fuldaer{i}"))
    listed = PlayerFactory(given_name="Änne", family_name="Groß", player_number="X-77")
    context, page = _login(browser, live_server, size, "leitung")
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.click("summary:has-text('Viele auf einmal anmelden')")
    page.fill("textarea[name=text]", "X-77\nNiemand Bekannt")
    page.click("details.bulk-add button[type=submit]")
    page.wait_for_load_state()
    assert Participant.objects.filter(event=event, player=listed).exists()
    assert "Zeile 2" in page.locator(".messages, body").first.inner_text()
    page.click("summary:has-text('Viele auf einmal anmelden')")
    page.select_option("select[name=club]", label="Kreuz Bube Fulda")
    page.click("details.bulk-add button[type=submit]")
    page.wait_for_load_state()
    assert Participant.objects.filter(event=event, club=other).count() == 3
    assert "3 Spieler angemeldet" in page.content()
    _shot(page, "event-registered-many", size)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_club_page_and_player_results_chart(live_server, browser, size):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="zuschauer"), club=club, role="viewer")
    event = generated(club, 8, series=3, rounds=1)
    player = event.participants.first().player
    context, page = _login(browser, live_server, size, "zuschauer")
    page.goto(f"{live_server.url}/clubs/{club.pk}/")
    assert "Mitglieder" in page.locator("h2").first.inner_text()
    _shot(page, "club-page", size)
    page.goto(f"{live_server.url}/players/{player.pk}/")
    page.click("text=Ergebnisse aller Turniere")
    page.wait_for_load_state()
    # The chart is drawn: its points parse as numbers in a German browser.
    box = page.locator("svg polyline").bounding_box()
    assert box and box["width"] > 100
    assert page.locator("svg circle.dot").count() == 3
    # Each series' points within the screen; on a phone date and ranks open on a tap.
    table = page.locator("table[data-player-results]")
    shown = table.evaluate(SHOWN)
    if size == "phone":
        assert shown == ["Veranstaltung", "Serie", "Punkte"]
        table.locator("tbody tr").first.locator("button.row-toggle").click()
        assert "Platz nach der Serie" in table.locator("tr.row-detail").inner_text()
    else:
        assert len(shown) == 7
    assert table.evaluate("t => t.getBoundingClientRect().right") <= SIZES[size][0]
    _shot(page, "player-results", size)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_series_board_link_to_each_sheet_is_on_screen(live_server, browser, size):
    """On a phone the board shows table, players, sheet and its link; who entered and who
    confirmed are for the desktop (the link used to lie off-screen in a sideways scroll)."""
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=club, role="organiser")
    event = generated(club, 16, series=1, rounds=1)
    series = event.series.get(number=1)
    context, page = _login(browser, live_server, size, "leitung")
    page.goto(f"{live_server.url}/series/{series.pk}/board/")
    links = page.locator("#series-board tbody a", has_text="Liste öffnen")
    assert links.count() == 4
    for n in range(4):
        box = links.nth(n).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size][0]
    entered = page.locator("#series-board th", has_text="Erfasst von")
    assert entered.is_visible() == (size == "desktop")
    _shot(page, "series-board", size)
    context.close()


def test_score_sheets_preview_on_a_phone_breaks_names_between_words(live_server, browser):
    """The grid's columns are set for A4; on a 390 px screen the players' names broke
    letter by letter in their headers. Now they break between words, the grid scrolls."""
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=club, role="organiser")
    event = generated(club, 8, series=1, rounds=1)
    series = event.series.get(number=1)
    context, page = _login(browser, live_server, "phone", "leitung")
    page.goto(f"{live_server.url}/exports/series/{series.pk}/score-sheets.html")
    headers = page.locator("table.score-grid th.player")
    assert headers.count() == 8
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    for n in range(4):
        box = headers.nth(n).bounding_box()
        assert box["width"] >= 4 * size, headers.nth(n).inner_text()
    # A region that scrolls sideways is reachable by keyboard (axe: scrollable-region-focusable).
    grid = page.locator("table.score-grid").first
    assert grid.get_attribute("tabindex") == "0"
    assert grid.get_attribute("aria-label") == "Spielliste – Tisch 1"
    _shot(page, "score-sheets-preview", "phone")
    context.close()
