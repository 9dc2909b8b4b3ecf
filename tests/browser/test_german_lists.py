"""More of the German director's items in Chromium (de-DE), desktop and phone: a database
check answered in German at the form, the player list in German order with its filter, a
draw offered only while it would be accepted, the seating print without the draw's
internals, and the favicon. Screenshots go to test-artifacts/ at 1920x1080 and 390x844."""

import pytest

from clubs.models import ClubRole, Player
from tests.browser.test_german_director import SIZES, _login, _shot
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.standings.db.conftest import generated
from tournaments.models import Series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", SIZES)
def test_implausible_birth_year_is_refused_in_german(live_server, browser, size):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=club, role="organiser")
    context, page = _login(browser, live_server, size, "leitung")
    page.goto(f"{live_server.url}/clubs/{club.pk}/players/new/")
    page.fill("input[name=given_name]", "Änne")
    page.fill("input[name=family_name]", "Groß")
    page.fill("input[name=player_number]", "HDK-1820")
    page.fill("input[name=birth_year]", "1820")
    page.click("main form.form button[type=submit]")
    page.wait_for_load_state()
    summary = page.locator(".error-summary")
    assert summary.is_visible()
    # The summary links to the field, and the message is a German sentence, not the
    # database constraint's name.
    assert summary.locator("a[href='#id_birth_year']").count() == 1
    body = page.locator("main").inner_text()
    assert "Geburtsjahr zwischen 1900 und" in body
    assert "player_birth_year_plausible" not in page.content()
    assert page.input_value("input[name=family_name]") == "Groß"
    assert not Player.objects.filter(player_number="HDK-1820").exists()
    _shot(page, "player-birth-year-refused", size)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_player_list_in_german_order_and_filter(live_server, browser, size):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="zuschauer"), club=club, role="viewer")
    for given, family, number in [
        ("Bernd", "Bauer", "P-3"),
        ("Ägidius", "Äbert", "P-1"),
        ("Carla", "Abt", "P-2"),
        ("Jens", "Groß", "P-44"),
        ("Gert", "Grosz", "P-5"),
    ]:
        player = PlayerFactory(given_name=given, family_name=family, player_number=number)
        MembershipFactory(club=club, player=player)
    # A club's full name is the longest option of the club filter: the filter still fits.
    ClubFactory(name="1. Rommé- und Kartenspielfreunde Kreuz Bube Fulda-Petersberg e. V.")
    context, page = _login(browser, live_server, size, "zuschauer")
    page.goto(f"{live_server.url}/players/")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    text = page.locator("main table").inner_text()
    # Ä sorts with A (Abert before Abt), ß as ss (Gross before Grosz), then B after A.
    order = [text.index(name) for name in ("Äbert", "Abt", "Bauer", "Groß", "Grosz")]
    assert order == sorted(order), text
    _shot(page, "player-list-order", size)
    # Part of a name, or part of a number, finds the player.
    page.fill("form.filter-bar input[name=name]", "gross")
    page.locator("form.filter-bar button[type=submit]").click()
    page.wait_for_load_state()
    rows = page.locator("main table tbody").inner_text()
    assert "Groß" in rows and "Bauer" not in rows
    page.goto(f"{live_server.url}/players/?name=44")
    rows = page.locator("main table tbody").inner_text()
    assert "Groß" in rows and "Grosz" not in rows
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_draw_offered_only_before_results_and_seating_print_is_clean(live_server, browser, size):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=club, role="organiser")
    event = generated(club, 8, series=2, rounds=1, confirmed_series=1)
    played, next_one = event.series.order_by("number")
    # Series 2 seated, not started, no sheet yet: the one state a draw is still accepted in.
    Series.objects.filter(pk=next_one.pk).update(status=Series.Status.SEATED)
    context, page = _login(browser, live_server, size, "leitung")
    # Series 1 has confirmed sheets: no draw button (draw_series would refuse it).
    page.goto(f"{live_server.url}/series/{played.pk}/board/")
    assert page.locator("#draw-seating").count() == 0
    _shot(page, "series-board-played", size)
    # Series 2 has no sheet yet: the director may still draw it.
    page.goto(f"{live_server.url}/series/{next_one.pk}/board/")
    assert page.locator("#draw-seating").count() == 1
    # The favicon is served.
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert page.request.get(f"{live_server.url}{icon}").status == 200
    # The director's seating page names the draw; the printed list does not.
    page.goto(f"{live_server.url}/series/{played.pk}/seating/")
    assert "Auslosung" in page.locator("main").inner_text()
    page.emulate_media(media="print")
    printed = page.locator("main").inner_text()
    assert str(played.draw_seed) not in printed or played.draw_seed is None
    assert "Auslosung" not in printed
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}/exports/series/{played.pk}/seating.html")
    sheet = page.locator("body").inner_text()
    assert "Tisch" in sheet and "Auslosung" not in sheet
    _shot(page, "seating-print", size)
    context.close()
