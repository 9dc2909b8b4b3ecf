"""A phone at the table while the server's disk is full (a real 503 from romme.faults, not a
stubbed route): the status line shows the server's German words, the hand stays queued on the
phone and lands once when the fault is gone (`python -m bench faults --part hall` does the same
against the hall mode on a tmpfs)."""

import sqlite3

import pytest

from scoring.models import TableHand
from tests.browser.test_table_phone import _enter, _phone, _sit_down, tables  # noqa: F401
from tests.sheets.conftest import random_grid
from tests.test_faults import failing_sql

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "error, said",
    [
        ("database or disk is full", "Der Speicherplatz des Servers ist voll."),
        ("attempt to write a readonly database", "Die Datenbank ist im Moment schreibgeschützt."),
    ],
)
def test_a_hand_sent_into_a_fault_shows_it_and_lands_once_after_it(
    live_server,
    browser,
    tables,  # noqa: F811
    error,
    said,
):
    _series, links = tables
    link = links[1]
    context, page = _phone(browser)
    _sit_down(page, f"{live_server.url}/t/{link.token}/", link.seat_codes[0])
    hand = random_grid(hands=1, seed=7, no_winner_rate=0, hand_romme_rate=0)["hands"][0]
    status = page.locator("#net-status")
    with failing_sql(sqlite3.OperationalError(error)):
        with page.expect_response(lambda r: r.url.endswith("/hand/")) as answer:
            _enter(page, hand)
        assert answer.value.status == 503
        status.filter(has_text=said).wait_for()
        assert "bleibt auf diesem Gerät und wird erneut gesendet" in status.inner_text()
        assert "wartet auf Netz" not in status.inner_text()
        assert not TableHand.objects.filter(table=link.table).exists()
    # The phone sends the queue again every few seconds: the hand lands, once.
    page.wait_for_selector("tr[data-hand='1']", timeout=20_000)
    assert TableHand.objects.filter(table=link.table).count() == 1
    assert not status.inner_text() or said not in status.inner_text()
    context.close()
