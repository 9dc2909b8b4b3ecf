"""Table links and hands entered on phones (issue 16): idempotent saves, one table per token,
closed links, confirmation by another seat, disputes into the director's flow."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from scoring.models import Hand, HandSeat, Sheet, SheetVersion, TableHand, TableLink
from scoring.sheets import disputes, services
from scoring.sheets.table import entry as table_entry
from scoring.sheets.table import links as table_links
from scoring.sheets.table.links import LinkClosed, TooManyTries
from tests.sheets.conftest import make_series, random_grid

pytestmark = pytest.mark.django_db


def _hand(grid, n):
    hand = dict(grid["hands"][n - 1])
    return {k: hand[k] for k in ("dealer", "winner", "hand_romme", "seats")}


def _links(organiser, series):
    return {link.table.number: link for link in table_links.create_table_links(organiser, series)}


def _enter_all(link, grid, writer=0):
    for n in range(1, len(grid["hands"]) + 1):
        table_entry.enter_hand(link, writer, f"client-{n:04d}", _hand(grid, n))


def test_directors_create_one_link_per_table_with_distinct_seat_codes(club_a, organiser_a):
    series, tables = make_series(club_a, tables=3, rounds=1)
    links = _links(organiser_a, series)
    assert sorted(links) == [1, 2, 3]
    link = links[1]
    assert len(link.token) >= 32 and len(set(link.seat_codes)) == 4
    assert all(len(c) == 4 and set(c) <= set(table_links.CODE_ALPHABET) for c in link.seat_codes)
    # Running it again makes no second live link.
    assert table_links.create_table_links(organiser_a, series) == []
    table_links.revoke_table_link(organiser_a, link)
    again = table_links.create_table_links(organiser_a, series)
    assert [x.table_id for x in again] == [tables[0].pk] and again[0].token != link.token
    assert TableLink.objects.filter(table=tables[0]).count() == 2  # the revoked one is kept


def test_only_organisers_make_and_revoke_links(club_a, scorer_a, organiser_a):
    series, _tables = make_series(club_a, tables=1, rounds=1)
    with pytest.raises(PermissionDenied):
        table_links.create_table_links(scorer_a, series)
    link = _links(organiser_a, series)[1]
    with pytest.raises(PermissionDenied):
        table_links.revoke_table_link(scorer_a, link)


def test_a_resend_with_the_same_client_id_never_duplicates(club_a, organiser_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = _links(organiser_a, series)[1]
    grid = random_grid(hands=4, seed=5)
    first = table_entry.enter_hand(link, 0, "abcdefgh-1", _hand(grid, 1))
    again = table_entry.enter_hand(link, 0, "abcdefgh-1", _hand(grid, 1))
    assert first.created and not again.created and again.entry.pk == first.entry.pk
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.version == 1 and sheet.status == Sheet.Status.DRAFT
    assert Hand.objects.filter(sheet=sheet).count() == 1
    assert TableHand.objects.count() == 1


def test_a_hand_that_breaks_a_rule_is_refused_with_the_sheets_problems(club_a, organiser_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = _links(organiser_a, series)[1]
    hand = _hand(random_grid(hands=1, seed=2), 1)
    hand["seats"] = [dict(s, hand_points=0) for s in hand["seats"]]  # everyone went out
    with pytest.raises(services.SheetInvalid) as err:
        table_entry.enter_hand(link, 0, "bad-hand-01", hand)
    assert err.value.problems
    assert not Sheet.objects.filter(table=tables[0]).exists()


def test_the_table_confirms_and_the_sheet_counts_like_a_typed_one(club_a, organiser_a):
    series, tables = make_series(club_a, tables=2, rounds=1)
    links = _links(organiser_a, series)
    grid = random_grid(hands=4, seed=7)
    _enter_all(links[1], grid, writer=0)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.ENTERED
    # The writer cannot confirm its own hands.
    assert table_entry.confirm_hands(links[1], 0) == 0
    with pytest.raises(ValidationError):
        table_entry.confirm_hands(links[1], 0, [1])
    assert table_entry.confirm_hands(links[1], 2, [1, 2]) == 2
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.ENTERED
    before = series.event.__class__.objects.get(pk=series.event_id).results_version
    assert table_entry.confirm_hands(links[1], 1) == 2
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.CONFIRMED
    # the public figures changed: the results version says so (cached pages follow)
    assert series.event.__class__.objects.get(pk=series.event_id).results_version == before + 1
    assert sheet.confirmed_by_id != sheet.entered_by_id
    assert not sheet.confirmed_by.is_active and not sheet.confirmed_by.has_usable_password()
    kinds = list(sheet.versions.order_by("number").values_list("kind", flat=True))
    assert kinds == ["draft", "draft", "draft", "entry", "confirmation"]
    # The same stored rows as the director's typed sheet of the same grid.
    services.save_sheet(organiser_a, tables[1], grid, expected_version=0, submit=True)
    phone = list(
        HandSeat.objects.filter(hand__sheet__table=tables[0])
        .order_by("hand__number", "position")
        .values_list("points", "held_points")
    )
    typed = list(
        HandSeat.objects.filter(hand__sheet__table=tables[1])
        .order_by("hand__number", "position")
        .values_list("points", "held_points")
    )
    assert phone == typed and len(phone) == 16
    # Closed: nothing more is written through the link.
    with pytest.raises(ValidationError):
        table_entry.enter_hand(links[1], 1, "late-hand-01", _hand(grid, 1), number=1)


def test_a_token_reaches_its_own_table_only(club_a, organiser_a):
    series, tables = make_series(club_a, tables=2, rounds=1)
    links = _links(organiser_a, series)
    grid = random_grid(hands=4, seed=9)
    table_entry.enter_hand(links[1], 0, "table-one-1", _hand(grid, 1))
    assert not Sheet.objects.filter(table=tables[1]).exists()
    # The seat code of table 2 is no seat at table 1.
    assert table_links.seat_for_code(links[1], links[2].seat_codes[0]) is None or (
        links[1].seat_codes[0] == links[2].seat_codes[0]
    )
    # A hand of table 1 cannot be confirmed through table 2's link.
    assert table_entry.confirm_hands(links[2], 1) == 0
    assert TableHand.objects.get().status == TableHand.Status.ENTERED


def test_revoked_and_expired_links_write_nothing(club_a, organiser_a):
    series, _tables = make_series(club_a, tables=2, rounds=1)
    links = _links(organiser_a, series)
    hand = _hand(random_grid(hands=1, seed=4), 1)
    table_links.revoke_table_link(organiser_a, links[1])
    with pytest.raises(LinkClosed) as err:
        table_entry.enter_hand(links[1], 0, "revoked-01", hand)
    assert err.value.reason == "revoked"
    series.status = "complete"
    series.save()
    with pytest.raises(LinkClosed) as err:
        table_entry.enter_hand(links[2], 0, "expired-01", hand)
    assert err.value.reason == "expired"
    assert not Sheet.objects.exists()


def test_wrong_seat_codes_are_rate_limited(club_a, organiser_a):
    series, _tables = make_series(club_a, tables=1, rounds=1)
    link = _links(organiser_a, series)[1]
    assert table_links.seat_for_code(link, link.seat_codes[2].lower()) == 2
    for _ in range(table_links.CODE_TRIES_PER_MINUTE):
        assert table_links.seat_for_code(link, "0000") is None
    with pytest.raises(TooManyTries):
        table_links.seat_for_code(link, link.seat_codes[2])


def test_a_writer_corrects_an_unconfirmed_hand_but_not_a_confirmed_one(club_a, organiser_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = _links(organiser_a, series)[1]
    grid = random_grid(hands=4, seed=11)
    other = random_grid(hands=4, seed=12)
    table_entry.enter_hand(link, 0, "hand-one-a", _hand(grid, 1))
    table_entry.enter_hand(link, 0, "hand-one-b", _hand(other, 1), number=1)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.version == 2 and Hand.objects.filter(sheet=sheet).count() == 1
    rows = TableHand.objects.order_by("pk")
    assert [r.status for r in rows] == ["replaced", "entered"]
    table_entry.confirm_hands(link, 3, [1])
    with pytest.raises(ValidationError, match="confirmed already"):
        table_entry.enter_hand(link, 0, "hand-one-c", _hand(grid, 1), number=1)


def test_a_disagreeing_seat_puts_the_sheet_into_the_directors_dispute(club_a, organiser_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = _links(organiser_a, series)[1]
    grid = random_grid(hands=4, seed=13)
    _enter_all(link, grid, writer=0)
    theirs = _hand(grid, 2)
    loser = next(i for i in range(4) if i != theirs["winner"])
    theirs["seats"] = [dict(s) for s in theirs["seats"]]
    theirs["seats"][loser]["hand_points"] = (theirs["seats"][loser]["hand_points"] or 0) + 3
    theirs["seats"][loser]["cards"] = None
    with pytest.raises(ValidationError, match="same as the stored"):
        table_entry.dispute_hand(link, 1, 2, _hand(grid, 2))
    table_entry.dispute_hand(link, 1, 2, theirs)
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.DISPUTED
    assert sheet.versions.filter(kind=SheetVersion.Kind.BLIND).count() == 1
    # The stored content is the writer's, untouched; nothing more is written by phone.
    with pytest.raises(ValidationError, match="disputed"):
        table_entry.confirm_hands(link, 2)
    # The director resolves it with the usual flow.
    disputes.resolve_dispute(
        organiser_a, tables[0], grid, expected_version=sheet.version, reason="Papier"
    )
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.resolved_by == organiser_a


def test_two_phones_never_overwrite_each_others_hand(club_a, organiser_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = _links(organiser_a, series)[1]
    grid = random_grid(hands=4, seed=17)
    table_entry.enter_hand(link, 0, "phone-a-01", _hand(grid, 1), append_as=1)
    # Phone B showed "hand 1" too: its hand is refused, not stored as hand 2.
    with pytest.raises(ValidationError, match="meanwhile"):
        table_entry.enter_hand(link, 1, "phone-b-01", _hand(grid, 2), append_as=1)
    # Nor may seat 2 replace seat 1's hand: it disputes instead.
    with pytest.raises(ValidationError, match="Only the seat that wrote"):
        table_entry.enter_hand(link, 1, "phone-b-02", _hand(grid, 2), number=1)
    assert Hand.objects.filter(sheet__table=tables[0]).count() == 1


def test_a_director_settles_a_hand_and_the_table_plays_on(club_a, organiser_a, scorer_a):
    series, tables = make_series(club_a, tables=1, rounds=1)
    link = _links(organiser_a, series)[1]
    grid = random_grid(hands=4, seed=19, no_winner_rate=0, hand_romme_rate=0)
    table_entry.enter_hand(link, 0, "settle-h1", _hand(grid, 1))
    theirs = _hand(grid, 1)
    loser = next(i for i in range(4) if i != theirs["winner"])
    theirs["seats"] = [dict(s) for s in theirs["seats"]]
    theirs["seats"][loser]["hand_points"] += 4
    theirs["seats"][loser]["cards"] = None
    table_entry.dispute_hand(link, 2, 1, theirs)
    with pytest.raises(PermissionDenied):
        table_entry.settle_hand(scorer_a, tables[0], 1, "blind")
    table_entry.settle_hand(organiser_a, tables[0], 1, "blind")
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == Sheet.Status.DRAFT and sheet.resolved_by == organiser_a
    stored = HandSeat.objects.get(hand__sheet=sheet, hand__number=1, position=loser)
    assert stored.hand_points == theirs["seats"][loser]["hand_points"]
    assert TableHand.objects.get(number=1).status == TableHand.Status.CONFIRMED
    # The table plays on and confirms the rest; the sheet is confirmed as usual.
    for n in range(2, 5):
        table_entry.enter_hand(link, 1, f"settle-h{n}", _hand(grid, n))
    assert table_entry.confirm_hands(link, 3) == 3
    sheet.refresh_from_db()
    assert sheet.status == Sheet.Status.CONFIRMED and sheet.confirmed_by_id != sheet.entered_by_id
