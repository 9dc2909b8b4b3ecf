"""A phone's hand writes its own rows only (issue 16, load): the other hands' rows stay, and
the stored rows and totals are those a full rewrite of the sheet would give."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Hand, HandSeat, SeatTotal, Sheet
from scoring.sheets import services, storage
from scoring.sheets.table import entry as table_entry
from scoring.sheets.table import links as table_links
from tests.sheets.conftest import make_series, random_grid

pytestmark = pytest.mark.django_db


def _hand(grid, n):
    return {k: grid["hands"][n - 1][k] for k in ("dealer", "winner", "hand_romme", "seats")}


def _snapshot(sheet):
    seats = HandSeat.objects.filter(hand__sheet=sheet).order_by("hand__number", "position")
    totals = SeatTotal.objects.filter(sheet=sheet).order_by("position")
    return (
        list(seats.values_list("hand__number", "position", "points", "held_points", "hand_points")),
        list(totals.values_list("position", "points", "lost_hand_points", "hands_won")),
    )


def test_a_phone_hand_rewrites_its_own_rows_only(club_a, organiser_a):
    series, _tables = make_series(club_a, tables=1, rounds=3)
    link = table_links.create_table_links(organiser_a, series)[0]
    grid = random_grid(hands=12, seed=8)
    queries = []
    for n in range(1, 13):
        before = set(Hand.objects.filter(sheet__table=link.table).values_list("pk", flat=True))
        with CaptureQueriesContext(connection) as captured:
            table_entry.enter_hand(link, n % 4, f"rows-{n:04d}", _hand(grid, n))
        queries.append(len(captured))
        after = set(Hand.objects.filter(sheet__table=link.table).values_list("pk", flat=True))
        assert before < after and len(after - before) == 1  # the earlier rows stay
    # The query count does not grow with the hands already on the sheet (from hand 5 on
    # every seat's user exists; hand 12 completes the sheet).
    assert len(set(queries[4:11])) == 1, queries
    # A correction of a middle hand replaces that hand's rows only.
    sheet = Sheet.objects.get(table=link.table)
    other = grid["hands"][4]
    fixed = dict(_hand(grid, 5), seats=[dict(s) for s in other["seats"]])
    fixed["winner"] = other["winner"]
    table_entry.enter_hand(link, 5 % 4, "rows-fix-5", fixed, number=5)
    phone_rows = _snapshot(sheet)
    # The same as rewriting all hands from the content version.
    content = services.content_version(sheet)
    participants = services._seats(link.table)
    check = services.check_table_grid(link.table, participants, content.grid)
    storage.store_hands(sheet, check, participants, range(1, 13), series.event.ruleset)
    assert _snapshot(sheet) == phone_rows
    assert Hand.objects.filter(sheet=sheet).count() == 12
