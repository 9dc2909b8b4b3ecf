"""A snapshot's lines as rows (issue 27, point 7): what the rows hold equals the lines,
packed results come back as the documented dicts, the regional rank written with the rows
equals the rules' regional ranking, and the players' official results follow the
approvals (written and removed by the computation)."""

import datetime as dt

import pytest

from federation.lists.selectors import regional
from federation.models import EventVersion, RankingSnapshot
from federation.rankings import compute
from federation.rankings.models import OfficialResult, SnapshotLine
from federation.rankings.snapshot_rows import pack, unpack
from federation.rankings.snapshots import snapshot_lines
from tests.factories import EventFactory, ParticipantFactory
from tests.federation.list_helpers import computed_world, hand_lines, hand_snapshot, person
from tests.federation.status_helpers import approved_version


@pytest.fixture
def world(national, region_a, region_b, affiliation_a, affiliation_b, club_a, club_b):
    return computed_world(national, club_a, club_b)


def fresh(snapshot) -> RankingSnapshot:
    return RankingSnapshot.objects.get(pk=snapshot.pk)  # nothing kept on the instance


def test_the_rows_equal_the_computed_lines(world, region_a, region_b):
    snapshot = fresh(world["snapshot"])
    lines = snapshot.lines
    rows = list(SnapshotLine.objects.filter(snapshot=snapshot).order_by("position"))
    assert [r.position for r in rows] == list(range(len(lines))) and len(rows) == 6
    for row, line in zip(rows, lines, strict=True):
        assert row.line == {k: v for k, v in line.items() if k != "results"}
        assert unpack(row.results, snapshot.events) == line["results"]
        assert (row.player, row.rank, row.listed, row.hidden) == (
            line["player"], line["rank"], line["listed"], line["hidden"])  # fmt: skip
        assert [row.region] == line["regions"]
    # Packed: the facts of an event once in the snapshot, [index, place, points, counted,
    # reason] per result.
    assert len(snapshot.events) == 3 and all(type(r) is list for r in rows[0].results)
    anna = next(ln for ln in lines if ln["name"] == "Anna Albrecht")
    assert anna["results"][0] == {
        "version": world["versions"][2].pk, "event": world["versions"][2].status.event_id,
        "event_name": "Sommerturnier Kassel", "date": "2025-05-01", "place": 1, "field": 5,
        "points": "5.00", "counted": True, "reason": "",
    }  # fmt: skip


def test_hand_made_lines_come_back_unchanged(national, region_a, region_b, member_a, member_b):
    from tests.federation.status_helpers import make_ranking

    ranking = make_ranking(national, "Hand")
    lines = hand_lines(7, region_a, region_b, [member_a, member_b])
    lines[3]["results"].append({"version": 9, "note": "another shape"})  # kept as it is
    # Results naming the same version with other facts stay apart (nothing is merged).
    lines[4]["results"][0] = dict(lines[4]["results"][0], event_name="Anderes Turnier")
    snapshot = hand_snapshot(ranking, lines)
    assert fresh(snapshot).lines == lines
    assert snapshot_lines(fresh(snapshot), region_b.pk) == [
        ln for ln in lines if ln["regions"] == [region_b.pk]
    ]
    assert snapshot_lines(fresh(snapshot), results=False)[4] == {
        k: v for k, v in lines[4].items() if k != "results"
    }


def test_the_regional_rank_of_the_rows_is_the_rules_regional_rank(region_a, region_b):
    def ln(player, rank, region, listed=True):
        return {"player": player, "rank": rank if listed else None, "value": "5",
                "listed": listed, "hidden": False, "regions": [region], "results": []}  # fmt: skip

    a, b = region_a.pk, region_b.pk
    lines = [ln(1, 1, b), ln(2, 2, a), ln(3, 2, a), ln(4, 4, a), ln(5, 5, b), ln(6, 5, a),
             ln(7, 5, b), ln(8, None, a, listed=False)]  # fmt: skip
    _events, rows = pack(1, lines)
    written = {row[2]: row[5] for row in rows}  # player -> region_rank
    for region in (a, b):
        ruled = {x["player"]: x["rank"] if x["listed"] else None for x in regional(lines, region)}
        assert {p: written[p] for p in ruled} == ruled
    assert written == {1: 1, 2: 1, 3: 1, 4: 3, 5: 2, 6: 4, 7: 2, 8: None}


def test_official_results_follow_approvals_and_rejections(world, club_a):
    anna, ranking = world["anna"], world["ranking"]
    rows = OfficialResult.objects.filter(player=anna)
    assert sorted(r.version_id for r in rows) == sorted(v.pk for v in world["versions"])
    assert {r.place for r in rows} == {1, 2}
    # Two years before the ranking date: outside the window, an official result all the same.
    old = EventFactory(club=club_a, name="Altes Turnier", start_date=dt.date(2021, 5, 1))
    ParticipantFactory(event=old, player=anna)
    version = approved_version(ranking, old, [{"player": anna.pk, "place": 3, "score": 0,
                                               "hands": 0}], field_size=9)  # fmt: skip
    snapshot = compute.recompute(ranking, "test")
    assert rows.filter(version=version).get().place == 3
    assert all(ln["player"] != anna.pk or len(ln["results"]) == 3 for ln in snapshot.lines)
    EventVersion.objects.filter(pk=version.pk).update(state=EventVersion.State.REJECTED)
    compute.recompute(ranking, "test")
    assert not rows.filter(version=version).exists()


def test_a_changed_event_date_is_read_again(world):
    """The worker keeps parsed versions between computations; the event's date is part of
    what they are kept under."""
    event = world["versions"][0].status.event
    event.start_date = dt.date(2025, 2, 1)
    event.save()
    lines = compute.recompute(world["ranking"], "date").lines
    dates = {r["date"] for ln in lines for r in ln["results"]}
    assert "2025-02-01" in dates and "2025-03-01" not in dates


def test_a_player_unknown_here_gets_no_official_result(world, club_a):
    dora, ranking = world["dora"], world["ranking"]
    event = EventFactory(club=club_a, name="Mit Fremden", start_date=dt.date(2025, 6, 1))
    ghost = person(club_a, "Geist", "Gast", "X-9")
    rows = [{"player": dora.pk, "place": 1, "score": 0, "hands": 0},
            {"player": ghost.pk, "place": 2, "score": 0, "hands": 0}]  # fmt: skip
    version = approved_version(ranking, event, rows)
    ghost_pk = ghost.pk
    ghost.memberships.all().delete()
    ghost.delete()
    compute.recompute(ranking, "test")
    assert list(OfficialResult.objects.filter(version=version).values_list("player_id",
                flat=True)) == [dora.pk]  # fmt: skip
    assert ghost_pk not in OfficialResult.objects.values_list("player_id", flat=True)
