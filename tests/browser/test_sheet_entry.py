"""A scorer types a whole 20-hand sheet with the keyboard alone and sees the totals."""

import random

import pytest

from rules import PRESETS, random_hand, score_hand
from scoring.models import Hand, Sheet
from tests.factories import (
    ClubFactory,
    EventFactory,
    ParticipantFactory,
    SeriesFactory,
    seated_table,
    user_with_role,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_scorer_enters_a_whole_sheet_with_the_keyboard(live_server, page):
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    user_with_role(club, "scorer", username="schreiber")
    event = EventFactory(club=club, rounds_per_series=5)
    series = SeriesFactory(event=event, number=1, status="in_play")
    names = [("Anna", "Müller"), ("Bernd", "Becker"), ("Clara", "Schulz"), ("Dieter", "Wolf")]
    people = [
        ParticipantFactory(event=event, player__given_name=g, player__family_name=f)
        for g, f in names
    ]
    seated_table(series, people, 1)

    ruleset = PRESETS["german-minus"]
    rng = random.Random(2026)
    hands = [random_hand(ruleset, 4, rng, dealer=i % 4, hand_romme_rate=0.15) for i in range(20)]
    hands[1] = random_hand(ruleset, 4, random.Random(5), dealer=1)
    hands[4] = random_hand(ruleset, 4, random.Random(6), dealer=0, hand_romme_rate=1.0)
    assert hands[4].hand_romme
    card_seat = next(i for i in range(4) if i != hands[1].winner)
    expected = [0, 0, 0, 0]
    for hand in hands:
        for i, points in enumerate(score_hand(hand, ruleset, 4)):
            expected[i] += points
    # Hand 2 is written with cards for one seat: Jo A K 7 are 58 hand points.
    expected[card_seat] += hands[1].seats[card_seat].hand_points - 58

    page.goto(f"{live_server.url}/series/{series.pk}/tables/1/sheet/")
    assert "/login/" in page.url
    page.fill("input[name=username]", "schreiber")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url("**/tables/1/sheet/")
    assert "Anna Müller" in page.locator("#sheet-grid thead").inner_text()

    page.focus("input[name='cell-1-1']")
    for n, hand in enumerate(hands, start=1):
        for i, seat in enumerate(hand.seats):
            if n == 2 and i == card_seat:
                page.keyboard.type("Jo A K 7")
            else:
                page.keyboard.type(str(seat.hand_points))
            if i == hand.winner and hand.hand_romme:
                page.keyboard.type("+")  # toggles the row's hand Rommé
            last = n == len(hands) and i == 3
            page.keyboard.press("Enter" if last or (n + i) % 2 else "Tab")

    # Enter in the last cell went to the submit button; the check has run meanwhile.
    assert page.evaluate("document.activeElement.id") == "sheet-submit"
    reading = page.locator("tr[data-hand='2'] td.cell .reading").nth(card_seat)
    reading.filter(has_text="Jo A K 7 = 58").wait_for()
    page.locator("#sheet-ready").wait_for()
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    page.locator(".messages .message").first.wait_for()

    totals = [int(t) for t in page.locator("#sheet-grid tfoot td.total").all_inner_texts()]
    assert totals == expected
    sheet = Sheet.objects.get(table__series=series)
    assert sheet.status == "entered" and sheet.entered_by.username == "schreiber"
    romme = list(Hand.objects.filter(sheet=sheet, hand_romme=True).values_list("number", flat=True))
    assert romme == [n for n, h in enumerate(hands, start=1) if h.hand_romme]
