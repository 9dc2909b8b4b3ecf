"""Results checked once (`check_results`) and counted later (`compute_ranking(checked=...)`):
the same list as from every result given at once, a check kept only for settings that check
the same way, an event given twice checked all together."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ranking import (
    AVERAGE_PER_HAND,
    RankingError,
    RankingSettings,
    check_key,
    check_results,
    compute_ranking,
)
from tests.rules.test_ranking_properties import PROPS, cases

AS_OF = date(2026, 3, 31)


def res(player, event, place, field=10, day=date(2025, 6, 1), klass="ranking", **kw):
    from rules.ranking import EventResult

    return EventResult(player, event, day, klass, field, place, **kw)


def same(a, b) -> bool:
    return (a.lines, a.unlisted, a.events, a.window_start) == (
        b.lines,
        b.unlisted,
        b.events,
        b.window_start,
    )


@PROPS
@given(cases(), st.data())
def test_results_checked_per_event_give_the_same_list(case, data):
    s, (as_of, players, results) = case
    hidden = set(data.draw(st.lists(st.sampled_from(players), unique=True)))
    by_event: dict = {}
    for r in results:
        by_event.setdefault(r.event, []).append(r)
    parts = [check_results(rows, s) for rows in by_event.values()]
    whole = compute_ranking(results, s, as_of, hidden=hidden)
    assert same(compute_ranking((), s, as_of, hidden=hidden, checked=parts), whole)
    if by_event:  # some given now, the rest checked earlier
        first = next(iter(by_event.values()))
        assert same(compute_ranking(first, s, as_of, hidden=hidden, checked=parts[1:]), whole)


def test_a_check_is_kept_only_for_settings_that_check_the_same_way():
    places = RankingSettings()
    assert check_key(places) == check_key(RankingSettings(best_n=3, window_months=12))
    assert check_key(places) != check_key(RankingSettings(formula=AVERAGE_PER_HAND))
    assert check_key(places) != check_key(RankingSettings(class_factors={"ranking": "1"}))
    part = check_results([res("a", 1, 1)], places)
    with pytest.raises(ValueError):
        compute_ranking((), RankingSettings(formula=AVERAGE_PER_HAND), AS_OF, checked=[part])


def test_bad_results_are_refused_when_checked():
    with pytest.raises(RankingError) as caught:
        check_results([res("a", 1, 1), res("a", 1, 2)], RankingSettings())
    assert caught.value.code == "ranking.duplicate"


def test_an_event_in_two_parts_is_checked_all_together():
    s = RankingSettings(min_events=1)
    one = check_results([res("a", 1, 1), res("b", 1, 2)], s)
    other = check_results([res("c", 1, 3)], s)
    whole = compute_ranking([res("a", 1, 1), res("b", 1, 2), res("c", 1, 3)], s, AS_OF)
    assert same(compute_ranking((), s, AS_OF, checked=[one, other]), whole)
    twice = check_results([res("a", 1, 4)], s)
    with pytest.raises(RankingError) as caught:
        compute_ranking((), s, AS_OF, checked=[one, twice])
    assert caught.value.code == "ranking.duplicate"


@PROPS
@given(cases(), st.data())
def test_a_list_taken_from_the_previous_one_is_the_list_computed_anew(case, data):
    """Some events added and removed, some players hidden or shown: the lines of the other
    players taken from the previous list, the list the same as one computed from nothing."""
    s, (as_of, players, results) = case
    events = sorted({r.event for r in results}, key=str)
    some = st.lists(st.sampled_from(events), unique=True) if events else st.just([])
    before, after = set(data.draw(some)), set(data.draw(some))
    who = st.lists(st.sampled_from(players), unique=True) if players else st.just([])
    hidden_before, hidden_after = set(data.draw(who)), set(data.draw(who))
    old = compute_ranking([r for r in results if r.event in before], s, as_of, hidden=hidden_before)
    moved = before ^ after
    changed = {r.player for r in results if r.event in moved} | (hidden_before ^ hidden_after)
    now = [r for r in results if r.event in after]
    fresh = compute_ranking(now, s, as_of, hidden=hidden_after)
    taken = compute_ranking(now, s, as_of, hidden=hidden_after, previous=old, changed=changed)
    assert same(taken, fresh)
    for a, b in zip((*taken.lines, *taken.unlisted), (*fresh.lines, *fresh.unlisted), strict=True):
        assert a.order == b.order  # compare=False on the line: the order checked here


def test_a_previous_list_of_other_settings_or_date_is_not_used():
    s = RankingSettings(min_events=1)
    old = compute_ranking([res("a", 1, 1), res("b", 1, 2)], s, AS_OF)
    now = [res("a", 1, 2), res("b", 1, 1)]  # "changed" names nobody: trusted only if usable
    other = RankingSettings(min_events=1, best_n=2)
    for settings, as_of in ((other, AS_OF), (s, date(2026, 4, 1))):
        got = compute_ranking(now, settings, as_of, previous=old, changed=())
        assert [ln.player for ln in got.lines] == ["b", "a"]
    # the same settings and date: the previous lines are taken as the caller says
    got = compute_ranking(now, s, AS_OF, previous=old, changed=())
    assert [ln.player for ln in got.lines] == ["a", "b"]
