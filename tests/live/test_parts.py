"""live.shared.parts: an event cut into the parts live results send, and put back together so the
archive import rebuilds an equal event."""

import datetime as dt

import pytest

from clubs.models import Player
from live.shared import protocol
from live.shared.parts import assemble, cut, event_parts, fingerprint, fingerprints
from scoring.archive.dump import export_event
from scoring.archive.load import import_event
from scoring.demo.generate import Plan, generate_event
from tests.archive.test_archive import results, roundtrip, wipe
from tests.factories import ClubFactory, MembershipFactory, ParticipantFactory, PlayerFactory
from tournaments.models import Event, Participant, Season, Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """As the archive's tests: two clubs, pairs and a team, series 1-2 confirmed, series 3
    with an entered sheet, a draft and two tables without a sheet, series 4 planned."""
    home = ClubFactory(name="Herz Dame Kassel", short_name="HDK", association_number="17-04")
    guest = ClubFactory(name="Kreuz Bube Fulda", short_name="KBF")
    players = []
    for i in range(14):
        player = PlayerFactory(player_number=f"K{i:04d}", given_name=f"Vorname{i}")
        MembershipFactory(player=player, club=home if i % 3 else guest)
        players.append(player)
    season = Season.objects.create(
        club=home, name="2026", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 12, 31)
    )
    event = generate_event(
        Plan(name="Kasseler Herbstturnier", club=home, players=players, series=4, rounds=1,
             pairs=2, teams=1, confirmed_series=2, entered_tables=1, draft_tables=1,
             season=season)
    )  # fmt: skip
    first, second = Participant.objects.filter(event=event).order_by("pk")[:2]
    Series.objects.filter(event=event, number=1).update(
        draw_violations=[{"code": "same-club", "table": 1, "players": [first.pk, second.pk]}]
    )
    return Event.objects.get(pk=event.pk)


def test_the_parts_of_an_event(event):
    parts = event_parts(event)
    tables = {(t["number"]) for t in parts["series:3"]["tables"]}
    assert tables == {1, 2, 3, 4}
    assert set(parts) == {
        "event", "roster", "series:1", "series:2", "series:3", "series:4",
        *(protocol.sheet_key(s, t) for s in (1, 2) for t in range(1, 5)),
        "sheet:3:1", "sheet:3:2",  # entered and draft; tables 3 and 4 have no sheet
        "section:categories", "section:prizes",
    }  # fmt: skip
    for key in parts:
        protocol.parse_key(key)  # every key is one the protocol knows
    assert parts["sheet:3:1"]["status"] == "entered"
    assert all("sheet" not in t for t in parts["series:1"]["tables"])
    assert set(parts["roster"]) == {"clubs", "players", "participants", "groups"}
    assert parts["event"]["name"] == "Kasseler Herbstturnier"


def test_participants_keep_their_ref_from_one_dump_to_the_next(event):
    ids = list(Participant.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    before = event_parts(event)
    assert [p["ref"] for p in before["roster"]["participants"]] == ids
    seats = before["series:1"]["tables"][0]["seats"]
    assert set(seats) <= set(ids)
    assert before["series:1"]["draw_violations"][0]["players"] == ids[:2]
    # Someone registers late: nobody else's ref moves, so no series part changes.
    ParticipantFactory(event=event, player=PlayerFactory(player_number="Z9999"))
    after = event_parts(event)
    assert [p["ref"] for p in after["roster"]["participants"]][:-1] == ids
    changed = {k for k in after if fingerprint(after.get(k)) != fingerprint(before.get(k))}
    assert changed == {"roster"}


def test_the_archive_file_still_numbers_participants_1_2_3(event):
    data = export_event(event)
    assert [p["ref"] for p in data["participants"]] == list(range(1, 15))
    assert data["series"][0]["draw_violations"][0]["players"] == [1, 2]
    with pytest.raises(ValueError):
        export_event(event, refs="pk")


def test_assemble_is_the_inverse_of_cut(event):
    whole = export_event(event, refs="id")
    again = assemble(cut(whole))
    for document in (whole, again):
        document.pop("exported_at")
        document.pop("exported_from")
    assert again == whole


def test_assembled_parts_import_as_an_equal_event(event):
    before = results(event)
    archive = roundtrip(export_event(event))
    data = roundtrip(assemble(event_parts(event)))
    wipe(event)
    assert not Player.objects.exists()

    new = import_event(data).event

    assert results(new) == before
    rebuilt = roundtrip(export_event(new))
    for document in (rebuilt, archive):
        document.pop("exported_at")
        document.pop("exported_from")
    assert rebuilt == archive


def test_fingerprints_see_any_change_and_nothing_else():
    a = {"x": [1, 2, {"b": "ä", "a": None}]}
    b = {"x": [1, 2, {"a": None, "b": "ä"}]}  # the same, keys in another order
    assert fingerprint(a) == fingerprint(b)
    assert len(fingerprint(a)) == 64
    assert fingerprint(a) != fingerprint({"x": [1, 2, {"b": "a", "a": None}]})
    assert fingerprint([2, 1]) != fingerprint([1, 2])
    assert fingerprints({"event": a}) == {"event": fingerprint(b)}
    # a number orjson does not write (beyond 64 bits) still has a fingerprint, its own
    big = {"x": 2**70}
    assert len(fingerprint(big)) == 64 and fingerprint(big) != fingerprint({"x": 2**70 + 1})
    assert fingerprint({1: "a"}) == fingerprint({"1": "a"})  # keys as JSON writes them


def test_a_sheet_without_its_series_is_left_out(event):
    parts = event_parts(event)
    parts.pop("series:1")
    data = assemble(parts)
    assert [s["number"] for s in data["series"]] == [2, 3, 4]
    with pytest.raises(ValueError):
        assemble({**parts, "nonsense": {}})


def test_a_kept_dump_of_the_versions_reads_only_new_grids_and_stays_equal(event):
    """The sender keeps the versions it dumped (a version never changes): the next dump
    reads only new versions' grids, and equals a dump without what was kept, after a new
    version, a renamed author and a deleted sheet."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.models import Sheet, SheetVersion

    def grid_queries(kept):
        with CaptureQueriesContext(connection) as queries:
            parts = event_parts(event, kept)
        assert parts == event_parts(event)  # the same as a dump without the kept versions
        return [q["sql"] for q in queries.captured_queries if '"grid"' in q["sql"]]

    kept: dict = {}
    assert len(grid_queries(kept)) == 1  # the first dump reads them all
    versions = SheetVersion.objects.filter(sheet__table__series__event=event)
    assert len(kept) == versions.count()
    assert grid_queries(kept) == []  # nothing new: no grid read at all

    sheet = Sheet.objects.get(table__series__event=event, table__series__number=3, status="draft")
    last = sheet.versions.order_by("-number").first()
    new = SheetVersion.objects.create(
        sheet=sheet, number=last.number + 1, kind="draft", created_by=last.created_by,
        grid={**last.grid, "first_dealer": 1},
    )  # fmt: skip
    read = grid_queries(kept)
    assert len(read) == 1 and f"IN ({new.pk})" in read[0].replace("'", "")
    assert len(kept) == versions.count()

    author = new.created_by
    author.username = "umbenannt"
    author.save()
    assert grid_queries(kept) == []
    assert event_parts(event, kept)["sheet:3:2"]["versions"][-1]["created_by"] == "umbenannt"

    gone = set(sheet.versions.values_list("pk", flat=True))
    sheet.delete()
    assert grid_queries(kept) == [] and not gone & {pk for pk, _at in kept}
    assert len(kept) == versions.count()


def test_kept_versions_hold_the_last_events_only():
    from live.shared.parts import KeptVersions

    kept = KeptVersions(events=2)
    first = kept.of(1)
    first["x"] = 1
    kept.of(2)
    assert kept.of(1) is first  # asked again: the newest now
    kept.of(3)  # the third event pushes out the one asked longest ago (2)
    assert kept.of(1) is first and kept.of(2) == {}
