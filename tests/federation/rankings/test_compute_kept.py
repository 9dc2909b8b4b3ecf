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
