"""The federation's ranking lists and player cards on a 390x844 phone in German: rank, name
and points in view (they lay off to the right of a sideways-scrolling table), the other
columns on a tap under their headings; on a desktop every column. Screenshots go to
test-artifacts/."""

import pytest
from django.urls import reverse

from tests.browser.test_german_director import SHOWN, SIZES, _login, _shot
from tests.federation.conftest import (  # noqa: F401  (the fixtures)
    affiliation_a,
    affiliation_b,
    holder,
    national,
    region_a,
    region_b,
)
from tests.federation.list_helpers import computed_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tap_shows(page, table, *labels):
    # The button (keyboard, screen readers) sits in the first cell a phone shows.
    assert table.locator("tbody tr").first.locator("button.row-toggle").is_visible()
    table.locator("tbody tr").first.locator("td:not(.detail)").first.click()
    detail = table.locator("tr.row-detail").inner_text()
    for label in labels:
        assert label in detail, (label, detail)


@pytest.mark.usefixtures("affiliation_a", "affiliation_b")
@pytest.mark.parametrize("size", SIZES)
def test_ranking_lists_and_cards_fit_a_phone(live_server, browser, size, club_a, club_b, request):
    association = request.getfixturevalue("national")
    world = computed_world(association, club_a, club_b)
    ranking = world["ranking"]
    ranking.public = True
    ranking.save(update_fields=["public"])
    holder(association, "officer", "bundeswart")
    width = SIZES[size][0]
    phone = size == "phone"
    context, page = _login(browser, live_server, size, "bundeswart")

    pages = [
        ("federation:ranking_lines", [ranking.pk], "table[data-ranking-list]",
         ["Platz", "Name", "Punkte"],
         ["Platz", "Name", "Verein", "Gewertete Turniere", "Punkte", "Ergebnisse"],
         ("Verein", "Ergebnisse", "5,00 · 6,00 · (4,00)")),
        ("federation:ranking_detail", [ranking.pk], "table[data-ranking]",
         ["Platz", "Name", "Punkte"],
         ["Platz", "Name", "Verein", "Gewertete Turniere", "Punkte", "Ergebnisse"],
         ("Verein", "5,00 · 6,00 · (4,00)")),
        ("federation:player_card", [ranking.pk, world["anna"].pk], "table[data-card-results]",
         ["Veranstaltung", "Platz", "Punkte"],
         ["Datum", "Veranstaltung", "Platz", "Spieler", "Punkte", "Gewertet"],
         ("Datum", "Spieler")),
        ("federation_public:ranking", [ranking.pk], "table.ranking-list",
         ["Platz", "Name", "Punkte"],
         ["Platz", "Name", "Verein", "Gewertete Turniere", "Punkte", "Bestes Ergebnis"],
         ("Verein", "Bestes Ergebnis")),
        ("federation_public:card", [ranking.pk, world["anna"].pk], "table.phone-rows",
         ["Veranstaltung", "Platz", "Punkte"],
         ["Datum", "Veranstaltung", "Platz", "Spieler", "Punkte", "Hinweis"],
         ("Datum", "Spieler")),
    ]  # fmt: skip
    for name, args, selector, on_phone, on_desktop, details in pages:
        page.goto(live_server.url + reverse(name, args=args))
        table = page.locator(selector).first
        assert table.evaluate(SHOWN) == (on_phone if phone else on_desktop), name
        assert table.evaluate("t => t.scrollWidth") <= width, name
        if phone:
            _tap_shows(page, table, *details)
        if name == "federation:ranking_lines":  # who is not listed, and why, beside the name
            unlisted = page.locator("table[data-unlisted]")
            assert unlisted.evaluate(SHOWN) == (
                ["Name", "Warum nicht gelistet"]
                if phone
                else ["Name", "Verein", "Veranstaltungen", "Punkte", "Warum nicht gelistet"]
            )
        _shot(page, name.replace(":", "-"), size)
    context.close()
