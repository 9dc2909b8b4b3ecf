"""Seating draw: table sizes, lot and ranked draws, constraints and their reports."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    GROUP_TOGETHER,
    REPEAT_OPPONENTS,
    SAME_CLUB,
    DrawError,
    DrawOptions,
    DrawPlayer,
    DrawResult,
    check,
    draw,
    new_seed,
    opponents_from,
    swap_seats,
    table_sizes,
)

ALL_ON = DrawOptions(avoid_same_club=True, avoid_repeat_opponents=True)
RANKED = DrawOptions(method="ranked")


def field(n: int, **kwargs) -> list[DrawPlayer]:
    return [DrawPlayer(id=100 + i, **kwargs) for i in range(n)]


def seated(result: DrawResult) -> list[int]:
    return [pid for table in result.tables for pid in table]


def codes(result: DrawResult) -> Counter[str]:
    return Counter(v.code for v in result.violations)


def mixed_field(n: int, seed: int) -> tuple[list[DrawPlayer], set[frozenset[int]]]:
    """Players with clubs, pairs and teams, plus a previous series' opponents."""
    rng = random.Random(seed)
    ids = rng.sample(range(1, 10 * n), n)
    groups: dict[int, list[str]] = {pid: [] for pid in ids}
    for k in range(n // 6):
        for pid in ids[2 * k : 2 * k + 2]:
            groups[pid].append(f"pair:{k}")
    for k in range(n // 12):
        for pid in ids[-4 * k - 4 : len(ids) - 4 * k]:
            groups[pid].append(f"team:{k}")
    players = [
        DrawPlayer(id=pid, club=rng.randrange(n // 4 + 1), groups=tuple(groups[pid]), rank=r)
        for r, pid in enumerate(ids, start=1)
    ]
    return players, opponents_from(draw(players, seed).tables)


# --- table sizes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
        (15, [4, 4, 4, 3]),
    ],
)
def test_table_sizes_examples(n, sizes):
    assert table_sizes(n) == sizes


@pytest.mark.parametrize("n", range(3, 101))
def test_table_sizes_use_fewest_three_tables(n):
    sizes = table_sizes(n)
    assert sum(sizes) == n
    assert sizes == sorted(sizes, reverse=True)
    if n >= 6:
        assert set(sizes) <= {3, 4}
        assert sizes.count(3) == (-n) % 4
    else:
        assert sizes == [n]


@pytest.mark.parametrize("n", [-1, 0, 1, 2])
def test_table_sizes_refuse_fewer_than_three(n):
    with pytest.raises(DrawError) as err:
        table_sizes(n)
    assert err.value.code == "draw.too-few-players"


def test_draw_refuses_two_players():
    with pytest.raises(DrawError) as err:
        draw(field(2), seed=1)
    assert err.value.code == "draw.too-few-players"


def test_draw_refuses_duplicate_players_and_unknown_method():
    with pytest.raises(DrawError) as err:
        draw([DrawPlayer(1), DrawPlayer(2), DrawPlayer(2)], seed=1)
    assert err.value.code == "draw.duplicate-player"
    with pytest.raises(DrawError) as err:
        draw(field(4), seed=1, options=DrawOptions(method="swiss"))
    assert err.value.code == "draw.unknown-method"


# --- every player seated once ----------------------------------------------------------


@pytest.mark.parametrize("n", range(3, 101))
@pytest.mark.parametrize("method", ["lot", "ranked"])
def test_everyone_seated_once_at_right_table_sizes(n, method):
    players, previous = mixed_field(n, seed=n)
    options = DrawOptions(method=method, avoid_same_club=True, avoid_repeat_opponents=True)
    result = draw(players, seed=7, options=options, previous_opponents=previous)
    assert sorted(seated(result)) == sorted(p.id for p in players)
    assert [len(t) for t in result.tables] == table_sizes(n)
    assert result.seed == 7


# --- reproducibility -------------------------------------------------------------------


@pytest.mark.parametrize("method", ["lot", "ranked"])
def test_same_seed_same_draw_whatever_the_input_order(method):
    players, previous = mixed_field(60, seed=3)
    options = DrawOptions(method=method, avoid_same_club=True, avoid_repeat_opponents=True)
    first = draw(players, 42, options, previous)
    again = draw(players, 42, options, previous)
    shuffled = players[:]
    random.Random(1).shuffle(shuffled)
    reordered = draw(shuffled, 42, options, sorted(previous, key=sorted, reverse=True))
    assert first == again == reordered


def test_different_seeds_give_different_draws():
    players = field(100)
    draws = {draw(players, seed).tables for seed in range(10)}
    assert len(draws) == 10


def test_new_seed_is_a_stored_31_bit_int():
    seeds = {new_seed() for _ in range(20)}
    assert all(isinstance(s, int) and 0 <= s < 2**31 for s in seeds)
    assert len(seeds) > 1


# --- hard constraint: pairs and teams --------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(17, 120),
    structure=st.integers(0, 2**32),
    seed=st.integers(0, 2**31 - 1),
    method=st.sampled_from(["lot", "ranked"]),
)
def test_pairs_and_teams_separated_when_feasible(n, structure, seed, method):
    # Each player is in at most one pair and one team, so at most 4 conflicting neighbours;
    # with 5+ tables a separating seating exists (Hajnal–Szemerédi equitable colouring).
    rng = random.Random(structure)
    ids = list(range(1, n + 1))
    groups: dict[int, list[str]] = {pid: [] for pid in ids}
    rng.shuffle(ids)
    for k in range(rng.randrange(n // 2 + 1)):
        for pid in ids[2 * k : 2 * k + 2]:
            groups[pid].append(f"pair:{k}")
    rng.shuffle(ids)
    for k in range(rng.randrange(n // 4 + 1)):
        for pid in ids[4 * k : 4 * k + 4]:
            groups[pid].append(f"team:{k}")
    players = [DrawPlayer(id=pid, groups=tuple(groups[pid]), rank=pid) for pid in ids]
    result = draw(players, seed, DrawOptions(method=method))
    assert result.violations == ()
    for table in result.tables:
        labels = [g for pid in table for g in groups[pid]]
        assert len(labels) == len(set(labels))


def test_team_of_four_at_two_tables_is_reported():
    players = [DrawPlayer(i, groups=("team:1",)) for i in range(1, 5)]
    players += [DrawPlayer(5), DrawPlayer(6)]
    result = draw(players, seed=3)
    assert [len(t) for t in result.tables] == [3, 3]
    assert [v.code for v in result.violations] == [GROUP_TOGETHER, GROUP_TOGETHER]
    assert sorted(pid for v in result.violations for pid in v.players) == [1, 2, 3, 4]
    assert all("unavoidable" in v.detail and "team:1" in v.detail for v in result.violations)


def test_team_of_four_at_three_tables_breaks_only_one_pair():
    players = [DrawPlayer(i, groups=("team:1",)) for i in range(1, 5)] + field(8)
    result = draw(players, seed=11)
    assert len(result.violations) == 1
    violation = result.violations[0]
    assert violation.code == GROUP_TOGETHER
    assert len(violation.players) == 2
    assert set(violation.players) <= set(result.tables[violation.table - 1])


# --- clubs -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_four_clubs_of_four_spread_over_four_tables(seed):
    players = [DrawPlayer(i, club=i % 4) for i in range(16)]
    result = draw(players, seed, DrawOptions(avoid_same_club=True))
    assert result.violations == ()
    assert all(len({p % 4 for p in table}) == 4 for table in result.tables)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(6, 120), structure=st.integers(0, 2**32), seed=st.integers(0, 2**31))
def test_same_club_avoided_when_feasible(n, structure, seed):
    # A club with no more players than tables can always be spread out.
    rng = random.Random(structure)
    tables = len(table_sizes(n))
    clubs, pid = [], 0
    while pid < n:
        size = min(rng.randint(1, tables), n - pid)
        clubs += [len(clubs)] * size
        pid += size
    rng.shuffle(clubs)
    players = [DrawPlayer(i, club=c) for i, c in enumerate(clubs)]
    result = draw(players, seed, DrawOptions(avoid_same_club=True))
    assert result.violations == ()


def test_one_club_of_eight_players_is_reported():
    result = draw(field(8, club=1), seed=5, options=DrawOptions(avoid_same_club=True))
    assert [v.code for v in result.violations] == [SAME_CLUB, SAME_CLUB]
    assert [v.table for v in result.violations] == [1, 2]
    assert all(len(v.players) == 4 for v in result.violations)
    assert "unavoidable: 8 players for 2 tables" in result.violations[0].detail


def test_same_club_ignored_without_the_flag():
    assert draw(field(8, club=1), seed=5).violations == ()


# --- repeat opponents ------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(n=st.integers(13, 120), seed=st.integers(0, 2**31))
def test_repeat_opponents_avoided_when_feasible(n, seed):
    players = field(n)
    first = draw(players, seed)
    options = DrawOptions(avoid_repeat_opponents=True)
    second = draw(players, seed + 1, options, opponents_from(first.tables))
    assert second.violations == ()
    assert not opponents_from(first.tables) & opponents_from(second.tables)


def test_earlier_tables_count_as_previous_opponents():
    players = field(16)
    first = draw(players, 1)
    options = DrawOptions(avoid_repeat_opponents=True)
    by_pairs = draw(players, 2, options, opponents_from(first.tables))
    by_tables = draw(players, 2, options, [frozenset(t) for t in first.tables])
    assert by_pairs == by_tables


def test_unavoidable_repeat_is_reported():
    players = field(6)
    previous = opponents_from([[p.id for p in players]])
    result = draw(players, 1, DrawOptions(avoid_repeat_opponents=True), previous)
    assert codes(result) == {REPEAT_OPPONENTS: 6}
    assert all(len(v.players) == 2 for v in result.violations)


# --- priorities ------------------------------------------------------------------------


def test_group_separation_beats_club():
    # Player 1 may sit with neither B player (3, 4); spreading the clubs would need that.
    players = [
        DrawPlayer(1, club=1, groups=("pair:1", "pair:2")),
        DrawPlayer(2, club=1),
        DrawPlayer(3, club=2, groups=("pair:1",)),
        DrawPlayer(4, club=2, groups=("pair:2",)),
        DrawPlayer(5, club=3),
        DrawPlayer(6, club=3),
    ]
    for seed in range(5):
        result = draw(players, seed, ALL_ON)
        assert GROUP_TOGETHER not in codes(result)
        assert codes(result)[SAME_CLUB] >= 1


def test_club_beats_repeat_opponents_and_reports_are_ordered():
    # Spreading three clubs of two always puts an A next to a B, and all A-B pairs have met.
    players = [DrawPlayer(i, club=(i - 1) // 2) for i in range(1, 7)]
    previous = {frozenset(p) for p in [(1, 3), (1, 4), (2, 3), (2, 4)]}
    result = draw(players, 9, ALL_ON, previous)
    assert codes(result) == {REPEAT_OPPONENTS: 2}
    players.append(DrawPlayer(7, club=0, groups=("pair:9",)))
    players.append(DrawPlayer(8, club=0, groups=("pair:9",)))
    tables = ((1, 3, 7, 8), (2, 4, 5, 6))
    order = [(v.code, v.table) for v in check(tables, players, ALL_ON, previous)]
    assert order == [
        (GROUP_TOGETHER, 1),
        (SAME_CLUB, 1),
        (SAME_CLUB, 2),
        (REPEAT_OPPONENTS, 1),
        (REPEAT_OPPONENTS, 2),
    ]


# --- ranked draws ----------------------------------------------------------------------


def ranked_field(n: int, **extra: dict) -> tuple[list[DrawPlayer], dict[int, int]]:
    """Players whose id differs from their rank; returns the players and rank -> id."""
    ids = random.Random(n).sample(range(1000, 2000), n)
    by_rank = dict(enumerate(ids, start=1))
    players = [DrawPlayer(pid, rank=r, **extra.get(str(r), {})) for r, pid in by_rank.items()]
    random.Random(0).shuffle(players)
    return players, by_rank


@pytest.mark.parametrize("n", [3, 5, 13, 16, 41])
def test_ranked_draw_seats_in_order_of_standing(n):
    players, by_rank = ranked_field(n)
    result = draw(players, seed=1, options=RANKED)
    expected, rank = [], 1
    for size in table_sizes(n):
        expected.append(tuple(by_rank[r] for r in range(rank, rank + size)))
        rank += size
    assert result.tables == tuple(expected)
    assert result.violations == ()


def test_ranked_draw_moves_partner_to_next_table():
    players, by_rank = ranked_field(
        16, **{"1": {"groups": ("pair:1",)}, "2": {"groups": ("pair:1",)}}
    )
    result = draw(players, seed=1, options=RANKED)
    ids = [[by_rank[r] for r in ranks] for ranks in ([1, 3, 4, 5], [2, 6, 7, 8])]
    assert result.tables[:2] == tuple(tuple(t) for t in ids)
    assert result.tables[2:] == (
        tuple(by_rank[r] for r in range(9, 13)),
        tuple(by_rank[r] for r in range(13, 17)),
    )
    assert result.violations == ()


def test_ranked_draw_moves_club_mate_with_nearest_lower_ranked_player():
    players, by_rank = ranked_field(16, **{str(r): {"club": r} for r in range(1, 17)})
    players = [p if p.id != by_rank[3] else DrawPlayer(p.id, club=1, rank=3) for p in players]
    result = draw(players, seed=4, options=DrawOptions(method="ranked", avoid_same_club=True))
    assert result.tables[0] == tuple(by_rank[r] for r in (1, 2, 4, 5))
    assert result.tables[1] == tuple(by_rank[r] for r in (3, 6, 7, 8))
    assert result.violations == ()


def test_ranked_draw_with_all_constraints_keeps_players_near_their_table():
    players, previous = mixed_field(200, seed=8)
    options = DrawOptions(method="ranked", avoid_same_club=True, avoid_repeat_opponents=True)
    result = draw(players, 5, options, previous)
    assert result.violations == ()
    rank = {p.id: p.rank for p in players}
    home = {}
    start = 0
    for t, size in enumerate(table_sizes(200)):
        for r in range(start + 1, start + size + 1):
            home[r] = t
        start += size
    moves = [abs(t - home[rank[pid]]) for t, table in enumerate(result.tables) for pid in table]
    assert max(moves) <= 3
    for table in result.tables:
        assert [rank[pid] for pid in table] == sorted(rank[pid] for pid in table)


# --- manual swaps and checks -----------------------------------------------------------


def test_swap_seats_and_recheck():
    players = [DrawPlayer(1, club=1), DrawPlayer(2, club=1), *field(4)]
    tables = ((1, 100, 101), (2, 102, 103))
    options = DrawOptions(avoid_same_club=True)
    assert check(tables, players, options) == ()
    swapped = swap_seats(tables, 2, 100)
    assert swapped == ((1, 2, 101), (100, 102, 103))
    violations = check(swapped, players, options)
    assert [(v.code, v.table, v.players) for v in violations] == [(SAME_CLUB, 1, (1, 2))]
    assert violations[0].detail == "club 1: players 1 and 2 share table 1"


def test_swap_seats_refuses_unknown_player():
    with pytest.raises(DrawError) as err:
        swap_seats(((1, 2, 3),), 1, 9)
    assert err.value.code == "draw.unknown-player"


def test_opponents_from_lists_every_pair_at_a_table():
    assert opponents_from([(1, 2, 3), (4, 5, 6, 7)]) == {
        frozenset(p)
        for p in [(1, 2), (1, 3), (2, 3), (4, 5), (4, 6), (4, 7), (5, 6), (5, 7), (6, 7)]
    }
