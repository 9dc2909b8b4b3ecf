"""A page opened before a new login still saves (static/js/app.js sends the cookie's token
as it is now), and a phone whose browser dropped its CSRF cookie keeps its hand queued, says
so in German and sends it after a reload (static/js/table.js, romme.views.csrf_failure)."""

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.browser.test_german_director import _login
from tests.browser.test_table_phone import ARTIFACTS, _enter, _phone, _sit_down, tables  # noqa: F401
from tests.factories import ClubFactory, user_with_role
from tests.sheets.conftest import random_grid

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_form_opened_before_a_new_login_in_another_tab_still_saves(live_server, browser):
    club = ClubFactory(name="Herz Dame Kassel", town="Kassel")
    user_with_role(club, "organiser", username="leitung")
    context, page = _login(browser, live_server, "desktop", "leitung")
    page.goto(f"{live_server.url}/clubs/{club.pk}/edit/")
    page.fill("input[name=town]", "Kassel-Wilhelmshöhe")
    # Meanwhile the same browser logs in again in another tab: Django gives it a new token.
    other = context.new_page()
    other.goto(f"{live_server.url}/login/")
    other.fill("input[name=username]", "leitung")
    other.fill("input[name=password]", "pw-for-tests")
    other.locator("form:has(input[name=username]) button[type=submit]").click()
    other.wait_for_load_state()
    page.locator("form:has(input[name=town]) button[type=submit]").click()
    page.wait_for_load_state()
    assert "Die Seite war nicht mehr gültig" not in page.content(), page.content()[:3000]
    club.refresh_from_db()
    assert club.town == "Kassel-Wilhelmshöhe", page.inner_text("main")
    context.close()


def test_a_phone_without_its_cookie_keeps_the_hand_and_sends_it_after_a_reload(
    live_server,
    browser,
    tables,  # noqa: F811
):
    _series, links = tables
    link = links[1]
    context, phone = _phone(browser)
    _sit_down(phone, f"{live_server.url}/t/{link.token}/", link.seat_codes[0].lower())
    context.clear_cookies(name="csrftoken")
    hand = random_grid(hands=1, seed=5, no_winner_rate=0, hand_romme_rate=0)["hands"][0]
    _enter(phone, hand)
    status = phone.locator("#net-status")
    expect(status).to_contain_text("Diese Seite war nicht mehr gültig")
    assert "Die Hände bleiben auf diesem Gerät" in status.inner_text()
    assert not Hand.objects.filter(sheet__table=link.table).exists()
    queued = phone.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('romme-table-queue:'))"
        ".map(k => JSON.parse(localStorage.getItem(k)).length)"
    )
    assert queued == [1]
    phone.reload()  # the page brings a new cookie; the queue goes out with its token
    phone.wait_for_selector("tr[data-hand='1']")
    assert Hand.objects.filter(sheet__table=link.table).count() == 1
    context.close()


def test_a_hand_typed_as_the_link_is_locked_is_listed_for_the_paper(
    live_server,
    browser,
    tables,  # noqa: F811
):
    """Before, the phone dropped the hand from its queue and showed only "gesperrt"."""
    from scoring.sheets.table import links as table_links

    series, links = tables
    link = links[1]
    context, phone = _phone(browser)
    _sit_down(phone, f"{live_server.url}/t/{link.token}/", link.seat_codes[0].lower())
    hand = random_grid(hands=1, seed=9, no_winner_rate=0, hand_romme_rate=0)["hands"][0]
    table_links.revoke_table_link(series.event.club.roles.first().user, link)
    _enter(phone, hand)
    phone.wait_for_selector("#link-closed")
    assert "gesperrt" in phone.inner_text("#link-closed")
    unsent = phone.locator("#unsent-hands")
    expect(unsent).to_be_visible()
    text = unsent.inner_text()
    assert "Von diesem Handy nicht gesendet" in text
    assert f"Spiel 1 – Platz {hand['winner'] + 1} ging raus" in text
    loser = next(k for k in range(4) if k != hand["winner"])
    assert f"Platz {loser + 1}: {hand['seats'][loser]['hand_points']}" in text
    assert not Hand.objects.filter(sheet__table=link.table).exists()
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "table-phone-unsent.png"), full_page=True)
    context.close()


def test_two_phones_type_the_same_hand_number_the_second_keeps_its_hand_as_the_next(
    live_server,
    browser,
    tables,  # noqa: F811
):
    """Before, the second phone was refused again and again with a sheet that did not show
    the other's hand; only a reload, which lost what was typed, got it out."""
    _series, links = tables
    link = links[1]
    url = f"{live_server.url}/t/{link.token}/"
    grid = random_grid(hands=2, seed=17, no_winner_rate=0, hand_romme_rate=0)
    first_context, first = _phone(browser)
    second_context, second = _phone(browser)
    _sit_down(first, url, link.seat_codes[0].lower())
    _sit_down(second, url, link.seat_codes[1].lower())
    _enter(first, grid["hands"][0])
    first.wait_for_selector("tr[data-hand='1']")

    _enter(second, grid["hands"][1])  # its page still says "Spiel 1"
    second.wait_for_selector("tr[data-hand='1']")  # reloaded: the other's hand 1 is there
    expect(second.locator("#phone-errors")).to_contain_text("es steht jetzt oben im Bogen")
    assert second.locator("#hand-form").get_attribute("data-number") == "2"
    winner = grid["hands"][1]["winner"] + 1
    assert second.locator(f"#hand-form input[name=winner][value='{winner}']").is_checked()
    assert Hand.objects.filter(sheet__table=link.table).count() == 1

    second.click("#save-hand")
    second.wait_for_selector("tr[data-hand='2']")
    assert Hand.objects.filter(sheet__table=link.table).count() == 2
    first_context.close()
    second_context.close()


def test_a_hand_refused_after_a_wifi_drop_does_not_overwrite_the_hand_being_typed(
    live_server,
    browser,
    tables,  # noqa: F811
):
    """Before, the refused hand was written over the half-typed next one, which was lost."""
    _series, links = tables
    link = links[1]
    grid = random_grid(hands=3, seed=13, no_winner_rate=0, hand_romme_rate=0)
    context, phone = _phone(browser)
    _sit_down(phone, f"{live_server.url}/t/{link.token}/", link.seat_codes[0].lower())
    context.set_offline(True)
    _enter(phone, grid["hands"][0])
    bad = grid["hands"][1]
    loser = next(k for k in range(4) if k != bad["winner"])
    bad = dict(bad, seats=[dict(s) for s in bad["seats"]])
    bad["seats"][loser]["hand_points"] = 999  # more than a hand can hold
    _enter(phone, bad)
    # Hand 3 is being typed when the network comes back.
    third = grid["hands"][2]
    typed_loser = next(k for k in range(4) if k != third["winner"])
    field = phone.locator(f"#hand-form input[name=points-{typed_loser + 1}]")
    field.fill(str(third["seats"][typed_loser]["hand_points"]))
    context.set_offline(False)
    expect(phone.locator("#phone-errors")).to_contain_text("Spiel 2", timeout=20_000)
    assert field.input_value() == str(third["seats"][typed_loser]["hand_points"])
    assert Hand.objects.filter(sheet__table=link.table).count() == 1

    # Hand 3 saved, the refused hand 2 comes back into the form to be fixed.
    phone.locator(f"#hand-form input[name=winner][value='{third['winner'] + 1}']").check()
    for k, seat in enumerate(third["seats"], start=1):
        if k - 1 != third["winner"]:
            phone.locator(f"#hand-form input[name=points-{k}]").fill(str(seat["hand_points"]))
    phone.click("#save-hand")
    expect(phone.locator("#hand-form")).to_have_attribute("data-number", "2", timeout=20_000)
    restored = phone.locator(f"#hand-form input[name=points-{loser + 1}]")
    assert restored.input_value() == "999"
    restored.fill(str(grid["hands"][1]["seats"][loser]["hand_points"]))
    phone.click("#save-hand")
    phone.wait_for_selector("tr[data-hand='3']", timeout=20_000)
    assert Hand.objects.filter(sheet__table=link.table).count() == 3
    context.close()
