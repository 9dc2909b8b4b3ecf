"""The prize-giving in Chromium (de-DE): the director sets an entry fee, marks two payments on
the fees page, sets up a prize plan (a row added without script, a plan over the pot
confirmed) and opens the prize list with the names and German amounts."""

import pytest

from clubs.models import ClubRole
from tests.factories import ClubFactory, UserFactory
from tests.standings.db.conftest import add_series, make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# Higher is better: P 4 first (40), P 2 and P 3 tied (20), P 1 last.
HANDS = [(0, False, [(0, -10), (20, 20), (20, 20), (40, 40)])]


def _login(page, live_server, username):
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_load_state()


def test_fee_payments_plan_and_prize_list(live_server, page):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=club, role="organiser")
    event, people = make_event(club, players=4, name="Preisturnier")
    add_series(event, people, HANDS)
    _login(page, live_server, "leitung")

    # The fee, and two payments (cash for the first two rows).
    page.goto(f"{live_server.url}/events/{event.pk}/entry-fees/")
    page.fill("input[name=general]", "12,50")
    page.click("main form.form button[type=submit]")
    page.wait_for_load_state()
    for _ in range(2):
        page.locator("form.fee-buttons button[value=cash]").first.click()
        page.wait_for_load_state()

    # The plan: from the event page; a row more, then two cash prizes over the 25 € pot.
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.click("text=Preisplan")
    page.wait_for_load_state()
    assert "Preisplan" in page.title()
    rows_before = page.locator("table.prize-lines tbody select").count()
    page.click("button[name=add_rows]")
    page.wait_for_load_state()
    assert page.locator("table.prize-lines tbody select").count() == rows_before + 5
    page.select_option("select[name=lines-0-competition]", "overall")
    page.fill("input[name=lines-0-place]", "1")
    page.fill("input[name=lines-0-amount]", "20.50")
    page.fill("input[name=lines-1-place]", "2")
    page.fill("input[name=lines-1-amount]", "10")
    page.fill("input[name=lines-2-place]", "3")
    page.fill("input[name=lines-2-item]", "Präsentkorb")
    page.click("text=Plan speichern")
    page.wait_for_load_state()
    warning = page.locator(".warning-summary").inner_text()
    assert "30,50\xa0€" in warning and "25,00\xa0€" in warning
    # Nothing typed is lost; the director confirms.
    assert page.input_value("input[name=lines-2-item]") == "Präsentkorb"
    page.check("input[name=confirm_over_pot]")
    page.click("text=Plan speichern")
    page.wait_for_load_state()
    assert "Der Preisplan ist gespeichert." in page.content()
    assert "Platz 1 der Gesamtwertung erhält 20,50\xa0€." in page.inner_text("main")

    # The prize list: P 4 first, the tie of P 2 and P 3 on place 2 shares 10 € + the item.
    page.click("text=Preisliste")
    page.wait_for_load_state()
    text = page.inner_text("main")
    assert "P 4" in text and "20,50\xa0€" in text
    assert "P 2" in text and "P 3" in text and "5,00\xa0€" in text
    assert "Präsentkorb" in text and "Ausgezahlt" in text and "30,50\xa0€" in text
    assert "Topf" in text and "25,00\xa0€" in text
