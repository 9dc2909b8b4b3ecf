"""What the computation keeps between runs in the worker (federation.rankings.compute): a
version's results checked once, checked again when the version or the settings change; a
bad version refused as the whole list would refuse it."""

import datetime as dt

import pytest

from federation.rankings import compute
from rules.ranking import RankingError, check_results
from tests.factories import EventFactory, PlayerFactory
from tests.federation.status_helpers import approved_version, make_ranking


def res(player, place):
    return {"player": player.pk, "place": place, "score": 0, "hands": 10}


@pytest.fixture
def checks(monkeypatch):
    """The versions' results checked, by number of results, in order."""
    seen = []

    def counting(results, settings):
        seen.append(len(results))
        return check_results(results, settings)

    monkeypatch.setattr(compute, "check_results", counting)
    return seen


@pytest.fixture
def ranking(region_a, affiliation_a):
    ranking = make_ranking(region_a, best_n=2, min_events=1)
    ranking.as_of = dt.date(2026, 12, 31)
    ranking.save()
    return ranking


def lines(snapshot):
    return [(ln["player"], ln["rank"], ln["value"], ln["results"]) for ln in snapshot.lines]


def test_a_version_is_checked_once_and_again_when_changed(ranking, club_a, checks):
    p = [PlayerFactory() for _ in range(4)]
    day = dt.date(2026, 3, 1)
    approved_version(
        ranking, EventFactory(club=club_a, start_date=day), [res(p[0], 1), res(p[1], 2)]
    )
    compute.recompute(ranking)
    assert checks == [2]
    e2 = EventFactory(club=club_a, start_date=dt.date(2026, 4, 1))
    v2 = approved_version(ranking, e2, [res(p[2], 1), res(p[3], 2), res(p[0], 3)])
    assert v2.pk in compute.recompute(ranking).versions
    assert checks == [2, 3]  # only the new version
    # the event's date moved: its results are read and checked again
    e2.start_date = dt.date(2026, 5, 1)
    e2.save()
    kept = compute.recompute(ranking)
    assert checks == [2, 3, 3]
    # other settings that check the same way: nothing checked again
    ranking.settings = {**ranking.settings, "best_n": 1}
    ranking.save()
    compute.recompute(ranking)
    assert checks == [2, 3, 3]
    # a computation with nothing kept gives the same lines
    compute._PARSED.clear()
    compute._CHECKED.clear()
    ranking.settings = {**ranking.settings, "best_n": 2}
    ranking.save()
    assert lines(compute.recompute(ranking)) == lines(kept) != []
    assert sorted(checks) == [2, 2, 3, 3, 3]


def test_a_bad_version_is_refused_as_the_whole_list_refuses_it(ranking, club_a):
    p = [PlayerFactory() for _ in range(3)]
    e1 = EventFactory(club=club_a, start_date=dt.date(2026, 3, 1))
    approved_version(ranking, e1, [res(p[2], 1), res(p[2], 2)])  # twice in one event
    e2 = EventFactory(club=club_a, start_date=dt.date(2026, 4, 1))
    approved_version(ranking, e2, [res(p[0], 1), res(p[1], 2)])
    with pytest.raises(RankingError) as caught:
        compute.recompute(ranking)
    # numbered in the whole list (the newest status's versions first), as before the
    # checks were kept: the fourth result, not the second of its version
    assert caught.value.code == "ranking.duplicate" and caught.value.number == 4


def stored(snapshot) -> tuple:
    """Everything the snapshot stores but its number: its events and every row's columns,
    the results as read (its own or shared with an earlier row's)."""
    from federation.rankings.models import SnapshotLine
    from federation.rankings.snapshot_rows import ROW_FIELDS, shared_results

    rows = SnapshotLine.objects.filter(snapshot=snapshot).order_by("position")
    columns = [f for f in ROW_FIELDS[1:] if f not in ("results", "results_from")]
    return snapshot.events, snapshot.versions, list(rows.values_list(*columns, shared_results()))


def rebuilt(ranking):
    """The snapshot a worker that kept nothing computes."""
    for kept in (compute._PARSED, compute._CHECKED, compute._LAST, compute._BUILT):
        kept.clear()
    return compute.recompute(ranking)


def test_lines_taken_from_the_last_list_are_stored_as_a_rebuild_stores_them(ranking, club_a):
    from federation.models import EventVersion, PublicHiding

    p = [PlayerFactory() for _ in range(6)]
    old = EventFactory(club=club_a, start_date=dt.date(2026, 2, 1))
    approved_version(ranking, old, [res(p[0], 1), res(p[1], 2), res(p[2], 3)])
    mid = EventFactory(club=club_a, start_date=dt.date(2026, 3, 1))
    gone = approved_version(ranking, mid, [res(p[3], 1), res(p[4], 2)])
    compute.recompute(ranking)
    # a newer event (every event's position moves), an older one, a version no longer
    # counted, a player hidden, a name changed
    new = EventFactory(club=club_a, start_date=dt.date(2026, 6, 1))
    approved_version(ranking, new, [res(p[5], 1), res(p[0], 2)])
    older = EventFactory(club=club_a, start_date=dt.date(2026, 1, 1))
    approved_version(ranking, older, [res(p[1], 1), res(p[2], 2)])
    EventVersion.objects.filter(pk=gone.pk).update(state=EventVersion.State.REJECTED)
    PublicHiding.objects.create(player=p[2])
    p[1].given_name = "Anders"
    p[1].save()
    taken = compute.recompute(ranking)
    assert stored(taken) == stored(rebuilt(ranking))
    assert any(ln["name"].startswith("Anders") for ln in taken.lines)
    # one more event, the newest (its two players' lines computed, the others' taken and
    # their results renumbered), a name changed of a line taken: the same as a rebuild
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 7, 1)),
                     [res(p[4], 1), res(p[3], 2)])  # fmt: skip
    p[5].given_name = "Berta"
    p[5].save()
    taken = compute.recompute(ranking)
    assert stored(taken) == stored(rebuilt(ranking))
    assert any(ln["name"].startswith("Berta") for ln in taken.lines)


def test_a_lines_results_are_newest_first_whatever_order_the_versions_came_in(ranking, club_a):
    """The snapshot's events stand in the order of their versions (an approval appends),
    a line's results by date, newest first; a version approved late (a lower id than the
    versions approved before it) renumbers the lines taken as a rebuild numbers them."""
    from federation.models import EventVersion

    p = [PlayerFactory() for _ in range(3)]
    days = [dt.date(2026, 5, 1), dt.date(2026, 2, 1), dt.date(2026, 9, 1)]
    late = approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 7, 1)),
                            [res(p[0], 2), res(p[2], 1)])  # fmt: skip
    EventVersion.objects.filter(pk=late.pk).update(state=EventVersion.State.PENDING)
    for n, day in enumerate(days):
        approved_version(ranking, EventFactory(club=club_a, start_date=day),
                         [res(p[0], n + 2), res(p[1], 1)], field_size=5)  # fmt: skip
    first = compute.recompute(ranking)
    line = next(ln for ln in first.lines if ln["player"] == p[0].pk)
    assert [r["date"] for r in line["results"]] == ["2026-09-01", "2026-05-01", "2026-02-01"]
    assert [e[3] for e in first.events] == ["2026-05-01", "2026-02-01", "2026-09-01"]

    # one more, the newest: appended, the lines taken keep their numbers and JSON text
    text = compute._BUILT[ranking.pk]["last"][1][p[1].pk][-1]
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 10, 1)),
                     [res(p[2], 1)])  # fmt: skip
    second = compute.recompute(ranking)
    assert second.events[:3] == first.events
    assert compute._BUILT[ranking.pk]["last"][1][p[1].pk][-1] is text  # not packed again
    assert stored(second) == stored(rebuilt(ranking))

    # the early version approved now: it stands first, every line's numbers move
    EventVersion.objects.filter(pk=late.pk).update(state=EventVersion.State.APPROVED)
    third = compute.recompute(ranking)
    assert third.events[0][0] == late.pk and third.events[1:] == second.events
    line = next(ln for ln in third.lines if ln["player"] == p[0].pk)
    assert [r["date"] for r in line["results"]] == [
        "2026-09-01", "2026-07-01", "2026-05-01", "2026-02-01"
    ]  # fmt: skip
    assert stored(third) == stored(rebuilt(ranking))


def _read_everywhere(ranking, players):
    """Each player's results as every reader of the newest snapshot gives them."""
    from django.contrib.auth.models import AnonymousUser

    from federation.lists.selectors import player_card
    from federation.public.selectors import snapshot_line
    from federation.rankings.selectors import ranking_page
    from federation.rankings.snapshots import add_results, newest_snapshot, snapshot_lines

    snapshot = newest_snapshot(ranking)
    page = ranking_page(AnonymousUser(), ranking)
    by_reader = {
        "lines": {ln["player"]: ln["results"] for ln in snapshot.lines},
        "snapshot_lines": {ln["player"]: ln["results"] for ln in snapshot_lines(snapshot)},
        "page": {ln["player"]: ln["results"] for ln in page.lines},
    }
    plain = snapshot_lines(snapshot, results=False)
    add_results(snapshot, plain)
    by_reader["add_results"] = {ln["player"]: ln["results_text"] for ln in plain}
    by_reader["public card"] = {p.pk: snapshot_line(snapshot.pk, p.pk)["results"] for p in players}
    by_reader["card"] = {p.pk: player_card(None, ranking, p.pk).line["results"] for p in players}
    return by_reader


def test_unchanged_lines_share_the_results_of_the_row_that_holds_them(ranking, club_a):
    """After an approval the lines it does not touch store no results of their own: they
    name the row that holds them (the first, not a row that shares them in turn), and every
    reader gives the same results as a snapshot that holds all of its own."""
    from django.db.models.functions import Length

    from federation.rankings.models import SnapshotLine

    p = [PlayerFactory() for _ in range(5)]
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 2, 1)),
                     [res(p[0], 1), res(p[1], 2), res(p[2], 3)])  # fmt: skip
    first = compute.recompute(ranking)
    holds = dict(SnapshotLine.objects.filter(snapshot=first).values_list("player", "pk"))
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 3, 1)),
                     [res(p[2], 1), res(p[3], 2)])  # fmt: skip
    second = compute.recompute(ranking)
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 4, 1)),
                     [res(p[4], 1), res(p[3], 2)])  # fmt: skip
    third = compute.recompute(ranking)
    rows = SnapshotLine.objects.filter(snapshot=third)
    assert dict(rows.values_list("player", "results_from")) == {
        p[0].pk: holds[p[0].pk], p[1].pk: holds[p[1].pk],  # since the first snapshot
        p[2].pk: SnapshotLine.objects.get(snapshot=second, player=p[2].pk).pk,
        p[3].pk: None, p[4].pk: None,  # in the new event: their own
    }  # fmt: skip
    sharing = rows.exclude(results_from=None).annotate(n=Length("results"))
    assert set(sharing.values_list("n", flat=True)) == {0}  # no results of their own
    assert sharing.first().results is None  # a row loaded whole: none of its own
    shared = _read_everywhere(ranking, p)
    assert stored(third) == stored(rebuilt(ranking))
    assert not SnapshotLine.objects.filter(snapshot=newest(ranking)).exclude(results_from=None)
    assert _read_everywhere(ranking, p) == shared
    assert len(shared["card"][p[0].pk]) == 1 and len(shared["card"][p[3].pk]) == 2


def newest(ranking):
    return ranking.snapshots.order_by("-number").first()


def test_no_sharing_with_rows_this_worker_did_not_read_back(ranking, club_a):
    """The rows the worker remembers are gone (a database restored): the lines hold their
    results again."""
    from federation.models import EventVersion, RankingSnapshot
    from federation.rankings.models import SnapshotLine

    p = [PlayerFactory() for _ in range(3)]
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 2, 1)),
                     [res(p[0], 1), res(p[1], 2)])  # fmt: skip
    first = compute.recompute(ranking)
    RankingSnapshot.objects.filter(pk=first.pk).update(computed_at=first.computed_at
                                                       - dt.timedelta(seconds=1))  # fmt: skip
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 3, 1)),
                     [res(p[2], 1)])  # fmt: skip
    second = compute.recompute(ranking)
    assert not SnapshotLine.objects.filter(snapshot=second).exclude(results_from=None)
    assert stored(second) == stored(rebuilt(ranking))
    assert EventVersion.objects.count() == 2


def test_a_snapshot_deleted_hands_its_shared_results_on(ranking, club_a):
    """The admin deletes the snapshot whose rows hold the later ones' results: the later
    lines keep their results; all snapshots deleted at once take every row with them."""
    from federation.rankings.models import RankingSnapshot, SnapshotLine

    p = [PlayerFactory() for _ in range(4)]
    approved_version(ranking, EventFactory(club=club_a, start_date=dt.date(2026, 2, 1)),
                     [res(p[0], 1), res(p[1], 2), res(p[2], 3)])  # fmt: skip
    first = compute.recompute(ranking)
    for n, day in enumerate((dt.date(2026, 3, 1), dt.date(2026, 4, 1))):
        approved_version(ranking, EventFactory(club=club_a, start_date=day),
                         [res(p[3], 1), res(p[n], 2)], field_size=3)  # fmt: skip
        compute.recompute(ranking)
    before = _read_everywhere(ranking, p)
    assert SnapshotLine.objects.filter(results_from__snapshot=first).count() == 3
    RankingSnapshot.objects.filter(pk=first.pk).delete()  # as the admin's bulk action does
    assert not SnapshotLine.objects.filter(results_from__snapshot_id=first.pk).exists()
    assert _read_everywhere(ranking, p) == before
    third = newest(ranking)
    third.delete()  # the newest, holding nothing for others
    assert len(newest(ranking).lines) == 4
    ranking.snapshots.all().delete()  # all at once, as with their ranking
    assert not SnapshotLine.objects.exists()
