"""Entry fees (issue 29, item 1): the services (German input, bad amounts refused in German,
history, a fee change after payments), what each participant owes, the cash summary, the
page with its quick buttons and filter, the print, and who may see and write what."""

import io
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from prizes.fees import selectors, services
from prizes.models import EntryFee, EntryPayment
from tests.factories import EventFactory, ParticipantFactory, user_with_role
from tournaments.models import Category, CategoryChoice

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


@pytest.fixture(autouse=True)
def german():
    with translation.override("de"):
        yield


@pytest.fixture
def event(club_a):
    return EventFactory(club=club_a, name="Frühjahrsturnier")


def people(event, count, **kwargs):
    return [ParticipantFactory(event=event, club=event.club, **kwargs) for _ in range(count)]


def youth(event, *members):
    category = Category.objects.create(event=event, kind="youth", name="Jugend", age_limit=18)
    for p in members:  # the director's choice: a member under every rule
        CategoryChoice.objects.create(category=category, participant=p, included=True)
    return category


# ----- amounts as typed --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "amount"),
    [("12,50", "12.50"), ("12.50", "12.50"), ("12", "12.00"), (" 7,5 € ", "7.50"),
     ("1.000,00", "1000.00"), ("0", "0.00"), (Decimal("3.1"), "3.10")],
)  # fmt: skip
def test_german_and_plain_amounts_are_read(typed, amount):
    assert services.parse_fee(typed) == Decimal(amount)


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("-5", "kann nicht negativ sein"),
        ("1000,01", "nicht plausibel: höchstens 1.000,00\N{NO-BREAK SPACE}€"),
        ("25000", "nicht plausibel"),
        ("zwölf", "„zwölf“ ist kein Betrag in Euro"),
        ("12,505", "höchstens zwei Nachkommastellen"),
        ("", "fehlt"),
        ("1e3", "ist kein Betrag in Euro"),
    ],
)
def test_bad_amounts_are_refused_in_german_and_nothing_is_saved(organiser_a, event, typed, words):
    with pytest.raises(ValidationError) as refused:
        services.set_fees(organiser_a, event, general=typed)
    assert words in " ".join(refused.value.messages)
    assert not EntryFee.objects.exists()


def test_a_bad_category_fee_saves_nothing_not_even_the_good_general_fee(organiser_a, event):
    category = youth(event)
    with pytest.raises(ValidationError) as refused:
        services.set_fees(organiser_a, event, general="10", categories={category.pk: "-1"})
    assert "Das Startgeld von „Jugend“ kann nicht negativ sein" in refused.value.messages[0]
    assert refused.value.message_dict.keys() == {f"category-{category.pk}"}
    assert not EntryFee.objects.exists()


# ----- what is due, payments, the summary --------------------------------------------------


def test_the_fee_due_is_the_general_one_or_the_lowest_of_a_category(organiser_a, event):
    adult, young = people(event, 2)
    assert selectors.fee_due(adult) == Decimal("0")  # no fee set: nothing owed
    category = youth(event, young)
    services.set_fees(organiser_a, event, general="12,50", categories={category.pk: "5"})
    assert selectors.fees_due(event) == {adult.pk: Decimal("12.50"), young.pk: Decimal("5.00")}
    club = Category.objects.create(event=event, kind="custom", name="Gäste")
    CategoryChoice.objects.create(category=club, participant=young, included=True)
    services.set_fees(
        organiser_a, event, general="12,50", categories={category.pk: "5", club.pk: "8"}
    )
    assert selectors.fee_due(young) == Decimal("5.00")  # the lowest of their categories
    # A category fee removed: its members pay the general fee again.
    services.set_fees(
        organiser_a, event, general="12,50", categories={category.pk: "", club.pk: ""}
    )
    assert selectors.fee_due(young) == Decimal("12.50")


def test_a_payment_keeps_who_when_and_the_amount_due_with_history(organiser_a, event):
    (player,) = people(event, 1)
    services.set_fees(organiser_a, event, general="10")
    payment = services.record_payment(organiser_a, player, "cash", "am Eingang")
    assert (payment.status, payment.amount, payment.note) == (
        "cash",
        Decimal("10.00"),
        "am Eingang",
    )
    assert payment.recorded_by == organiser_a and payment.recorded_at is not None
    services.record_payment(organiser_a, player, "open")
    payment.refresh_from_db()
    assert (payment.status, payment.amount) == ("open", Decimal("0"))
    history = list(payment.history.order_by("history_date"))
    assert [h.status for h in history] == ["cash", "open"]
    assert {h.history_user for h in history} == {organiser_a}
    fee_history = EntryFee.objects.get(event=event).history.get()
    assert fee_history.history_user == organiser_a


def test_a_bad_status_or_an_overlong_note_is_refused_in_german(organiser_a, event):
    (player,) = people(event, 1)
    with pytest.raises(ValidationError, match="ist kein Zahlungsstatus"):
        services.record_payment(organiser_a, player, "paypal")
    with pytest.raises(ValidationError, match="höchstens 200"):
        services.record_payment(organiser_a, player, "cash", "x" * 201)
    assert not EntryPayment.objects.exists()


def test_a_fee_change_after_payments_rewrites_nothing_and_says_who_owes_what(organiser_a, event):
    payers = people(event, 5)
    services.set_fees(organiser_a, event, general="10")
    for p in payers[:3]:
        services.record_payment(organiser_a, p, "cash")
    services.record_payment(organiser_a, payers[3], "waived")

    change = services.set_fees(organiser_a, event, general="12,50")

    assert change.changed == 1
    assert change.messages == [
        "3 Teilnehmer haben bereits 10,00\N{NO-BREAK SPACE}€ bezahlt; das Startgeld beträgt "
        "jetzt 12,50\N{NO-BREAK SPACE}€: sie schulden je 2,50\N{NO-BREAK SPACE}€ nach "
        "(zusammen 7,50\N{NO-BREAK SPACE}€)."
    ]
    amounts = EntryPayment.objects.filter(status="cash").values_list("amount", flat=True)
    assert set(amounts) == {Decimal("10.00")}  # no silent rewrite
    assert list(EntryFee.objects.get().history.values_list("amount", flat=True)) == [
        Decimal("12.50"),
        Decimal("10.00"),
    ]
    rows = {r.participant_id: r for r in selectors.payment_rows(event)}
    assert rows[payers[0].pk].difference == Decimal("2.50")
    lower = services.set_fees(organiser_a, event, general="8")
    assert "sind je 2,00\N{NO-BREAK SPACE}€ zu erstatten" in lower.messages[0]
    assert services.set_fees(organiser_a, event, general="8,00").changed == 0


def test_the_cash_summary_counts_withdrawn_and_disqualified_players_too(organiser_a, event):
    adults = people(event, 5)
    (young,) = people(event, 1, withdrawn_from_series=2)
    category = youth(event, young)
    services.set_fees(organiser_a, event, general="12,50", categories={category.pk: "5"})
    adults[4].disqualified = True
    adults[4].save()
    services.record_payment(organiser_a, adults[0], "cash")
    services.record_payment(organiser_a, adults[1], "transfer")
    services.record_payment(organiser_a, adults[4], "cash")
    services.record_payment(organiser_a, young, "waived")

    summary = selectors.cash_summary(event)

    assert summary.collected == Decimal("37.50")  # the pot of the prize plan
    assert (summary.cash, summary.transfer) == (Decimal("25.00"), Decimal("12.50"))
    assert summary.waived == Decimal("5.00")
    assert summary.owed == Decimal("25.00")  # adults 2 and 3
    assert (summary.cash_count, summary.transfer_count, summary.waived_count) == (2, 1, 1)
    assert summary.open_count == 2
    assert {r.participant_id for r in selectors.unpaid(event)} == {adults[2].pk, adults[3].pk}
    # the prize list's read of three columns sums what the fee list's rows sum
    assert summary == selectors.summarise(selectors.payment_rows(event))


@pytest.mark.parametrize("size", [10, 60])
def test_the_reads_run_a_fixed_number_of_queries(
    organiser_a, event, size, django_assert_num_queries
):
    everyone = people(event, size)
    category = youth(event, *everyone[:3])
    services.set_fees(organiser_a, event, general="10", categories={category.pk: "4"})
    for p in everyone[::2]:
        services.record_payment(organiser_a, p, "cash")
    with django_assert_num_queries(5):  # fees, categories, choices, people, payment rows
        rows = selectors.payment_rows(event)
    assert len(rows) == size
    with django_assert_num_queries(5):
        selectors.cash_summary(event)


# ----- the page ----------------------------------------------------------------------------


def test_the_page_shows_the_summary_in_german_money_and_the_buttons_work(
    client, organiser_a, event
):
    first, second, third = people(event, 3)
    services.set_fees(organiser_a, event, general="617,25")
    services.record_payment(organiser_a, first, "transfer")
    services.record_payment(organiser_a, third, "cash")
    client.force_login(organiser_a)
    url = reverse("prizes:fees", args=[event.pk])

    page = client.get(url, **DE).content.decode()

    assert "1.234,50\N{NO-BREAK SPACE}€" in page
    assert "Eingenommen" in page and "Noch offen" in page
    assert 'value="617.25"' in page  # never localised inside an <input>
    assert f'id="fee-{second.pk}"' in page
    for sort in ("recorded", "-recorded", "status", "-due", "club", "name"):
        assert client.get(f"{url}?sort={sort}", **DE).status_code == 200
    # The quick buttons post without script and come back to the same list.
    response = client.post(
        reverse("prizes:payment_set", args=[second.pk]),
        {"status": "cash", "next": url + "?open=1"},
        **DE,
    )
    assert response.status_code == 302
    assert response["Location"] == f"{url}?open=1#fee-{second.pk}"
    assert EntryPayment.objects.get(participant=second).status == "cash"
    page = client.get(url + "?open=1", **DE).content.decode()
    assert "bar bezahlt" in page  # the message after the button
    assert f'id="fee-{first.pk}"' not in page and f'id="fee-{second.pk}"' not in page
    assert "nur offene" in page


def test_the_fee_form_refuses_bad_input_in_german_and_keeps_what_was_typed(
    client, organiser_a, event
):
    client.force_login(organiser_a)
    url = reverse("prizes:fees", args=[event.pk])
    response = client.post(url, {"general": "zehn Euro"}, **DE)
    assert response.status_code == 200
    text = response.content.decode()
    assert "„zehn Euro“ ist kein Betrag in Euro" in text and 'value="zehn Euro"' in text
    assert not EntryFee.objects.exists()
    response = client.post(url, {"general": "9,50"}, **DE, follow=True)
    assert "Die Startgelder sind gespeichert." in response.content.decode()
    assert EntryFee.objects.get().amount == Decimal("9.50")


def test_the_list_prints_as_pdf_and_xlsx(client, organiser_a, event):
    first, _second = people(event, 2)
    services.set_fees(organiser_a, event, general="12,50")
    services.record_payment(organiser_a, first, "cash")
    client.force_login(organiser_a)
    for fmt, kind in (("pdf", "application/pdf"), ("xlsx", "spreadsheetml")):
        response = client.get(
            reverse("exports:export", args=["event", event.pk, "entry-fees", fmt]), **DE
        )
        assert response.status_code == 200 and kind in response["Content-Type"]
        if fmt == "pdf":
            # The cash summary goes on below a short list, not on a page of its own.
            (page,) = PdfReader(io.BytesIO(response.content)).pages
            text = page.extract_text()
            assert "Startgeldliste" in text and "Kassenstand" in text and "Noch offen" in text
    html = client.get(
        reverse("exports:export", args=["event", event.pk, "entry-fees", "html"]), **DE
    ).content.decode()
    for words in ("Startgeldliste", "Verein", ">Wer<", ">Wann<", "bar bezahlt", "org_a",
                  "Kassenstand"):  # fmt: skip
        assert words in html


@pytest.mark.parametrize("who", ["other_organiser", "viewer", "scorer", "anonymous"])
def test_only_the_events_directors_may_read_or_write_fees(client, club_b, event, who):
    (player,) = people(event, 1)
    if who == "other_organiser":
        user = user_with_role(club_b, "organiser", username="org_b")
    elif who != "anonymous":
        user = user_with_role(event.club, who, username=f"{who}_a")
    if who != "anonymous":
        client.force_login(user)
        with pytest.raises(PermissionDenied):
            services.set_fees(user, event, general="10")
        with pytest.raises(PermissionDenied):
            services.record_payment(user, player, "cash")
    urls = [
        reverse("prizes:fees", args=[event.pk]),
        reverse("exports:export", args=["event", event.pk, "entry-fees", "pdf"]),
    ]
    for url in urls:
        assert client.get(url).status_code in (302, 403, 404)
    assert client.post(urls[0], {"general": "10"}).status_code in (302, 403)
    response = client.post(reverse("prizes:payment_set", args=[player.pk]), {"status": "cash"})
    assert response.status_code in (302, 403)
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))
    assert not EntryFee.objects.exists() and not EntryPayment.objects.exists()


def test_the_check_in_shows_the_fee_with_the_same_buttons_to_directors_only(
    client, organiser_a, viewer_a, event
):
    (player,) = people(event, 1)
    services.set_fees(organiser_a, event, general="12,50")
    page = reverse("tournaments:event_detail", args=[event.pk])
    client.force_login(organiser_a)
    text = client.get(page, **DE).content.decode()
    assert "Startgeld: <span" in text and "12,50\N{NO-BREAK SPACE}€" in text
    assert reverse("prizes:payment_set", args=[player.pk]) in text
    assert reverse("prizes:fees", args=[event.pk]) in text  # the link to the fees page
    response = client.post(
        reverse("prizes:payment_set", args=[player.pk]), {"status": "cash", "next": page}
    )
    assert response["Location"].startswith(page)
    assert "bar bezahlt" in client.get(page, **DE).content.decode()
    client.force_login(viewer_a)
    text = client.get(page, **DE).content.decode()
    assert "bar bezahlt" not in text and "payment_set" not in text
    assert reverse("prizes:payment_set", args=[player.pk]) not in text


def test_where_no_fee_is_set_nobody_owes_anything(client, organiser_a, event):
    """The fees page says "Noch kein Startgeld festgelegt: niemand schuldet etwas"; the
    check-in, the cash summary and "open only" say the same (before: "offen 0,00 €" for
    everyone and every player counted as open)."""
    (first, _second) = people(event, 2)
    client.force_login(organiser_a)
    check_in = reverse("tournaments:event_detail", args=[event.pk])
    fees = reverse("prizes:fees", args=[event.pk])
    assert "Startgeld: <span" not in client.get(check_in, **DE).content.decode()
    assert selectors.unpaid(event) == []
    summary = selectors.summarise(selectors.payment_rows(event))
    assert (summary.open_count, summary.owed) == (0, 0)
    assert str(first.player) not in client.get(fees + "?open=1", **DE).content.decode()
    # A fee set: both owe it, as before.
    services.set_fees(organiser_a, event, general="5")
    assert "Startgeld: <span" in client.get(check_in, **DE).content.decode()
    assert len(selectors.unpaid(event)) == 2
    assert selectors.summarise(selectors.payment_rows(event)).open_count == 2
    assert str(first.player) in client.get(fees + "?open=1", **DE).content.decode()


def test_two_cash_desks_the_second_click_on_a_stale_list_is_refused(client, organiser_a, event):
    """Before, a click on a list still showing "offen" overwrote the other desk's cash
    payment (and the cash total went back) without a word."""
    import re

    from django.test import Client

    (player,) = people(event, 1)
    services.set_fees(organiser_a, event, general="10")
    client.force_login(organiser_a)
    desk = Client(**DE)
    desk.force_login(user_with_role(event.club, "organiser", username="kasse"))
    url = reverse("prizes:fees", args=[event.pk])
    stale = desk.get(url).content.decode()
    seen = re.search(
        rf'participants/{player.pk}/entry-fee/[^>]*>.*?name="seen" value="([^"]+)"', stale, re.S
    )
    assert seen.group(1) == "open"

    paid = {"status": "cash", "seen": "open", "next": url}
    assert client.post(reverse("prizes:payment_set", args=[player.pk]), paid).status_code == 302
    refused = desk.post(
        reverse("prizes:payment_set", args=[player.pk]),
        {"status": "transfer", "seen": "open", "next": url},
        follow=True,
    )
    text = refused.content.decode()
    assert f"Inzwischen hat {organiser_a.username} „bar bezahlt“ erfasst" in text
    assert "nichts wurde geändert" in text
    payment = EntryPayment.objects.get(participant=player)
    assert (payment.status, payment.recorded_by) == ("cash", organiser_a)
    # The same status from both desks is no conflict, and the list now shows "bar".
    same = {"status": "cash", "seen": "open", "next": url}
    assert desk.post(reverse("prizes:payment_set", args=[player.pk]), same).status_code == 302
    assert EntryPayment.objects.get(participant=player).status == "cash"
    # The fee form likewise: the second desk's old page does not silently set another fee.
    form = desk.get(url).content.decode()
    fee_seen = re.search(r'name="seen_state" value="([^"]+)"', form).group(1)
    services.set_fees(organiser_a, event, general="12,50")
    page = desk.post(url, {"general": "15", "seen_state": fee_seen}).content.decode()
    assert "Inzwischen hat jemand anderes hier gespeichert" in page
    assert "Inzwischen geändert auf „12.50“" in page
    assert selectors.fee_schedule(event).general == Decimal("12.50")
