"""League play in Chromium (de-DE): the host's director opens a match day, the captain names
his team's line-up on the phone from the roster, the day is played (its sheets stand in for
the hall), the director reports the result, the officer approves it and the public table
shows the day; no page is wider than the screen. Screenshots go to test-artifacts/."""

import pytest

from leagues.demo.play import play_match_day
from leagues.matchdays import services as matchday_services
from tests.browser.test_german_director import SHOWN, SIZES, _login, _shot
from tests.leagues.conftest import day, league, name_all  # noqa: F401  (the fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_captain_and_director_run_a_match_day_in_german(live_server, browser, league, day):  # noqa: F811
    director, page = _login(browser, live_server, "desktop", "director0")
    page.goto(f"{live_server.url}/ligen/spieltage/{day.pk}/")
    page.click("button:has-text('Spieltag eröffnen')")
    page.wait_for_load_state()
    assert "Spieltag leiten" in page.locator("main").inner_text()

    captain, phone = _login(browser, live_server, "phone", "kapitaen")
    phone.goto(f"{live_server.url}/ligen/spieltage/{day.pk}/")
    team = league.teams[0]
    form = phone.locator(f"form:has(input[name=team][value='{team.pk}'])")
    for player in league.players[0][:4]:
        form.locator(f"input[type=checkbox][value='{player.pk}']").check()
    form.locator("button:has-text('Aufstellung speichern')").click()
    phone.wait_for_load_state()
    assert "gespeichert" in phone.locator(".messages").inner_text()
    _shot(phone, "league-lineup", "phone")
    captain.close()

    for i, other in enumerate(league.teams[1:], start=1):
        matchday_services.set_lineup(league.directors[i], day, other, league.players[i][:4])
    day.refresh_from_db()
    index = {t.pk: i for i, t in enumerate(league.teams)}
    team_of = dict(day.lineup.values_list("participant_id", "team_id"))
    play_match_day(day, lambda n, pid: 100 - 10 * index[team_of[pid]])

    page.reload()
    page.click("button:has-text('Ergebnis an die Liga melden')")
    page.wait_for_load_state()
    assert "eingereicht" in page.locator("main").inner_text()
    director.close()

    officer, desk = _login(browser, live_server, "desktop", "ligawart")
    desk.goto(f"{live_server.url}/ligen/spieltage/{day.pk}/")
    desk.select_option("select[name=decision]", "approve")
    desk.click("button:has-text('Entscheiden')")
    desk.wait_for_load_state()
    desk.goto(f"{live_server.url}/public/ligen/staffeln/{league.top.pk}/")
    table = desk.locator("table[data-league-table]")
    first = table.locator("tbody tr").first.inner_text()
    assert "Club 0 I" in first and "Tabellenpunkte" in table.inner_text()  # the day's winner
    _shot(desk, "league-table", "desktop")
    officer.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_league_tables_fit_a_phone_with_the_rest_on_a_tap(live_server, browser, league, day, size):  # noqa: F811
    """On a phone the league table, its players and a match day's result showed their first
    columns and pushed the points off to the right; now a row shows place, team and the
    points, and a tap opens the other columns under their headings."""
    name_all(league, day)
    play_match_day(day, lambda n, pid: pid * n % 97)
    result = matchday_services.submit_result(league.officer, day)
    matchday_services.decide_result(league.officer, result, approve=True)
    width, height = SIZES[size]
    context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
    page = context.new_page()
    phone = size == "phone"

    page.goto(f"{live_server.url}/public/ligen/staffeln/{league.top.pk}/")
    table = page.locator("table[data-league-table]")
    everything = ["Platz", "Mannschaft", "Verein", "Spieltage", "Tabellenpunkte",
                  "Mannschaftsergebnisse", "Bester Spieltag", "Warum davor"]  # fmt: skip
    assert table.evaluate(SHOWN) == (
        ["Platz", "Mannschaft", "Tabellenpunkte"] if phone else everything
    )
    assert table.evaluate("t => t.scrollWidth") <= width
    players = page.locator("table[data-league-players]")
    assert players.evaluate(SHOWN) == (
        ["Platz", "Name", "Schnitt je Serie"]
        if phone
        else ["Platz", "Name", "Mannschaft", "Serie", "Schnitt je Serie"]
    )
    if phone:
        table.locator("tbody tr").first.click()
        detail = table.locator("tr.row-detail").inner_text()
        assert "Verein" in detail and "Mannschaftsergebnisse" in detail, detail
        assert "Spieltage\n1\n" in detail  # one approved day, under its heading
    _shot(page, "league-division", size)

    page.goto(f"{live_server.url}/public/ligen/spieltage/{day.pk}/")
    day_table = page.locator("table[data-day-result]")
    assert day_table.evaluate(SHOWN) == (
        ["Platz", "Mannschaft", "Mannschaftsergebnis"]
        if phone
        else ["Platz", "Mannschaft", "Mannschaftsergebnis", "Gewonnene Serien", "Tabellenpunkte"]
    )
    assert day_table.evaluate("t => t.scrollWidth") <= width
    if phone:
        day_table.locator("tbody tr").first.click()
        assert "Tabellenpunkte" in day_table.locator("tr.row-detail").inner_text()
    _shot(page, "league-day", size)
    context.close()
