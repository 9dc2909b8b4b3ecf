"""Standings: shared ranks, tie-break chain and its explanations, lots, playoffs, pairs and
teams, season rankings with dropped results. Pure Python: no Django needed."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.standings.core import (
    DropRule,
    Reason,
    SeasonEntry,
    apply_playoff,
    combine,
    dropped_count,
    key_order,
    lots_order,
    playoff_table,
    rank,
    season_ranking,
    ties_on_lines,
)
from rules.standings.metrics import DEFAULT_CHAIN, METRICS, Entry, normalize_chain

NO_LOTS = ("total", "hands_won", "fewest_hand_points", "last_series")


def keys(rows):
    return [r.entry.key for r in rows]


def ranks(rows):
    return [r.rank for r in rows]


# --------------------------------------------------------------------------- basics


def test_metrics_and_default_chain():
    assert set(METRICS) == {
        "total",
        "hands_won",
        "hand_rommes",
        "fewest_hand_points",
        "last_series",
        "best_series",
        "lots",
    }
    assert DEFAULT_CHAIN == ("total", "hands_won", "fewest_hand_points", "last_series", "lots")
    assert all(METRICS[k].label for k in METRICS)
    assert METRICS["fewest_hand_points"].higher_is_better(True) is False
    assert METRICS["fewest_hand_points"].higher_is_better(False) is False
    assert METRICS["total"].higher_is_better(False) is False
    assert METRICS["hands_won"].higher_is_better(False) is True


def test_shared_ranks_1_2_2_4():
    entries = [Entry("a", 50), Entry("b", 40), Entry("c", 40), Entry("d", 10)]
    rows = rank(entries, NO_LOTS)
    assert ranks(rows) == [1, 2, 2, 4]
    assert keys(rows) == ["a", "b", "c", "d"]
    assert rows[0].reason == Reason("total", 50, 40)
    assert rows[1].reason == Reason("shared", 40, 40)
    assert rows[2].reason == Reason("total", 40, 10)
    assert rows[3].reason is None


def test_lower_is_better_profile_reverses_total():
    entries = [Entry(1, -30), Entry(2, -5), Entry(3, -5)]
    rows = rank(entries, ("total",), higher_is_better=False)
    assert keys(rows) == [1, 2, 3] and ranks(rows) == [1, 2, 2]
    rows = rank(entries, ("total",))
    assert keys(rows) == [2, 3, 1] and ranks(rows) == [1, 1, 3]


def test_values_hold_the_metric_values_used():
    rows = rank([Entry(1, 5, hands_won=3, hand_points=40, series_totals=(2, 3))], NO_LOTS)
    assert rows[0].values == {
        "total": 5,
        "hands_won": 3,
        "fewest_hand_points": 40,
        "last_series": 3,
    }


def test_provisional_flag_is_passed_through():
    rows = rank([Entry(1, 5, provisional=True), Entry(2, 3)], ("total",))
    assert [r.provisional for r in rows] == [True, False]
    assert rows[0].entry.provisional


def test_empty_entries():
    assert rank([], lots_seed=1) == []
    assert ties_on_lines([]) == []


# --------------------------------------------------------------------------- each metric


@pytest.mark.parametrize(
    "metric, better, worse, this, nxt",
    [
        ("hands_won", {"hands_won": 7}, {"hands_won": 5}, 7, 5),
        ("hand_rommes", {"hand_rommes": 2}, {"hand_rommes": 1}, 2, 1),
        ("fewest_hand_points", {"hand_points": 90}, {"hand_points": 150}, 90, 150),
        ("last_series", {"series_totals": (-50, -10)}, {"series_totals": (-10, -50)}, -10, -50),
        ("best_series", {"series_totals": (-60, -5)}, {"series_totals": (-30, -35)}, -5, -30),
    ],
)
def test_each_metric_separates_and_explains(metric, better, worse, this, nxt):
    a = Entry("a", -60, **worse)
    b = Entry("b", -60, **better)
    for order in ([a, b], [b, a]):
        rows = rank(order, ("total", metric))
        assert keys(rows) == ["b", "a"]
        assert ranks(rows) == [1, 2]
        assert rows[0].reason == Reason(metric, this, nxt)
        assert rows[0].values[metric] == this and rows[1].values[metric] == nxt


def test_total_separates_before_tie_breaks():
    rows = rank([Entry("a", 10, hands_won=9), Entry("b", 11, hands_won=0)], NO_LOTS)
    assert keys(rows) == ["b", "a"]
    rows = rank([Entry("a", 10, hands_won=9), Entry("b", 11)], DEFAULT_CHAIN, lots_seed=1)
    assert rows[0].reason == Reason("total", 11, 10)


def test_fewest_hand_points_is_lower_is_better_under_both_profiles():
    a, b = Entry("a", 0, hand_points=30), Entry("b", 0, hand_points=20)
    for hib in (True, False):
        rows = rank([a, b], ("total", "fewest_hand_points"), higher_is_better=hib)
        assert keys(rows) == ["b", "a"]
        assert rows[0].reason == Reason("fewest_hand_points", 20, 30)


def test_series_metrics_follow_the_profile():
    a = Entry("a", 40, series_totals=(10, 30))
    b = Entry("b", 40, series_totals=(25, 15))
    assert keys(rank([a, b], ("total", "last_series"))) == ["a", "b"]
    assert keys(rank([a, b], ("total", "last_series"), higher_is_better=False)) == ["b", "a"]
    assert keys(rank([a, b], ("total", "best_series"))) == ["a", "b"]
    rows = rank([a, b], ("total", "best_series"), higher_is_better=False)
    assert keys(rows) == ["a", "b"]  # best (lowest) single series: 10 < 15
    assert rows[0].reason == Reason("best_series", 10, 15)


def test_chain_order_decides_which_metric_explains():
    a = Entry("a", 0, hands_won=5, hand_points=100)
    b = Entry("b", 0, hands_won=4, hand_points=10)
    assert keys(rank([a, b], ("total", "hands_won", "fewest_hand_points"))) == ["a", "b"]
    rows = rank([a, b], ("total", "fewest_hand_points", "hands_won"))
    assert keys(rows) == ["b", "a"]
    assert rows[0].reason == Reason("fewest_hand_points", 10, 100)


def test_chain_validation():
    assert normalize_chain(("hands_won", "lots")) == ("total", "hands_won", "lots")
    with pytest.raises(ValueError, match="unknown"):
        normalize_chain(("total", "luck"))
    with pytest.raises(ValueError, match="repeated"):
        normalize_chain(("total", "hands_won", "hands_won"))
    with pytest.raises(ValueError, match="first"):
        normalize_chain(("hands_won", "total"))
    with pytest.raises(ValueError, match="last"):
        normalize_chain(("total", "lots", "hands_won"))
    with pytest.raises(ValueError, match="lots_seed"):
        rank([Entry(1, 0)])
    with pytest.raises(ValueError, match="duplicate"):
        rank([Entry(1, 0), Entry(1, 3)], NO_LOTS)


# --------------------------------------------------------------------------- lots


def test_lots_give_distinct_ranks_and_explain():
    entries = [Entry(k, 10) for k in range(5)]
    rows = rank(entries, lots_seed=42)
    assert ranks(rows) == [1, 2, 3, 4, 5]
    assert [r.values["lots"] for r in rows] == [1, 2, 3, 4, 5]
    assert all(r.reason.metric == "lots" for r in rows[:-1])
    assert rows[0].reason == Reason("lots", 1, 2)


def test_lots_reproducible_and_independent_of_input_order():
    entries = [Entry(f"p{k}", 10) for k in range(30)]
    expected = keys(rank(entries, lots_seed=2024))
    for s in range(5):
        shuffled = entries[:]
        random.Random(s).shuffle(shuffled)
        assert keys(rank(shuffled, lots_seed=2024)) == expected


def test_lots_follow_the_documented_permutation():
    """Audit: a lot is the position in random.Random(seed).shuffle of the keys in key order."""
    ks = [3, 1, 2, 10]
    ordered = [1, 2, 3, 10]
    random.Random(7).shuffle(ordered)
    assert lots_order(ks, 7) == {k: i for i, k in enumerate(ordered, start=1)}
    assert keys(rank([Entry(k, 0) for k in ks], lots_seed=7)) == ordered


def test_different_seeds_differ_for_large_ties():
    entries = [Entry(k, 0) for k in range(40)]
    orders = {tuple(keys(rank(entries, lots_seed=seed))) for seed in range(5)}
    assert len(orders) == 5


def test_lots_only_decide_after_the_chain():
    entries = [Entry(1, 10, hands_won=1), Entry(2, 10, hands_won=2), Entry(3, 11)]
    for seed in range(20):
        assert keys(rank(entries, lots_seed=seed)) == [3, 2, 1]


# --------------------------------------------------------------------------- playoffs


def prize_field(**overrides):
    base = {
        "a": Entry("a", 100),
        "b": Entry("b", 90, hands_won=5),
        "c": Entry("c", 90, hands_won=5),
        "d": Entry("d", 90, hands_won=5),
        "e": Entry("e", 50),
        "f": Entry("f", 50),
    }
    base.update(overrides)
    return list(base.values())


@pytest.mark.parametrize("chain, seed", [(NO_LOTS, None), (DEFAULT_CHAIN, 99)])
def test_tie_on_the_prize_line_proposes_a_playoff(chain, seed):
    rows = rank(prize_field(), chain, lots_seed=seed)
    # b, c, d hold places 2..4: a tie on prize line 3 that extends beyond it
    groups = ties_on_lines(rows, lines=(3,))
    assert len(groups) == 1
    assert sorted(keys(groups[0])) == ["b", "c", "d"]
    assert playoff_table(groups[0]) == ["b", "c", "d"]
    # the tie for places 5..6 is below every line
    assert ties_on_lines(rows, lines=(1, 3)) == groups
    assert ties_on_lines(rows, lines=(1,)) == []


def test_playoff_place_resolves_without_changing_totals():
    entries = prize_field()
    rows = rank(entries, DEFAULT_CHAIN, lots_seed=5)
    tied = ties_on_lines(rows, lines=(3,))[0]
    places = {"d": 1, "b": 2, "c": 3}
    resolved = apply_playoff(entries, places)
    rows = rank(resolved, DEFAULT_CHAIN, lots_seed=5)
    assert keys(rows)[:4] == ["a", "d", "b", "c"]
    assert ranks(rows) == [1, 2, 3, 4, 5, 6]
    assert rows[1].reason == Reason("playoff", 1, 2)
    assert rows[2].reason == Reason("playoff", 2, 3)
    assert rows[3].reason == Reason("total", 90, 50)
    assert {r.key: r.entry.total for r in rows} == {e.key: e.total for e in entries}
    assert ties_on_lines(rows, lines=(3,)) == []
    assert {r.key for r in tied} == set(places)


def test_playoff_gives_distinct_ranks_without_lots():
    resolved = apply_playoff(prize_field(), {"c": 1, "d": 2, "b": 3})
    rows = rank(resolved, NO_LOTS)
    assert keys(rows)[:4] == ["a", "c", "d", "b"]
    assert ranks(rows) == [1, 2, 3, 4, 5, 5]


def test_playoff_never_overrides_the_chain():
    resolved = apply_playoff(prize_field(), {"e": 1, "b": 2})
    rows = rank(resolved, NO_LOTS)
    assert keys(rows)[:2] == ["a", "b"]
    assert rows[4].entry.key == "e" and rows[4].reason == Reason("playoff", 1, None)


def test_top_place_matters_by_default():
    rows = rank([Entry(1, 10), Entry(2, 10), Entry(3, 5)], NO_LOTS)
    assert [keys(g) for g in ties_on_lines(rows)] == [[1, 2]]
    rows = rank([Entry(1, 10), Entry(2, 10), Entry(3, 5)], lots_seed=3)
    assert [sorted(keys(g)) for g in ties_on_lines(rows)] == [[1, 2]]


def test_tie_inside_the_prize_places_or_below_does_not_matter():
    # places 2..3 tied, line 3: both win a prize; line 1 is not touched
    rows = rank([Entry(1, 10), Entry(2, 8), Entry(3, 8), Entry(4, 1)], NO_LOTS)
    assert ties_on_lines(rows, lines=(1, 3)) == []
    # line 2 splits them
    assert [keys(g) for g in ties_on_lines(rows, lines=(2,))] == [[2, 3]]
    # a tie below all lines
    rows = rank([Entry(1, 10), Entry(2, 9), Entry(3, 1), Entry(4, 1)], NO_LOTS)
    assert ties_on_lines(rows, lines=(1, 2)) == []


def test_playoff_table_seat_order_is_by_key():
    rows = rank([Entry("pair:10", 5), Entry("pair:3", 5), Entry("pair:2", 5)], lots_seed=1)
    assert playoff_table(rows) == ["pair:2", "pair:3", "pair:10"]
    with pytest.raises(ValueError):
        playoff_table(rows[:1])
    with pytest.raises(ValueError):
        apply_playoff([Entry(1, 0)], {2: 1})


def test_key_order_ints_then_natural_strings():
    assert sorted(["team:10", 7, "pair:3", 2, "pair:10"], key=key_order) == [
        2,
        7,
        "pair:3",
        "pair:10",
        "team:10",
    ]


# --------------------------------------------------------------------------- pairs and teams


def test_combine_sums_members():
    members = {
        1: Entry(1, -30, hands_won=3, hand_rommes=1, hand_points=30, series_totals=(-10, -20)),
        2: Entry(2, -12, hands_won=4, hand_points=12, series_totals=(-5, -7), provisional=True),
        3: Entry(3, -50, hands_won=1, hand_points=50, series_totals=(-50,)),
        4: Entry(4, 0, series_totals=(0, 0)),
    }
    pairs = combine(members, {"pair:1": (1, 2), "pair:2": [3, 4]})
    assert pairs == [
        Entry("pair:1", -42, 7, 1, 42, (-15, -27), provisional=True),
        Entry("pair:2", -50, 1, 0, 50, (-50, 0), provisional=False),
    ]
    rows = rank(pairs, NO_LOTS)
    assert keys(rows) == ["pair:1", "pair:2"] and rows[0].provisional
    with pytest.raises(ValueError, match="no entry"):
        combine(members, {"team:1": (1, 99)})
    with pytest.raises(ValueError, match="no members"):
        combine(members, {"team:1": ()})


# --------------------------------------------------------------------------- properties

entry_strategy = st.builds(
    Entry,
    key=st.integers(0, 10_000),
    total=st.integers(-20, 20),
    hands_won=st.integers(0, 3),
    hand_rommes=st.integers(0, 2),
    hand_points=st.integers(0, 5),
    series_totals=st.lists(st.integers(-5, 5), min_size=0, max_size=3).map(tuple),
)
chains = st.lists(
    st.sampled_from(["hands_won", "hand_rommes", "fewest_hand_points", "last_series"]),
    unique=True,
    max_size=4,
).map(lambda c: ("total", *c, "best_series"))


def oriented(row, chain, hib):
    return tuple(
        -row.values[k] if METRICS[k].higher_is_better(hib) else row.values[k]
        for k in chain
        if k != "lots"
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(entry_strategy, max_size=25, unique_by=lambda e: e.key),
    chains,
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**31),
)
def test_rank_is_monotonic_with_the_chain_and_a_permutation(entries, chain, hib, lots, seed):
    if lots:
        chain = (*chain, "lots")
    rows = rank(entries, chain, lots_seed=seed, higher_is_better=hib)
    assert sorted(keys(rows)) == sorted(e.key for e in entries)
    for i in range(len(rows) - 1):
        this, nxt = rows[i], rows[i + 1]
        a, b = oriented(this, chain, hib), oriented(nxt, chain, hib)
        assert a <= b
        assert this.rank <= nxt.rank
        if a < b:
            assert nxt.rank == i + 2
            first = next(k for k, x, y in zip(chain, a, b, strict=False) if x != y)
            assert this.reason == Reason(first, this.values[first], nxt.values[first])
        elif lots:
            assert nxt.rank == i + 2 and this.reason.metric == "lots"
        else:
            assert nxt.rank == this.rank and this.reason.metric == "shared"
    if rows:
        assert rows[0].rank == 1 and rows[-1].reason is None
    if lots:
        assert ranks(rows) == list(range(1, len(rows) + 1))
    shuffled = entries[:]
    random.Random(seed).shuffle(shuffled)
    assert keys(rank(shuffled, chain, lots_seed=seed, higher_is_better=hib)) == keys(rows)


@settings(max_examples=100, deadline=None)
@given(st.lists(entry_strategy, min_size=1, max_size=15, unique_by=lambda e: e.key))
def test_ties_on_lines_groups_are_equal_on_the_chain(entries):
    rows = rank(entries, NO_LOTS)
    for line in range(1, len(rows) + 1):
        for group in ties_on_lines(rows, (line,)):
            assert len(group) >= 2
            assert len({tuple(r.values.items()) for r in group}) == 1
            first = rows.index(group[0]) + 1
            assert first <= line < first + len(group) - 1


# --------------------------------------------------------------------------- seasons


@pytest.mark.parametrize(
    "played, dropped",
    [
        (0, 0),
        (1, 0),
        (29, 0),
        (30, 1),
        (34, 1),
        (35, 2),
        (39, 2),
        (40, 3),
        (44, 3),
        (45, 4),
        (49, 4),
        (50, 5),
        (55, 5),
        (60, 5),
        (100, 5),
    ],
)
def test_dropped_count_default_rule(played, dropped):
    assert dropped_count(played, DropRule()) == dropped


def test_dropped_count_other_rules():
    assert dropped_count(100, None) == 0
    assert dropped_count(10, DropRule(start=10, every=2, maximum=3)) == 1
    assert dropped_count(12, DropRule(start=10, every=2, maximum=3)) == 2
    assert dropped_count(20, DropRule(start=10, every=2, maximum=3)) == 3
    assert dropped_count(3, DropRule(start=1, every=1, maximum=10)) == 2  # one always counts
    assert dropped_count(5, DropRule(maximum=0, start=1)) == 0
    with pytest.raises(ValueError):
        DropRule(every=0)


def test_season_drops_the_worst_results_and_lists_them():
    results = tuple([10] * 35)
    results = (*results[:3], -40, *results[4:20], -90, *results[21:])  # 35 series
    row = season_ranking([SeasonEntry(1, results)], drop_rule=DropRule())[0]
    assert row.played == 35 and row.dropped == (3, 20)
    assert row.counted_total == 33 * 10
    assert row.average == 10.0
    # lower is better: the worst are the highest
    row = season_ranking([SeasonEntry(1, results)], drop_rule=DropRule(), higher_is_better=False)[0]
    assert len(row.dropped) == 2 and all(results[i] == 10 for i in row.dropped)
    assert row.counted_total == 31 * 10 - 130


def test_season_no_drops_below_start_and_earliest_among_equal():
    row = season_ranking([SeasonEntry("x", tuple([5] * 29))], drop_rule=DropRule())[0]
    assert row.dropped == () and row.counted_total == 145
    row = season_ranking([SeasonEntry("x", tuple([5] * 30))], drop_rule=DropRule())[0]
    assert row.dropped == (0,) and row.counted_total == 145


def test_season_total_mode_ranks_and_explains():
    entries = [SeasonEntry(1, (10, 20)), SeasonEntry(2, (30, 0)), SeasonEntry(3, (40, 5))]
    rows = season_ranking(entries)
    assert [r.key for r in rows] == [3, 1, 2]
    assert [r.rank for r in rows] == [1, 2, 2]
    assert rows[0].reason == Reason("total", 45, 30)
    assert rows[1].reason == Reason("shared", 30, 30)
    assert rows[2].reason is None


def test_season_average_mode():
    entries = [SeasonEntry("many", (10,) * 10), SeasonEntry("few", (15, 15))]
    assert [r.key for r in season_ranking(entries)] == ["many", "few"]
    rows = season_ranking(entries, mode="average")
    assert [r.key for r in rows] == ["few", "many"]
    assert rows[0].reason == Reason("average", 15.0, 10.0)
    assert rows[0].average == 15.0 and rows[0].counted_total == 30
    with pytest.raises(ValueError):
        season_ranking(entries, mode="median")


def test_season_minimum_series():
    entries = [
        SeasonEntry("star", (100,) * 3),
        SeasonEntry("steady", (10,) * 25),
        SeasonEntry("regular", (5,) * 30),
    ]
    rows = season_ranking(entries, minimum_series=25, drop_rule=DropRule())
    assert [r.key for r in rows] == ["steady", "regular", "star"]
    assert [r.rank for r in rows] == [1, 2, None]
    assert [r.qualified for r in rows] == [True, True, False]
    assert rows[1].reason == Reason("minimum_series", 30, 3)
    assert rows[1].dropped == (0,) and rows[1].counted_total == 145


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1000), st.lists(st.integers(-50, 50), max_size=45)),
        max_size=12,
        unique_by=lambda t: t[0],
    ),
    st.booleans(),
    st.sampled_from(["total", "average"]),
    st.integers(0, 40),
)
def test_season_properties(raw, hib, mode, minimum):
    entries = [SeasonEntry(k, tuple(r)) for k, r in raw]
    rule = DropRule()
    rows = season_ranking(
        entries, mode=mode, minimum_series=minimum, drop_rule=rule, higher_is_better=hib
    )
    by_key = {e.key: e.results for e in entries}
    assert sorted(r.key for r in rows) == sorted(by_key)
    for r in rows:
        results = by_key[r.key]
        assert len(r.dropped) == dropped_count(len(results), rule)
        kept = [v for i, v in enumerate(results) if i not in r.dropped]
        assert r.counted_total == sum(kept)
        worst_kept = (min if hib else max)(kept, default=0)
        for i in r.dropped:  # nothing kept is worse than a dropped result
            assert (results[i] <= worst_kept) if hib else (results[i] >= worst_kept)
        assert r.qualified == (r.played >= minimum) and (r.rank is None) != r.qualified
    qualified = [r for r in rows if r.qualified]
    assert rows[: len(qualified)] == qualified
    sign = 1 if hib else -1
    for a, b in itertools.pairwise(rows):
        if a.qualified == b.qualified:
            va, vb = (
                (a.counted_total, b.counted_total) if mode == "total" else (a.average, b.average)
            )
            assert sign * va >= sign * vb
            if a.qualified:
                assert (b.rank == a.rank) == (va == vb)
