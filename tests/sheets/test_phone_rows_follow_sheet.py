"""A phone's hand the director changes on the sheet page is shown to the table as the
director's, never as a confirmation nobody gave (scoring.sheets.phone_rows): the phone row
becomes history; hands the save left as they were keep their state. A resolved dispute
settles every hand it kept."""

import copy

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Sheet, TableHand
from scoring.sheets import disputes, services
from scoring.sheets.table import entry as table_entry
from scoring.sheets.table import links as table_links
from tests.sheets.conftest import make_series, random_grid

pytestmark = pytest.mark.django_db

Status = TableHand.Status


def _hand(grid, n):
    return {k: grid["hands"][n - 1][k] for k in ("dealer", "winner", "hand_romme", "seats")}


def _changed(grid, n, by=3):
    """``grid`` with hand ``n``'s first loser holding ``by`` more points."""
    grid = copy.deepcopy(grid)
    hand = grid["hands"][n - 1]
    loser = next(i for i in range(4) if i != hand["winner"])
    seat = hand["seats"][loser]
    seat["hand_points"], seat["cards"] = (seat.get("hand_points") or 0) + by, None
    return grid


def _states(table):
    rows = TableHand.objects.filter(table=table).exclude(status=Status.REPLACED)
    return {row.number: row.status for row in rows}


def _phone_states(link):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    url = reverse("scoring:table_seat", kwargs={"token": link.token})
    assert client.post(url, {"code": link.seat_codes[2]}).status_code == 302
    html = client.get(reverse("scoring:table_phone", kwargs={"token": link.token})).content
    html = html.decode()
    states = {}
    for n in range(1, 5):
        row = html[html.index(f'<tr data-hand="{n}"') :]
        row = row[: row.index("</tr>")]
        states[n] = row[
            row.index('class="hand-state">') + 19 : row.index("</td>", row.index("hand-state"))
        ]
    return states


@pytest.fixture
def confirmed_by_phones(club_a, organiser_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = table_links.create_table_links(organiser_a, series)[0]
    grid = random_grid(hands=4, seed=21, no_winner_rate=0)
    for n in range(1, 5):
        table_entry.enter_hand(link, 0, f"follow-{n:04d}", _hand(grid, n))
    table_entry.confirm_hands(link, 1)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.CONFIRMED
    return link, tables[0], sheet, services.content_version(sheet).grid


def test_a_correction_of_one_hand_shows_it_as_the_directors_on_the_phone(
    confirmed_by_phones, organiser_a
):
    link, table, sheet, grid = confirmed_by_phones
    assert set(_phone_states(link).values()) == {"✓ bestätigt"}
    services.save_sheet(
        organiser_a, table, _changed(grid, 3), expected_version=sheet.version,
        reason="Zettel nachgezählt",
    )  # fmt: skip
    assert _states(table) == {1: Status.CONFIRMED, 2: Status.CONFIRMED, 4: Status.CONFIRMED}
    assert _phone_states(link) == {
        1: "✓ bestätigt",
        2: "✓ bestätigt",
        3: "von der Turnierleitung geändert",
        4: "✓ bestätigt",
    }


def test_the_same_sheet_saved_again_changes_no_phone_row(confirmed_by_phones, organiser_a):
    _link, table, sheet, grid = confirmed_by_phones
    services.save_sheet(
        organiser_a, table, grid, expected_version=sheet.version, reason="nur angesehen"
    )
    assert _states(table) == dict.fromkeys(range(1, 5), Status.CONFIRMED)


def test_an_open_phone_hand_the_director_changes_is_no_longer_the_tables_to_confirm(
    club_a, organiser_a
):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = table_links.create_table_links(organiser_a, series)[0]
    grid = random_grid(hands=4, seed=22, no_winner_rate=0)
    for n in range(1, 5):
        table_entry.enter_hand(link, 0, f"open-{n:04d}", _hand(grid, n))
    sheet = Sheet.objects.get(table=tables[0])
    services.save_sheet(
        organiser_a, tables[0], _changed(grid, 2), expected_version=sheet.version, submit=True
    )
    assert _states(tables[0]) == {1: Status.ENTERED, 3: Status.ENTERED, 4: Status.ENTERED}
    # The table confirms what it wrote; hand 2 waits for the director's confirmation.
    assert table_entry.confirm_hands(link, 1) == 3
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.ENTERED
    assert _phone_states(link)[2] == "von der Turnierleitung geändert"


def test_a_resolved_dispute_settles_the_hands_it_kept(club_a, organiser_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = table_links.create_table_links(organiser_a, series)[0]
    grid = random_grid(hands=4, seed=23, no_winner_rate=0)
    for n in range(1, 5):
        table_entry.enter_hand(link, 0, f"dispute-{n:04d}", _hand(grid, n))
    table_entry.dispute_hand(link, 1, 2, _hand(_changed(grid, 2), 2))
    assert _states(tables[0])[2] == Status.DISPUTED
    sheet = Sheet.objects.get(table=tables[0])
    # The director takes the disputing seat's hand 2 and keeps the rest.
    disputes.resolve_dispute(
        organiser_a, tables[0], _changed(grid, 2), expected_version=sheet.version,
        reason="Seat 2 hatte recht",
    )  # fmt: skip
    assert _states(tables[0]) == {1: Status.CONFIRMED, 3: Status.CONFIRMED, 4: Status.CONFIRMED}
    phone = _phone_states(link)
    assert phone[2] == "von der Turnierleitung geändert"
    assert [phone[n] for n in (1, 3, 4)] == ["✓ bestätigt"] * 3
