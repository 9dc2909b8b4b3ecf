"""The prize list against a hand-made event with a tie and a disqualified player; its PDF in
German, its XLSX (header, number formats), the public page with and without amounts, and
the queries it reads."""

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from prizes.models import EntryFee, EntryPayment
from prizes.plan import services
from prizes.plan.selectors import prize_list
from scoring.exports.rendering import render_export
from tests.pdf_checks import page_texts, print_style_problems
from tests.standings.db.conftest import add_series, generated, make_event

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
# Series 1: P4 40, P2 and P3 20 (tied), P1 -10; series 2 the same (higher is better).
HANDS = [(0, False, [(0, -10), (20, 20), (20, 20), (40, 40)])]


@pytest.fixture
def cup(club_a, organiser_a):
    event, people = make_event(club_a, players=4, name="Preis-Cup")
    add_series(event, people, HANDS)
    add_series(event, people, HANDS)
    people[3].disqualified = True  # P4, first on points, wins nothing
    people[3].save()
    EntryFee.objects.create(event=event, amount=Decimal("25"))
    for p in people:
        EntryPayment.objects.create(participant=p, status="cash", amount=Decimal("25"))
    services.save_plan(
        organiser_a, event, confirmed=True, costs=Decimal("10"), costs_note="Pokale",
        lines=[
            {"competition": "overall", "place": 1, "amount": "50"},
            {"competition": "overall", "place": 2, "amount": "25.01"},
            {"competition": "overall", "place": 3, "item": "Präsentkorb"},
            {"competition": "series", "place": 1, "share": "10"},
        ],
    )  # fmt: skip
    return event, people


def _rows(listing):
    return [(r.standing, r.place, r.name, r.prize, r.amount) for r in listing.rows]


def test_the_list_shares_a_tie_skips_the_disqualified_and_states_the_remainder(cup):
    event, _people = cup
    with translation.override("de"):
        listing = prize_list(event)
    # P2 and P3 share places 1 and 2 (75.01 €): 37.50 € each, 1 cent remainder; P1 third.
    # One prize per player: the series prizes find nobody left (P4 is disqualified).
    assert _rows(listing) == [
        ("Gesamtwertung", 1, "P 2", "Geldpreis, Plätze 1–2 geteilt von 2", Decimal("37.50")),
        ("Gesamtwertung", 1, "P 3", "Geldpreis, Plätze 1–2 geteilt von 2", Decimal("37.50")),
        ("Gesamtwertung", 3, "P 1", "Präsentkorb", Decimal("0")),
    ]
    assert listing.paid == Decimal("75.00")
    assert listing.collected == Decimal("100") and listing.pot == Decimal("90")
    assert listing.left_over == Decimal("15.00")
    assert listing.remainder == Decimal("0.01")
    assert not listing.provisional
    assert any("Plätze 1–2: 2 Gleichplatzierte teilen 75,01\xa0€" in n for n in listing.notes)
    assert any("Serie 1, Platz 1: niemand" in n for n in listing.notes)


def test_several_prizes_per_player_and_a_share_of_the_pot(cup, organiser_a):
    event, _people = cup
    plan = event.prize_plan
    services.save_plan(
        organiser_a, event, lines=plan.prizes, one_prize_per_player=False, costs=plan.costs,
        confirmed=True,
    )  # fmt: skip
    with translation.override("de"):
        rows = _rows(prize_list(event))
    # 10 % of the pot (90 €) per series, shared by the tied P2 and P3: 4.50 € each.
    series = [r for r in rows if r[0].startswith("Serie")]
    assert [(r[0], r[2], r[3]) for r in series] == [
        ("Serie 1", "P 2", "10 % des Topfs, Plätze 1–2 geteilt von 2"),
        ("Serie 1", "P 3", "10 % des Topfs, Plätze 1–2 geteilt von 2"),
        ("Serie 2", "P 2", "10 % des Topfs, Plätze 1–2 geteilt von 2"),
        ("Serie 2", "P 3", "10 % des Topfs, Plätze 1–2 geteilt von 2"),
    ]
    assert len(series) == 4 and all(r[4] == Decimal("4.50") for r in series)


def test_an_unconfirmed_sheet_makes_the_list_provisional(club_a, organiser_a):
    event, people = make_event(club_a, players=4)
    add_series(event, people, HANDS, status="entered")
    services.save_plan(
        organiser_a, event, confirmed=True,
        lines=[{"competition": "overall", "place": 1, "amount": "10"}],
    )  # fmt: skip
    assert prize_list(event).provisional
    assert prize_list(event).rows[0].name == "P 4"
    assert not prize_list(event, include_entered=False).rows


def test_the_page_the_pdf_and_the_xlsx_in_german(client, organiser_a, cup):
    event, _people = cup
    client.force_login(organiser_a)
    page = client.get(reverse("prizes:prize_list", args=[event.pk]), **DE).content.decode()
    assert "Preisliste" in page and "37,50\xa0€" in page and "Präsentkorb" in page
    assert "Rundungsrest" in page and "0,01\xa0€" in page
    sorted_page = client.get(
        reverse("prizes:prize_list", args=[event.pk]) + "?sort=-amount", **DE
    ).content.decode()
    assert sorted_page.index("P 2") < sorted_page.index("P 1")
    with translation.override("de"):
        pdf, name, _type = render_export("prize-list", event, "pdf")
        xlsx, xname, _type = render_export("prize-list", event, "xlsx")
    assert print_style_problems(pdf, "de") == []
    text = " ".join(page_texts(pdf))
    for word in ("Preisliste", "Platz", "Verein", "Wertung", "Preis", "Betrag", "Unterschrift",
                 "37,50 €", "Ausgezahlt", "75,00 €", "Topf", "90,00 €", "Übrig", "15,00 €",
                 "Gesamtwertung"):  # fmt: skip
        assert word in text.replace("\xa0", " "), word
    assert "VORLÄUFIG" not in text
    assert name.endswith(".pdf") and "preisliste" in name and xname.endswith(".xlsx")
    sheet = load_workbook(io.BytesIO(xlsx)).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == ["Platz", "Name", "Verein", "Wertung", "Preis", "Betrag"]
    assert rows[1][:4] == (1, "P 2", club_a_short(event), "Gesamtwertung")
    assert rows[1][5] == 37.5 and sheet.cell(2, 6).number_format == '#,##0.00 "€"'


def club_a_short(event):
    return event.club.short_name or None


def test_the_pdf_says_provisional(club_a, organiser_a):
    event, people = make_event(club_a, players=4)
    add_series(event, people, HANDS, status="entered")
    services.save_plan(
        organiser_a, event, confirmed=True,
        lines=[{"competition": "overall", "place": 1, "amount": "10"}],
    )  # fmt: skip
    with translation.override("de"):
        pdf, _name, _type = render_export("prize-list", event, "pdf")
    assert "VORLÄUFIG" in " ".join(page_texts(pdf))


def _resave(actor, plan, **changes):
    """The plan saved again through the service (which clears the public cache)."""
    fields = {
        "lines": plan.prizes, "one_prize_per_player": plan.one_prize_per_player,
        "precedence": plan.precedence, "costs": plan.costs, "costs_note": plan.costs_note,
        "public_winners": plan.public_winners, "public_amounts": plan.public_amounts,
    }  # fmt: skip
    services.save_plan(actor, plan.event, confirmed=True, **{**fields, **changes})


def test_the_public_page_with_and_without_amounts(client, cup, organiser_a):
    event, _people = cup
    url = reverse("prizes:public_prizes", args=[event.pk])
    page = client.get(url, **DE).content.decode()
    assert "Preisträger" in page and "P 2" in page and "Präsentkorb" in page
    assert "37,50" not in page and "Betrag" not in page
    assert client.get(url, **DE).content.decode() == page  # the cached copy, same page
    _resave(organiser_a, event.prize_plan, public_amounts=True)
    page = client.get(url, **DE).content.decode()
    assert "37,50\xa0€" in page
    # The public standings link to the winners while they are shown, and not after.
    standings = reverse("standings:public", args=[event.pk])
    assert url in client.get(standings, **DE).content.decode()
    _resave(organiser_a, event.prize_plan, public_winners=False)
    assert client.get(url, **DE).status_code == 404
    assert url not in client.get(standings, **DE).content.decode()


def test_the_public_page_counts_published_series_only(client, club_a, organiser_a):
    event, people = make_event(club_a, players=4)
    add_series(event, people, HANDS, published=False)
    services.save_plan(
        organiser_a, event, confirmed=True,
        lines=[{"competition": "overall", "place": 1, "amount": "10"}],
    )  # fmt: skip
    page = client.get(reverse("prizes:public_prizes", args=[event.pk]), **DE).content.decode()
    assert "P 4" not in page and "VORLÄUFIG" in page


def _plan(actor, event):
    services.save_plan(
        actor, event, confirmed=True, one_prize_per_player=True,
        lines=[{"competition": "overall", "place": n, "amount": "5"} for n in (1, 2, 3)]
        + [{"competition": "series", "place": 1, "amount": "2"},
           {"competition": "pairs", "place": 1, "item": "Pokal"}],
    )  # fmt: skip


@pytest.mark.parametrize(("players", "series"), [(8, 2), (40, 2), (40, 4)])
def test_the_list_reads_the_same_queries_however_large_the_field(
    club_a, organiser_a, players, series, django_assert_num_queries
):
    event = generated(club_a, players, series=series, pairs=2)
    _plan(organiser_a, event)
    event.refresh_from_db()
    prize_list(event)  # a tie may need the lots seed: drawn once, the first time
    # plan, categories, who is ineligible, the standings of every scope from one read
    # (series, aggregate, participants, groups), the fees and the payments: as many with
    # four series paid as with two.
    with django_assert_num_queries(QUERIES) as captured:
        listing = prize_list(event)
    assert len(captured.captured_queries) == QUERIES
    paid = {row.competition for row in listing.rows}
    assert {"overall", "series"} <= paid


QUERIES = 9
