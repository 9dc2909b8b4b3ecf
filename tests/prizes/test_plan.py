"""The prize plan: the service (checks with German messages naming the line, the over-pot
confirmation, history), the page (nothing typed is lost, rows added without script) and who
may open the plan, the list and their exports."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from prizes.models import EntryFee, EntryPayment, PrizePlan
from prizes.plan import services
from tests.factories import EventFactory, ParticipantFactory, SeriesFactory, user_with_role

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


@pytest.fixture
def event(club_a):
    event = EventFactory(club=club_a, name="Preis-Cup")
    people = [ParticipantFactory(event=event, club=club_a) for _ in range(4)]
    SeriesFactory(event=event, number=1)
    SeriesFactory(event=event, number=2)
    EntryFee.objects.create(event=event, amount=Decimal("10"))
    for p in people[:3]:
        EntryPayment.objects.create(participant=p, status="cash", amount=Decimal("10"))
    return event  # collected 30 €, 40 € if everyone paid


def _save(actor, event, lines, **rules):
    return services.save_plan(actor, event, lines=lines, **rules)


def test_a_plan_is_saved_with_who_and_when_and_its_history(organiser_a, event):
    plan = _save(
        organiser_a,
        event,
        [{"competition": "overall", "place": 1, "amount": "20"},
         {"competition": "series", "place": 1, "item": "Präsentkorb"}],
        costs=Decimal("5"), costs_note="Saalmiete",
    )  # fmt: skip
    assert plan.prizes[0] == {"competition": "overall", "place": 1, "amount": "20.00"}
    assert plan.updated_by == organiser_a and plan.updated_at is not None
    assert plan.costs == Decimal("5") and plan.costs_note == "Saalmiete"
    _save(organiser_a, event, [{"competition": "overall", "place": 1, "amount": "25"}])
    records = list(PrizePlan.history.filter(event=event).order_by("history_date"))
    assert [r.history_type for r in records] == ["+", "~"]
    assert records[-1].history_user == organiser_a
    assert records[0].prizes[0]["amount"] == "20.00" and records[1].prizes[0]["amount"] == "25.00"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([{"competition": "overall", "place": 1, "amount": "-5"}],
         "Zeile 1 (Gesamtwertung, Platz 1): der Betrag muss zwischen 0 und 100.000 Euro liegen"),
        ([{"competition": "overall", "place": 1, "amount": "100000.01"}],
         "Zeile 1 (Gesamtwertung, Platz 1): der Betrag muss zwischen 0 und 100.000 Euro liegen"),
        ([{"competition": "overall", "place": 1, "amount": "5"},
          {"competition": "series", "place": 2}],
         "Zeile 2 (Jede Serie, Platz 2): Geben Sie einen Betrag, einen Anteil am Topf oder "
         "einen Sachpreis an"),
        ([{"competition": "overall", "place": 1, "share": "60"},
          {"competition": "overall", "place": 2, "share": "50"}],
         "Zeile 2 (Gesamtwertung, Platz 2): die Anteile aller Zeilen zusammen ergeben mehr "
         "als 100 Prozent des Topfs"),
        ([{"competition": "day", "place": 1, "amount": "5"},
          {"competition": "day", "place": 1, "amount": "3"}],
         "Zeile 2 (Jeder Tag, Platz 1): dieser Platz hat in dieser Wertung schon einen Preis"),
    ],
)  # fmt: skip
def test_bad_lines_are_refused_in_german_naming_the_line(organiser_a, event, lines, expected):
    with translation.override("de"), pytest.raises(ValidationError) as caught:
        _save(organiser_a, event, lines, confirmed=True)
    assert caught.value.messages == [expected]
    assert not PrizePlan.objects.filter(event=event).exists()


def test_a_plan_over_the_pot_needs_the_directors_word(organiser_a, event):
    lines = [{"competition": "overall", "place": 1, "amount": "30"},
             {"competition": "series", "place": 1, "amount": "10"}]  # fmt: skip
    # 30 + 10 × 2 series = 50 € against a pot of 30 − 5 = 25 € (35 € if everyone paid)
    with translation.override("de"), pytest.raises(services.PlanOverPot) as caught:
        _save(organiser_a, event, lines, costs=Decimal("5"))
    message = caught.value.messages[0]
    assert "50,00\xa0€" in message and "25,00\xa0€" in message and "35,00\xa0€" in message
    assert "Trotzdem speichern" in message
    assert not PrizePlan.objects.filter(event=event).exists()
    plan = _save(organiser_a, event, lines, costs=Decimal("5"), confirmed=True)
    assert plan.pk and len(plan.prizes) == 2
    # Within the pot: no confirmation needed.
    _save(organiser_a, event, [{"competition": "overall", "place": 1, "amount": "25"}],
          costs=Decimal("5"))  # fmt: skip


def test_only_the_events_organisers_save_a_plan(event, scorer_a, club_b):
    line = [{"competition": "overall", "place": 1, "amount": "5"}]
    for user in (scorer_a, user_with_role(club_b, "organiser", username="org_b")):
        with pytest.raises(PermissionDenied):
            _save(user, event, line)
    assert not PrizePlan.objects.filter(event=event).exists()


def _post(lines, **rules):
    data = {
        "lines-TOTAL_FORMS": str(len(lines)),
        "lines-INITIAL_FORMS": "0",
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "300",
        "one_prize_per_player": "1",
        "costs": "0",
        "costs_note": "",
        "public_winners": "on",
    }
    order = ["overall", "day", "series", "category", "pairs", "teams"]
    data.update({f"precedence_{n}": key for n, key in enumerate(order, start=1)})
    for n, line in enumerate(lines):
        for key, value in line.items():
            data[f"lines-{n}-{key}"] = value
    data.update(rules)
    return data


def test_the_plan_page_keeps_what_was_typed_and_asks_before_paying_over_the_pot(
    client, organiser_a, event
):
    client.force_login(organiser_a)
    url = reverse("prizes:plan", args=[event.pk])
    assert client.get(url, **DE).status_code == 200
    lines = [{"competition": "overall", "place": "1", "amount": "35.50"},
             {"competition": "series", "place": "1", "item": "Sektflasche"}]  # fmt: skip
    page = client.post(url, _post(lines, costs_note="Pokale"), **DE).content.decode()
    assert "Warnung" in page and "35,50\xa0€" in page
    assert 'value="35.50"' in page and 'value="Sektflasche"' in page and 'value="Pokale"' in page
    assert not PrizePlan.objects.filter(event=event).exists()
    # More rows: the typed lines stay, five empty rows come.
    page = client.post(url, {**_post(lines), "add_rows": "1"}, **DE).content.decode()
    assert 'name="lines-6-place"' in page and 'value="Sektflasche"' in page
    for hostile in ("abc", "1e309", "²", "-5", "x" * 5000):  # (before: a 500)
        data = {**_post(lines), "add_rows": "1", "lines-TOTAL_FORMS": hostile}
        assert client.post(url, data, **DE).status_code == 200, hostile
    # The empty rows the page offers (their standing left at the first choice) are skipped.
    untouched = [{"competition": "overall", "place": "", "amount": "", "share": "", "item": ""}]
    response = client.post(url, _post(lines + untouched * 3, confirm_over_pot="on"), **DE)
    assert response.status_code == 302
    plan = PrizePlan.objects.get(event=event)
    assert plan.prizes[1] == {"competition": "series", "place": 1, "item": "Sektflasche"}
    page = client.get(url, **DE).content.decode()
    assert "Platz 1 der Gesamtwertung erhält 35,50\xa0€." in page
    assert "Platz 1 jeder Serie erhält einen Sachpreis: Sektflasche." in page
    assert "Der Plan zahlt mehr aus, als im Topf ist." in page
    assert "Verlauf" in page  # the history section


def test_a_bad_line_on_the_page_names_it_and_loses_nothing(client, organiser_a, event):
    client.force_login(organiser_a)
    url = reverse("prizes:plan", args=[event.pk])
    lines = [{"competition": "overall", "place": "1", "amount": "5"},
             {"competition": "overall", "place": "1", "amount": "3"}]  # fmt: skip
    response = client.post(url, _post(lines), **DE)
    page = response.content.decode()
    assert response.status_code == 200
    assert (
        "Zeile 2 (Gesamtwertung, Platz 1): dieser Platz hat in dieser Wertung schon einen Preis"
        in page
    )
    assert page.count('value="1"') >= 2 and 'value="3"' in page
    assert not PrizePlan.objects.filter(event=event).exists()


def test_a_place_beyond_the_field_is_a_warning_not_a_refusal(client, organiser_a, event):
    client.force_login(organiser_a)
    _save(organiser_a, event, [{"competition": "overall", "place": 9, "item": "Buch"}])
    page = client.get(reverse("prizes:plan", args=[event.pk]), **DE).content.decode()
    assert "Zeile 1 (Gesamtwertung, Platz 9)" in page and "nur 0 Einträge" in page


def _urls(event):
    export = "exports:export"
    return [
        reverse("prizes:plan", args=[event.pk]),
        reverse("prizes:prize_list", args=[event.pk]),
        reverse(export, args=["event", event.pk, "prize-list", "pdf"]),
        reverse(export, args=["event", event.pk, "prize-list", "xlsx"]),
        reverse(export, args=["event", event.pk, "prize-list", "html"]),
    ]


def test_the_plan_the_list_and_its_exports_are_the_directors(
    client, event, organiser_a, viewer_a, scorer_a, club_b
):
    _save(organiser_a, event, [{"competition": "overall", "place": 1, "amount": "5"}])
    outsider = user_with_role(club_b, "organiser", username="org_b")
    for url in _urls(event):
        client.logout()
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response["Location"], url
        for user in (viewer_a, scorer_a, outsider):
            client.force_login(user)
            assert client.get(url).status_code == 403, (url, user)
        client.force_login(organiser_a)
        assert client.get(url).status_code == 200, url
    client.force_login(outsider)
    before = PrizePlan.objects.get(event=event).prizes
    response = client.post(_urls(event)[0], _post([{"competition": "overall", "place": "1",
                                                    "amount": "99"}]))  # fmt: skip
    assert response.status_code == 403
    assert PrizePlan.objects.get(event=event).prizes == before


def test_two_directors_on_one_plan_the_second_is_refused_and_keeps_its_lines(
    client, organiser_a, event, club_a
):
    """Before, the second save replaced the first one's plan without a word."""
    import re

    from django.test import Client

    url = reverse("prizes:plan", args=[event.pk])
    second = Client(**DE)
    second.force_login(user_with_role(club_a, "organiser", username="kasse"))
    client.force_login(organiser_a)

    def seen(page):
        return re.search(r'name="seen" value="([^"]*)"', page.content.decode()).group(1)

    first_seen, second_seen = seen(client.get(url, **DE)), seen(second.get(url, **DE))
    assert first_seen == second_seen == "none"
    basket = [{"competition": "overall", "place": "1", "item": "Präsentkorb"}]
    sekt = [{"competition": "series", "place": "1", "item": "Flasche Sekt"}]
    assert client.post(url, _post(basket, seen=first_seen), **DE).status_code == 302

    refused = second.post(url, _post(sekt, seen=second_seen))
    assert refused.status_code == 200
    page = refused.content.decode()
    assert f"{organiser_a.username} hat den Preisplan um" in page
    assert "von Ihren Eingaben ist noch nichts gespeichert" in page
    assert "Präsentkorb" in page  # the saved plan, shown above
    assert 'value="Flasche Sekt"' in page  # the second's line, kept in the form
    plan = PrizePlan.objects.get(event=event)
    assert [line["item"] for line in plan.prizes] == ["Präsentkorb"]

    # Seen the saved plan, the second director saves his page again: it is written.
    assert seen(refused) == services.plan_stamp(plan)
    assert second.post(url, _post(sekt, seen=seen(refused))).status_code == 302
    plan.refresh_from_db()
    assert [line["item"] for line in plan.prizes] == ["Flasche Sekt"]
