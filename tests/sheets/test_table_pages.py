"""The phone page behind a table link and the director's page of the links (issue 16)."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Hand, Sheet, TableHand
from scoring.sheets.table import links as table_links
from tests.factories import user_with_role
from tests.sheets.conftest import make_series, random_grid

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(club_a, organiser_a):
    series, made = make_series(club_a, tables=2, rounds=1)
    links = {x.table.number: x for x in table_links.create_table_links(organiser_a, series)}
    return series, made, links


def _url(link, name="table_phone"):
    return reverse(f"scoring:{name}", kwargs={"token": link.token})


def _seated(link, seat):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    response = client.post(_url(link, "table_seat"), {"code": link.seat_codes[seat]})
    assert response.status_code == 302
    return client


def _post_hand(grid_hand, client_id, **extra):
    data = {"client_id": client_id, "winner": str(grid_hand["winner"] + 1), **extra}
    if grid_hand.get("hand_romme"):
        data["romme"] = "1"
    for k, seat in enumerate(grid_hand["seats"], start=1):
        if k - 1 != grid_hand["winner"]:
            data[f"points-{k}"] = str(seat["hand_points"])
    return data


def test_the_phone_page_asks_for_a_seat_code_then_enters_a_hand(tables):
    _series, made, links = tables
    link = links[1]
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    page = client.get(_url(link))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Anna Müller" in html and 'id="seat-form"' in html and "hand-form" not in html
    for code in link.seat_codes:  # the codes are never shown to the phones
        assert code not in html
    wrong = client.post(_url(link, "table_seat"), {"code": "QQQQ"})
    assert wrong.status_code == 400
    client = _seated(link, 0)
    page = client.get(_url(link)).content.decode()
    assert 'inputmode="numeric"' in page and 'id="hand-form"' in page
    hand = random_grid(hands=1, seed=3)["hands"][0]
    response = client.post(_url(link, "table_hand"), _post_hand(hand, "c1c1c1c1c1"))
    assert response.status_code == 302
    again = client.post(
        _url(link, "table_hand"),
        _post_hand(hand, "c1c1c1c1c1"),
        HTTP_ACCEPT="application/json",
    )
    assert again.status_code == 200 and again.json()["created"] is False
    assert Hand.objects.filter(sheet__table=made[0]).count() == 1
    assert TableHand.objects.count() == 1


def test_a_hand_that_breaks_a_rule_gets_the_sheets_german_message(tables):
    _series, made, links = tables
    client = _seated(links[1], 0)
    data = {"client_id": "badbadbad1", "winner": "1", "points-2": "0", "points-3": "0"}
    data["points-4"] = "0"
    response = client.post(_url(links[1], "table_hand"), data, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors and all("Tisch 1" in e for e in errors), errors
    assert not Sheet.objects.filter(table=made[0]).exists()


def test_a_token_shows_its_own_table_only(tables):
    _series, _made, links = tables
    page = Client().get(_url(links[2])).content.decode()
    assert "Anna Müller" not in page  # table 1's players
    # A seat code of table 1 is no seat at table 2.
    other = next(c for c in links[1].seat_codes if c not in links[2].seat_codes)
    response = Client().post(_url(links[2], "table_seat"), {"code": other})
    assert response.status_code == 400


def test_closed_links_answer_with_a_plain_german_page(tables, organiser_a):
    series, _made, links = tables
    missing = Client(HTTP_ACCEPT_LANGUAGE="de").get("/t/nothing-like-this/")
    assert missing.status_code == 404 and "Tisch-Link" in missing.content.decode()
    table_links.revoke_table_link(organiser_a, links[1])
    revoked = Client(HTTP_ACCEPT_LANGUAGE="de").get(_url(links[1]))
    assert revoked.status_code == 403 and "gesperrt" in revoked.content.decode()
    post = Client().post(_url(links[1], "table_hand"), {"client_id": "x" * 10})
    assert post.status_code == 403
    series.status = "complete"
    series.save()
    expired = Client(HTTP_ACCEPT_LANGUAGE="de").get(_url(links[2]))
    assert expired.status_code == 410 and "Serie" in expired.content.decode()


def test_wrong_seat_codes_are_throttled(tables):
    _series, _made, links = tables
    client = Client()
    for _ in range(table_links.CODE_TRIES_PER_MINUTE):
        assert client.post(_url(links[1], "table_seat"), {"code": "QQQQ"}).status_code == 400
    right = client.post(_url(links[1], "table_seat"), {"code": links[1].seat_codes[0]})
    assert right.status_code == 429


def test_two_seats_enter_and_confirm_the_series(tables):
    _series, made, links = tables
    link = links[1]
    writer, checker = _seated(link, 0), _seated(link, 2)
    grid = random_grid(hands=4, seed=21)
    for n, hand in enumerate(grid["hands"], start=1):
        extra = {"first_dealer": "1"} if n == 1 else {}
        response = writer.post(_url(link, "table_hand"), _post_hand(hand, f"hand-{n:06d}", **extra))
        assert response.status_code == 302, response.content.decode()[:2000]
    page = checker.get(_url(link)).content.decode()
    assert page.count("confirm-hand") == 4
    assert checker.post(_url(link, "table_confirm"), {"number": "1"}).status_code == 302
    # The writer's phone, handed to seat 2 with its code, confirms the rest.
    response = writer.post(_url(link, "table_confirm"), {"code": link.seat_codes[1]})
    assert response.status_code == 302
    sheet = Sheet.objects.get(table=made[0])
    assert sheet.status == Sheet.Status.CONFIRMED


def test_directors_see_links_progress_and_lock_a_table(client, tables, organiser_a, club_a):
    series, _made, links = tables
    client.force_login(organiser_a)
    page = client.get(reverse("scoring:table_links", args=[series.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and "data:image/png;base64," in html
    assert links[1].seat_codes[0] in html and links[1].token in html
    response = client.post(reverse("scoring:table_link_revoke", args=[series.pk, links[1].pk]))
    assert response.status_code == 302
    links[1].refresh_from_db()
    assert links[1].revoked_at is not None
    scorer = user_with_role(club_a, "scorer", username="nur-schreiber")
    client.force_login(scorer)
    assert client.get(reverse("scoring:table_links", args=[series.pk])).status_code == 403


def test_the_directors_page_reads_a_fixed_number_of_queries(club_a, organiser_a):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.sheets.table import selectors as table_selectors

    counts = []
    for tables_count in (2, 6):
        series, _made = make_series(club_a, tables=tables_count, rounds=1)
        table_links.create_table_links(organiser_a, series)
        with CaptureQueriesContext(connection) as queries:
            rows = table_selectors.series_links(series)
        assert len(rows) == tables_count
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_director_sees_both_versions_and_settles_the_hand(client, tables, organiser_a):
    from scoring.sheets.table import entry as table_entry

    series, made, links = tables
    grid = random_grid(hands=4, seed=23, no_winner_rate=0, hand_romme_rate=0)
    hand = {k: grid["hands"][0][k] for k in ("dealer", "winner", "hand_romme", "seats")}
    table_entry.enter_hand(links[1], 0, "page-settle-1", hand)
    theirs = dict(hand, seats=[dict(s, cards=None) for s in hand["seats"]])
    loser = next(i for i in range(4) if i != hand["winner"])
    theirs["seats"][loser]["hand_points"] += 2
    table_entry.dispute_hand(links[1], 1, 1, theirs)
    client.force_login(organiser_a)
    page = client.get(reverse("scoring:table_links", args=[series.pk])).content.decode()
    assert 'id="dispute-1-1"' in page
    response = client.post(
        reverse("scoring:table_hand_settle", args=[series.pk, 1, 1]), {"take": "entry"}
    )
    assert response.status_code == 302
    assert Sheet.objects.get(table=made[0]).status == Sheet.Status.DRAFT


def _disputed(tables, seed):
    """Hand 1 entered by seat 1 and disputed by seat 2 with two more hand points."""
    from scoring.sheets.table import entry as table_entry

    _series, _made, links = tables
    grid = random_grid(hands=4, seed=seed, no_winner_rate=0, hand_romme_rate=0)
    hand = {k: grid["hands"][0][k] for k in ("dealer", "winner", "hand_romme", "seats")}
    table_entry.enter_hand(links[1], 0, f"dispute-{seed}", hand)
    theirs = dict(hand, seats=[dict(s, cards=None) for s in hand["seats"]])
    loser = next(i for i in range(4) if i != hand["winner"])
    theirs["seats"][loser]["hand_points"] += 2
    return hand, theirs, loser


def test_a_dispute_the_rules_refuse_is_told_to_the_seat_and_stores_nothing(tables):
    _series, made, links = tables
    hand, _theirs, loser = _disputed(tables, 41)
    seat_2 = _seated(links[1], 1)
    data = _post_hand(hand, "dispute-bad", number="1")
    data[f"points-{loser + 1}"] = "0"  # a loser with no hand points: two players went out
    answer = seat_2.post(_url(links[1], "table_dispute"), data, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400
    text = " ".join(answer.json()["errors"])
    assert "Tisch 1" in text and "Spiel 1" in text and "Platz" in text
    sheet = Sheet.objects.get(table=made[0])
    assert sheet.status == Sheet.Status.DRAFT
    assert not sheet.versions.filter(kind="blind").exists()
    assert TableHand.objects.get(table=made[0], number=1).status == TableHand.Status.ENTERED


def test_settling_a_version_the_rules_refuse_names_the_problem(client, tables, organiser_a):
    """A dispute stored before the rules checked disputes (or under other rules): the
    director's choice of it is refused in German, and the hand stays disputed."""
    from scoring.sheets.policy import latest_blind
    from scoring.sheets.table import entry as table_entry

    series, made, links = tables
    _hand, theirs, loser = _disputed(tables, 43)
    table_entry.dispute_hand(links[1], 1, 1, theirs)
    sheet = Sheet.objects.get(table=made[0])
    blind = latest_blind(sheet)
    blind.grid["hands"][0]["seats"][loser]["hand_points"] = 0
    blind.save(update_fields=["grid"])
    client.force_login(organiser_a)
    url = reverse("scoring:table_hand_settle", args=[series.pk, 1, 1])
    response = client.post(url, {"take": "blind"}, follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Tisch 1" in text and "Spiel 1" in text
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.DISPUTED
    assert TableHand.objects.get(table=made[0], number=1).status == TableHand.Status.DISPUTED


def test_an_empty_hand_is_refused_in_german_and_the_next_hand_goes_in(tables):
    """Before, a hand sent with nothing typed gave a 500, which the phone's queue took for a
    lost network and sent again every few seconds, with every later hand waiting behind it."""
    _series, made, links = tables
    client = _seated(links[1], 0)
    first = random_grid(hands=2, seed=3, no_winner_rate=0)["hands"]
    assert (
        client.post(_url(links[1], "table_hand"), _post_hand(first[0], "empty-1111")).status_code
        == 302
    )
    for data in ({}, {"winner": ""}, {"winner": "", "points-2": " "}):
        fields = {"client_id": "empty-2222", "append_as": "2", **data}
        answer = client.post(_url(links[1], "table_hand"), fields, HTTP_ACCEPT="application/json")
        assert answer.status_code == 400
        errors = answer.json()["errors"]
        assert len(errors) == 4
        assert errors[0].startswith("Tisch 1, Spiel 2, Platz 1 (")
        assert "Augen oder Karten fehlen" in errors[0]
    assert Hand.objects.filter(sheet__table=made[0]).count() == 1
    second = _post_hand(first[1], "empty-3333", append_as="2")
    assert client.post(_url(links[1], "table_hand"), second).status_code == 302
    assert Hand.objects.filter(sheet__table=made[0]).count() == 2


def test_points_typed_for_the_winner_are_refused_not_dropped(tables):
    _series, made, links = tables
    client = _seated(links[1], 0)
    hand = random_grid(hands=1, seed=3, no_winner_rate=0)["hands"][0]
    data = _post_hand(hand, "winner-pts-1")
    data[f"points-{hand['winner'] + 1}"] = "12"
    answer = client.post(_url(links[1], "table_hand"), data, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400
    assert "12" in " ".join(answer.json()["errors"])
    assert not Hand.objects.filter(sheet__table=made[0]).exists()


def test_the_seat_asked_to_confirm_sees_the_hand_romme(tables):
    _series, _made, links = tables
    writer = _seated(links[1], 0)
    hand = random_grid(hands=1, seed=3, no_winner_rate=0, hand_romme_rate=1)["hands"][0]
    assert hand["hand_romme"]
    assert (
        writer.post(_url(links[1], "table_hand"), _post_hand(hand, "romme-1111")).status_code == 302
    )
    page = _seated(links[1], 1).get(_url(links[1])).content.decode()
    decide = page[page.index('id="decide-1"') :]
    decide = decide[: decide.index("</section>")]
    assert '<span class="entry-line hand-romme">Handrommé</span>' in decide


def test_the_directors_pages_name_a_phone_by_its_seat_not_its_user_name(
    client, tables, organiser_a
):
    series, _made, links = tables
    writer = _seated(links[1], 1)
    hand = random_grid(hands=1, seed=3, no_winner_rate=0)["hands"][0]
    assert (
        writer.post(_url(links[1], "table_hand"), _post_hand(hand, "named-1111")).status_code == 302
    )
    client.force_login(organiser_a)
    page = client.get(
        reverse("scoring:sheet_entry", args=[series.pk, 1]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "<td>Platz 2 an Tisch 1 (Handy)</td>" in page  # the versions' table
    assert "tisch1.platz2" not in page


def test_the_second_of_two_confirmers_is_told_who_was_first(client, tables, organiser_a):
    from scoring.sheets import services as sheet_services

    series, made, _links = tables
    grid = random_grid(hands=4, seed=7, no_winner_rate=0)
    first_scorer = user_with_role(series.event.club, "scorer", username="erfasser")
    sheet_services.save_sheet(first_scorer, made[0], grid, expected_version=0, submit=True)
    sheet_services.confirm_sheet(organiser_a, made[0], grid, expected_version=1)
    late = user_with_role(series.event.club, "scorer", username="spaet")
    from django.core.exceptions import ValidationError
    from django.utils import translation

    with translation.override("de"), pytest.raises(ValidationError) as refused:
        sheet_services.confirm_sheet(late, made[0], grid, expected_version=1)
    assert f"{organiser_a.username} hat diese Liste schon bestätigt (" in refused.value.messages[0]
