"""Four seats of a table on four phones (390×844, German) score a whole series (issue 16):
each seat enters or confirms hands (seat 4 names itself by player number and PIN), one hand
goes through a Wi-Fi drop, one answer is lost after the server stored the hand (the phone
resends it), one hand is disputed and settled by the director; then the link expires with
the series. The database is checked after each step: no hand lost, none stored twice."""

import pytest

from scoring.models import Hand, HandSeat, Sheet, TableHand
from scoring.sheets.table import entry as table_entry
from scoring.sheets.table import links as table_links
from scoring.sheets.table import pins as player_pins
from tests.browser.test_table_phone import ARTIFACTS, VIOLATIONS, _enter, _phone, _sit_down
from tests.browser.test_table_phone import tables as tables
from tests.sheets.conftest import random_grid
from tournaments.models import Series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _rows(table):
    """(hands stored, phone rows, distinct client ids) of a table."""
    rows = TableHand.objects.filter(table=table)
    return (
        Hand.objects.filter(sheet__table=table).count(),
        rows.count(),
        rows.values("client_id").distinct().count(),
    )


def _confirm(page, number):
    page.click(f"#decide-{number} button.confirm-hand")
    page.wait_for_selector(f"tr[data-hand='{number}'].hand-confirmed")


def test_four_seats_score_a_series_through_drops_a_dispute_and_the_end(
    live_server,
    browser,
    tables,
):
    series, links = tables
    link = links[1]
    table = link.table
    url = f"{live_server.url}/t/{link.token}/"
    grid = random_grid(hands=4, seed=57, no_winner_rate=0, hand_romme_rate=0)
    phones = [_phone(browser) for _ in range(4)]
    (_a_ctx, a), (b_ctx, b), (c_ctx, c), (_d_ctx, d) = phones

    # Seat 4 first types the code of table 2's first seat: refused, nothing remembered.
    d.goto(url)
    d.fill("#seat-code", links[2].seat_codes[0])
    d.click("#seat-form button[type=submit]")
    assert "kein Platz-Code dieses Tisches" in d.inner_text("#phone-errors")
    assert d.locator("#my-seat").count() == 0
    # Codes are read aloud: lower case and a space are fine.
    code_b = link.seat_codes[1]
    for page, code in ((a, link.seat_codes[0]), (b, f"{code_b[:2]} {code_b[2:]}".lower())):
        _sit_down(page, url, code)
    _sit_down(c, url, link.seat_codes[2])
    # Seat 4 uses its own phone with its player number and the PIN the director set.
    director = series.event.club.roles.first().user
    number = table.seats.get(position=3).participant.player.player_number
    player_pins.set_player_pin(director, series.event, number, "2580")
    d.click("#pin-login summary")
    d.fill("#player-number", number)
    d.fill("#player-pin", "2580")
    d.click("#pin-form button[type=submit]")
    d.wait_for_selector("#my-seat")
    assert "Sie sind Platz 4" in d.inner_text("#my-seat")

    # Seat 1 writes hand 1, seat 2 confirms it on its own phone.
    _enter(a, grid["hands"][0])
    a.wait_for_selector("tr[data-hand='1']")
    b.reload()
    _confirm(b, 1)
    assert _rows(table) == (1, 1, 1)

    # Seat 2 writes hands 2 and 3 while the hall Wi-Fi is down; both wait on the phone.
    b_ctx.set_offline(True)
    _enter(b, grid["hands"][1])
    b.wait_for_selector(".new-hand h2:has-text('Spiel 3')")
    _enter(b, grid["hands"][2])
    b.wait_for_selector("#net-status:has-text('wartet auf Netz (noch zu senden: 2)')")
    b.screenshot(path=str(ARTIFACTS / "table-four-offline.png"))
    assert _rows(table) == (1, 1, 1)
    b_ctx.set_offline(False)
    b.wait_for_selector("tr[data-hand='3']", timeout=20_000)
    assert _rows(table) == (3, 3, 3)

    # Seat 4 confirms hand 2 on its phone.
    d.reload()
    _confirm(d, 2)

    # Seat 3 writes hand 4; the server stores it but its answer is lost on the way back.
    # The phone keeps the hand queued and sends it again: stored once.
    lost = []

    def lose_first_answer(route):
        if lost:
            route.continue_()
            return
        lost.append(route.fetch().status)  # the request reaches the server...
        route.abort("connectionreset")  # ...the answer does not reach the phone

    c_ctx.route("**/hand/", lose_first_answer)
    c.reload()
    _enter(c, grid["hands"][3])
    c.wait_for_selector("tr[data-hand='4']", timeout=20_000)
    assert lost == [200]
    assert _rows(table) == (4, 4, 4)
    assert Sheet.objects.get(table=table).status == Sheet.Status.ENTERED

    # Seat 4 sees hand 4 differently: disputed, both versions kept for the director.
    d.reload()
    d.click("#decide-4 details.dispute summary")
    hand = grid["hands"][3]
    loser = next(k for k in range(1, 5) if k - 1 != hand["winner"])
    field = d.locator(f"#decide-4 input[name=points-{loser}]")
    theirs = int(field.input_value() or 0) + 5
    field.fill(str(theirs))
    d.click("#decide-4 details.dispute button[type=submit]")
    d.wait_for_selector("#sheet-disputed")
    a.reload()
    assert a.locator("#sheet-disputed").count() == 1
    assert a.locator("#hand-form").count() == 0  # nothing is entered over a dispute
    a.screenshot(path=str(ARTIFACTS / "table-four-disputed.png"), full_page=True)
    table_entry.settle_hand(director, table, 4, "blind")

    # Seat 1 confirms every hand it did not write: the sheet is confirmed.
    a.reload()
    a.click("#confirm-mine button")
    a.wait_for_selector("#sheet-confirmed")
    a.screenshot(path=str(ARTIFACTS / "table-four-confirmed.png"), full_page=True)
    sheet = Sheet.objects.get(table=table)
    assert sheet.status == Sheet.Status.CONFIRMED
    assert _rows(table) == (4, 4, 4)
    assert HandSeat.objects.filter(hand__sheet=sheet).count() == 16
    stored = HandSeat.objects.get(hand__sheet=sheet, hand__number=4, position=loser - 1)
    assert stored.hand_points == theirs  # the director took seat 4's version
    writers = dict(TableHand.objects.filter(table=table).values_list("number", "writer"))
    assert writers == {1: 0, 2: 1, 3: 1, 4: 2}
    deciders = TableHand.objects.filter(table=table, status="confirmed")
    assert dict(deciders.values_list("number", "decided_by")) == {
        1: 1,
        2: 3,
        3: 0,
        4: 3,
    }

    # The series ends: the link expires. Table 2's link was locked by the director.
    table_links.revoke_table_link(director, links[2])
    Series.objects.filter(pk=series.pk).update(status=Series.Status.COMPLETE)
    b.reload()
    assert b.locator("#link-closed").get_attribute("data-reason") == "expired"
    assert "gilt nicht mehr" in b.inner_text("#link-closed")
    response = c.goto(f"{live_server.url}/t/{links[2].token}/")
    assert response.status == 403  # revoked wins over expired: the director's act is named
    assert "gesperrt" in c.inner_text("#link-closed")
    response = d.goto(f"{live_server.url}/t/{links[2].token}x/")
    assert response.status == 404
    for context, _page in phones:
        context.close()
    assert not VIOLATIONS, VIOLATIONS
