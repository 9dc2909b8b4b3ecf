"""Sheet changes in live results (issue 38): every write that names the one sheet it
changed (``sheet_table`` of `tournaments.results`) changes no other part of the event, and
a push whose changes all name one dumps only those sheets, yet leaves the server equal to
the laptop."""

import pytest
from django.db import transaction

from clubs.permissions import ORGANISER
from live import receivers
from live.laptop import dumps, outbox, sender
from live.laptop.services import pair, set_sending
from live.models import LiveChange, LiveLink
from live.shared import protocol
from live.shared.parts import KeptDumps, KeptVersions, event_parts, fingerprints, sheet_parts
from scoring.models import Sheet
from scoring.sheets import disputes, services
from scoring.sheets.table import entry as table_entry
from scoring.sheets.table import links as table_links
from tests.factories import user_with_role
from tests.live.laptop.test_outbox_sender import change_venue
from tests.sheets.conftest import make_series, random_grid
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def outbox_connected(monkeypatch):
    receivers.connect()
    # A sender's memory of its dumps starts empty (event ids return in rolled-back tests).
    monkeypatch.setattr(dumps, "_KEPT", KeptVersions(events=2, make=KeptDumps))


@pytest.fixture
def people(club_a):
    return (
        user_with_role(club_a, ORGANISER, username="leitung"),
        user_with_role(club_a, "scorer", username="helfer1"),
        user_with_role(club_a, "scorer", username="helfer2"),
    )


def _linked(series):
    LiveLink.objects.create(
        event=series.event, server_url="https://ergebnisse.example", token="tok-123"
    )
    return Event.objects.get(pk=series.event_id)


def _prints(event):
    return fingerprints(event_parts(event))


def _touches_only_its_sheet(event, table, write):
    """Runs ``write``; asserts that it changed no part but the sheet of ``table`` and
    numbered its changes naming that table (a hand confirmed at the table while the sheet
    is not yet confirmed changes no part and numbers none)."""
    before, last = _prints(event), LiveChange.objects.order_by("-pk").first()
    write()
    after = _prints(event)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    key = protocol.sheet_key(table.series.number, table.number)
    assert changed <= {key}, changed
    numbered = set(
        LiveChange.objects.filter(pk__gt=last.pk if last else 0).values_list(
            "sheet_table", flat=True
        )
    )
    assert numbered == {table.pk} or (not changed and not numbered)


def _hand(grid, n):
    return {k: grid["hands"][n - 1][k] for k in ("dealer", "winner", "hand_romme", "seats")}


def test_the_director_s_sheet_writes_touch_only_their_sheet(club_a, people):
    director, first, second = people
    series, tables = make_series(club_a, tables=2, rounds=1)
    event = _linked(series)
    table = tables[0]
    grid = random_grid(hands=4, seed=3)
    other = random_grid(hands=4, seed=4)

    def save(actor, grid, version, **kwargs):
        return lambda: services.save_sheet(actor, table, grid, expected_version=version, **kwargs)

    _touches_only_its_sheet(event, table, save(first, {**grid, "hands": grid["hands"][:2]}, 0))
    _touches_only_its_sheet(event, table, save(first, grid, 1, submit=True))
    _touches_only_its_sheet(
        event,
        table,
        lambda: services.confirm_sheet(second, table, grid, expected_version=2),
    )
    _touches_only_its_sheet(event, table, save(director, other, 3, submit=True, reason="Papier"))


def test_a_blind_confirmation_and_its_dispute_touch_only_their_sheet(club_a, people):
    director, first, second = people
    series, tables = make_series(club_a, tables=2, rounds=1, blind=True)
    event = _linked(series)
    grid, other = random_grid(hands=4, seed=5), random_grid(hands=4, seed=6)
    for table in tables:
        services.save_sheet(first, table, grid, expected_version=0, submit=True)
    agree, differ = tables

    def blind(table, grid):
        return lambda: services.blind_confirm(second, table, grid, expected_version=1)

    _touches_only_its_sheet(event, agree, blind(agree, grid))
    _touches_only_its_sheet(event, differ, blind(differ, other))
    assert Sheet.objects.get(table=differ).status == Sheet.Status.DISPUTED
    _touches_only_its_sheet(
        event,
        differ,
        lambda: disputes.resolve_dispute(
            director, differ, grid, expected_version=2, reason="Papier"
        ),
    )


def test_hands_typed_at_the_table_touch_only_their_sheet(club_a, people):
    director, _first, _second = people
    series, tables = make_series(club_a, tables=2, rounds=1)
    event = _linked(series)
    table = tables[0]
    link = table_links.create_table_links(director, series)[0]
    assert link.table_id == table.pk
    grid = random_grid(hands=4, seed=13)
    for n in range(1, 5):
        _touches_only_its_sheet(
            event,
            table,
            lambda n=n: table_entry.enter_hand(link, 0, f"client-{n:04d}", _hand(grid, n)),
        )
    _touches_only_its_sheet(event, table, lambda: table_entry.confirm_hands(link, 2, [1]))
    theirs = _hand(grid, 2)
    loser = next(i for i in range(4) if i != theirs["winner"])
    theirs["seats"] = [dict(s) for s in theirs["seats"]]
    theirs["seats"][loser]["hand_points"] = (theirs["seats"][loser]["hand_points"] or 0) + 3
    theirs["seats"][loser]["cards"] = None
    _touches_only_its_sheet(event, table, lambda: table_entry.dispute_hand(link, 1, 2, theirs))
    _touches_only_its_sheet(
        event, table, lambda: table_entry.settle_hand(director, table, 2, "entry")
    )
    _touches_only_its_sheet(event, table, lambda: table_entry.confirm_hands(link, 1))
    assert Sheet.objects.get(table=table).status == Sheet.Status.CONFIRMED


def test_sheet_parts_are_the_whole_dump_s_sheets(club_a, people):
    _director, first, second = people
    series, tables = make_series(club_a, tables=3, rounds=1)
    event = Event.objects.get(pk=series.event_id)
    grid = random_grid(hands=4, seed=8)
    services.save_sheet(first, tables[0], grid, expected_version=0, submit=True)
    services.confirm_sheet(second, tables[0], grid, expected_version=1)
    services.save_sheet(first, tables[1], grid, expected_version=0)
    whole = event_parts(event)
    ids = [t.pk for t in tables]
    keys = [protocol.sheet_key(1, t.number) for t in tables]
    expected = {key: whole.get(key) for key in keys}  # table 3 has no sheet: None
    assert sheet_parts(event, ids) == expected
    kept = {}
    assert sheet_parts(event, ids, kept) == expected and kept  # the versions kept
    assert sheet_parts(event, ids, kept) == expected  # and read from there
    assert sheet_parts(event, [*ids, 10**9]) is None  # a table not the event's


# ----- the sender --------------------------------------------------------------------------


@pytest.fixture
def whole_dumps(monkeypatch):
    """The number of whole dumps the sender made."""
    made = []
    real = dumps.event_parts

    def counted(event, *args, **kwargs):
        made.append(event.pk)
        return real(event, *args, **kwargs)

    monkeypatch.setattr(dumps, "event_parts", counted)
    return made


def _server_equal(server, event):
    assert server.parts == event_parts(event)
    assert server.last_seq == LiveLink.objects.get(event=event).next_seq - 1


def test_a_push_of_sheet_changes_dumps_only_those_sheets(club_a, people, server, whole_dumps):
    director, first, second = people
    series, tables = make_series(club_a, tables=3, rounds=1)
    event = _linked(series)
    assert sender.push(event).state == "done" and len(whole_dumps) == 1
    grid = random_grid(hands=4, seed=9)
    services.save_sheet(first, tables[0], grid, expected_version=0, submit=True)
    services.confirm_sheet(second, tables[0], grid, expected_version=1)
    services.save_sheet(first, tables[1], grid, expected_version=0)
    result = sender.push(event)
    assert result.state == "done" and len(whole_dumps) == 1  # no whole dump
    assert sorted(result.keys) == ["sheet:1:1", "sheet:1:2"]
    _server_equal(server, event)
    # A change that may touch anything: the whole event.
    change_venue(director, event, "Stadthalle")
    result = sender.push(event)
    assert result.state == "done" and len(whole_dumps) == 2 and result.keys == ["event"]
    _server_equal(server, event)


def test_the_whole_event_is_dumped_again_after_a_while(
    club_a, people, server, whole_dumps, monkeypatch
):
    _director, first, _second = people
    series, tables = make_series(club_a, tables=2, rounds=1)
    event = _linked(series)
    now = [1000.0]
    monkeypatch.setattr(dumps, "_clock", lambda: now[0])
    sender.push(event)
    grid = random_grid(hands=4, seed=10)
    services.save_sheet(first, tables[0], grid, expected_version=0)
    now[0] += dumps.WHOLE_EVERY_S + 1
    assert sender.push(event).state == "done" and len(whole_dumps) == 2
    services.save_sheet(first, tables[1], grid, expected_version=0)
    assert sender.push(event).state == "done" and len(whole_dumps) == 2  # recent again
    _server_equal(server, event)


def test_sending_switched_on_again_dumps_the_whole_event(club_a, people, server, whole_dumps):
    director, first, _second = people
    series, tables = make_series(club_a, tables=2, rounds=1)
    event = _linked(series)
    sender.push(event)
    set_sending(director, event, False)
    change_venue(director, event, "Stadthalle")  # numbered nowhere
    set_sending(director, event, True)
    services.save_sheet(first, tables[0], random_grid(hands=4, seed=11), expected_version=0)
    result = sender.push(event)
    assert result.state == "done" and len(whole_dumps) == 2
    assert set(result.keys) == {"event", "sheet:1:1"}
    _server_equal(server, event)
    # The same when pairing again switches it on.
    set_sending(director, event, False)
    change_venue(director, event, "Bürgerhaus")
    pair(director, event, server_url="https://ergebnisse.example", token=None)
    services.save_sheet(first, tables[1], random_grid(hands=4, seed=12), expected_version=0)
    result = sender.push(event)
    assert result.state == "done" and len(whole_dumps) == 3
    assert set(result.keys) == {"event", "sheet:1:2"}
    _server_equal(server, event)


def test_a_sheet_gone_from_a_named_table_is_removed(club_a, people, server, whole_dumps):
    _director, first, _second = people
    series, tables = make_series(club_a, tables=2, rounds=1)
    event = _linked(series)
    services.save_sheet(first, tables[0], random_grid(hands=4, seed=12), expected_version=0)
    sender.push(event)
    assert "sheet:1:1" in server.parts
    with transaction.atomic():
        Sheet.objects.filter(table=tables[0]).delete()
        outbox.add_change(event.pk, sheet_table=tables[0].pk)
    result = sender.push(event)
    assert result.state == "done" and result.removed == 1 and len(whole_dumps) == 1
    _server_equal(server, event)
    # A named table that is gone: the whole event.
    with transaction.atomic():
        outbox.add_change(event.pk, sheet_table=10**9)
    assert sender.push(event).state == "done" and len(whole_dumps) == 2
    _server_equal(server, event)
