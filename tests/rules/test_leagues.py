"""League rules (rules.leagues) against a plain reference (hypothesis): random match days
with missing players, every missing-player policy, both score directions, ties on every
step of the chains; division tables with withdrawn teams; promotion proposals.

The references share no code with rules.leagues: a team's score is summed player by player
and slot by slot, a place is 1 + the number of teams strictly better, compared pairwise."""

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.leagues import (
    DayRecord,
    DayTeam,
    DivisionInput,
    LeagueError,
    LeagueSettings,
    describe,
    division_table,
    league_points,
    parse_settings,
    propose,
    rank_day,
)
from rules.leagues.table import player_table

PROPS = settings(max_examples=300, deadline=None)


# --- match day -------------------------------------------------------------------------------


@st.composite
def days(draw):
    n_teams = draw(st.integers(2, 5))
    n_series = draw(st.integers(1, 3))
    size = draw(st.integers(1, 4))
    teams = []
    pid = 0
    for t in range(n_teams):
        players = {}
        for _ in range(draw(st.integers(0, size))):
            pid += 1
            played = draw(st.lists(st.booleans(), min_size=n_series, max_size=n_series))
            players[pid] = {s + 1: draw(st.integers(-20, 20)) for s in range(n_series) if played[s]}
        teams.append(DayTeam(key=f"t{t}", players=players))
    policy = draw(st.sampled_from(["zero", "worst", "penalty"]))
    cfg = LeagueSettings(
        team_size=size, roster_max=8, missing=policy, missing_penalty=draw(st.integers(-30, 30))
    )
    return teams, list(range(1, n_series + 1)), cfg, draw(st.booleans()), draw(st.integers(0, 99))


def ref_day(teams, series, cfg, hib, seed):
    better = (lambda a, b: a > b) if hib else (lambda a, b: a < b)
    all_scores = {
        s: [p[s] for team in teams for p in team.players.values() if s in p] for s in series
    }
    per = {}
    for team in teams:
        row = []
        for s in series:
            score = 0
            present = 0
            for p in team.players.values():
                if s in p:
                    score += p[s]
                    present += 1
            for _slot in range(cfg.team_size - present):
                if cfg.missing == "zero":
                    score += 0
                elif cfg.missing == "penalty":
                    score += cfg.missing_penalty
                else:
                    vals = all_scores[s]
                    w = vals[0] if vals else 0
                    for v in vals:
                        if better(w, v):
                            w = v
                    score += w
            row.append(score)
        per[team.key] = row
    won = dict.fromkeys(per, 0)
    for i in range(len(series)):
        for k in per:
            if not any(better(per[o][i], per[k][i]) for o in per):
                won[k] += 1
    bests = {}
    for team in teams:
        b = None
        for p in team.players.values():
            if p:
                tot = sum(p.values())
                if b is None or better(tot, b):
                    b = tot
        bests[team.key] = b
    return per, won, bests


@PROPS
@given(days())
def test_day_matches_reference(case):
    teams, series, cfg, hib, seed = case
    got = rank_day(teams, series, cfg, higher_is_better=hib, lots_seed=seed)
    per, won, bests = ref_day(teams, series, cfg, hib, seed)
    better = (lambda a, b: a > b) if hib else (lambda a, b: a < b)
    assert sorted(r.place for r in got) == list(range(1, len(teams) + 1))
    by = {r.key: r for r in got}
    for k in per:
        assert list(by[k].series_totals) == per[k]
        assert by[k].total == sum(per[k])
        assert by[k].series_won == won[k]
        assert by[k].best_player == bests[k]

    def strictly_better(a, b):  # without lots
        if sum(per[a]) != sum(per[b]):
            return better(sum(per[a]), sum(per[b]))
        if won[a] != won[b]:
            return won[a] > won[b]
        if bests[a] != bests[b]:
            return bests[b] is None or (bests[a] is not None and better(bests[a], bests[b]))
        return False

    for k in per:
        above = sum(strictly_better(o, k) for o in per)
        level = sum(1 for o in per if not strictly_better(o, k) and not strictly_better(k, o))
        assert above + 1 <= by[k].place <= above + level
    points = league_points(cfg, len(teams))
    for r in got:
        assert r.points == points[r.place - 1]
    again = rank_day(list(reversed(teams)), series, cfg, higher_is_better=hib, lots_seed=seed)
    assert {r.key: r.place for r in again} == {r.key: r.place for r in got}


def test_day_example_missing_and_points():
    cfg = LeagueSettings(team_size=2, missing="penalty", missing_penalty=-10)
    teams = [
        DayTeam("A", {1: {1: 50, 2: 30}, 2: {1: 10}}),
        DayTeam("B", {3: {1: 40, 2: 40}, 4: {1: 20, 2: 10}}),
    ]
    a, b = rank_day(teams, [1, 2], cfg, higher_is_better=True, lots_seed=1)
    assert (b.key, b.total, b.missing) == ("A", 80, 1)
    assert (a.key, a.total, a.points, a.reason[0]) == ("B", 110, 2, "total")


# --- division table --------------------------------------------------------------------------


@st.composite
def tables(draw):
    n = draw(st.integers(1, 6))
    teams = [f"T{i}" for i in range(n)]
    records = []
    for day in range(draw(st.integers(0, 4))):
        for t in teams:
            if draw(st.booleans()):
                records.append(
                    DayRecord(t, day, 1, draw(st.integers(0, 3)), draw(st.integers(-5, 5)))
                )
    gone = draw(st.sets(st.sampled_from(teams), max_size=2))
    policy = draw(st.sampled_from(["annul", "keep"]))
    return teams, records, gone, LeagueSettings(withdrawn=policy), draw(st.booleans())


@PROPS
@given(tables())
def test_table_matches_reference(case):
    teams, records, gone, cfg, hib = case
    rows = division_table(teams, records, cfg, higher_is_better=hib, withdrawn=gone)
    better = (lambda a, b: a > b) if hib else (lambda a, b: a < b)
    val = {}
    for t in teams:
        mine = [r for r in records if r.team == t and not (t in gone and cfg.withdrawn == "annul")]
        best = None
        for r in mine:
            if best is None or better(r.score, best):
                best = r.score
        val[t] = (
            t in gone,
            sum(r.points for r in mine),
            sum(r.score for r in mine),
            best,
            len(mine),
        )

    def above(a, b):
        va, vb = val[a], val[b]
        if va[0] != vb[0]:
            return vb[0]
        if va[1] != vb[1]:
            return va[1] > vb[1]
        if va[2] != vb[2]:
            return better(va[2], vb[2])
        if va[3] != vb[3]:
            return vb[3] is None or (va[3] is not None and better(va[3], vb[3]))
        return False

    assert [r.team for r in rows] and len(rows) == len(teams)
    for r in rows:
        assert r.rank == 1 + sum(above(o, r.team) for o in teams)
        assert (r.withdrawn, r.points, r.score, r.best_day, r.played) == val[r.team]
    for upper, lower in pairwise(rows):
        assert (upper.reason[0] == "shared") == (upper.rank == lower.rank)


@PROPS
@given(
    st.dictionaries(st.integers(1, 30), st.lists(st.integers(-9, 9), max_size=5), max_size=8),
    st.integers(0, 4),
    st.booleans(),
)
def test_player_table(totals, minimum, hib):
    rows = player_table(totals, minimum, higher_is_better=hib)
    assert sorted(r.player for r in rows) == sorted(totals)
    for r in rows:
        n = len(totals[r.player])
        listed = n > 0 and n >= minimum
        assert (r.rank is not None) == listed
        if listed:
            avg = Fraction(sum(totals[r.player]), n)
            ahead = sum(
                1
                for p, v in totals.items()
                if v
                and len(v) >= minimum
                and (Fraction(sum(v), len(v)) > avg if hib else Fraction(sum(v), len(v)) < avg)
            )
            assert r.rank == ahead + 1


# --- promotion and relegation ----------------------------------------------------------------


@st.composite
def leagues(draw):
    divisions = []
    clubs = {}
    n_clubs = draw(st.integers(2, 12))
    top_n = draw(st.integers(2, 6))
    levels = [["D1"], ["D2a", "D2b"][: draw(st.integers(1, 2))]]
    team_no = 0
    for level, keys in enumerate(levels, start=1):
        for key in keys:
            n = top_n if level == 1 else draw(st.integers(2, 6))
            table = []
            for _ in range(n):
                team_no += 1
                table.append(team_no)
                clubs[team_no] = draw(st.integers(1, n_clubs))
            promoted = 0 if level == 1 else draw(st.integers(0, n // 2))
            relegated = draw(st.integers(0, n - promoted))
            gone = frozenset(draw(st.sets(st.sampled_from(table), max_size=1)))
            divisions.append(
                DivisionInput(
                    key, key, level, None if level == 1 else "D1", table, promoted, relegated, gone
                )
            )
    return divisions, clubs, draw(st.booleans())


@PROPS
@given(leagues())
def test_proposal_invariants(case):
    divisions, clubs, one_club = case
    got = propose(divisions, clubs, one_club_per_division=one_club)
    all_teams = [t for d in divisions for t in d.table]
    moved = {m.team: m for m in got.moves}
    assert sorted(moved) == sorted(all_teams)
    placed = [t for teams in got.divisions.values() for t in teams]
    out = [m.team for m in got.moves if m.kind == "out"]
    assert sorted(placed + out) == sorted(all_teams)
    for d in divisions:
        ups = [m for m in got.moves if m.source == d.key and m.kind == "up"]
        assert len(ups) <= d.promoted
        if not one_club:
            # every team not going down and placed high enough is promoted, in table order
            eligible = [t for t in d.table if moved[t].kind in ("up", "stay")]
            assert [m.team for m in ups] == eligible[: len(ups)]
        downs = [m for m in got.moves if m.source == d.key and m.kind in ("down", "out")]
        assert len(downs) == max(d.relegated, len(d.withdrawn))
        for t in d.withdrawn:
            assert moved[t].kind in ("down", "out") and moved[t].withdrawn
        for m in downs:
            if not m.withdrawn:  # the last ones of the table
                assert d.table.index(m.team) >= len(d.table) - d.relegated


def test_proposal_refuses_too_many():
    d = DivisionInput("L", "Landesliga", 2, "B", [1, 2, 3], promoted=3, relegated=1)
    top = DivisionInput("B", "Bundesliga", 1, None, [4, 5])
    with pytest.raises(LeagueError) as err:
        propose([top, d], {})
    assert "Landesliga" in err.value.message()


def test_club_rule_skips_to_next_team():
    top = DivisionInput("B", "B", 1, None, [1, 2, 3], relegated=1)
    low = DivisionInput("L", "L", 2, "B", [4, 5, 6], promoted=1)
    got = propose([top, low], {1: "x", 2: "y", 3: "z", 4: "x", 5: "w", 6: "v"})
    assert {m.team: m.kind for m in got.moves}[5] == "up"
    assert got.notes and got.notes[0].code == "league.note.club-skip"


# --- settings --------------------------------------------------------------------------------


def test_settings_round_trip_and_errors():
    cfg = parse_settings({"points": {"4": [5, 3, 1, 0]}, "missing": "worst"})
    assert parse_settings(cfg.to_json()) == cfg
    assert league_points(cfg, 4) == (5, 3, 1, 0)
    assert league_points(cfg, 3) == (3, 2, 1)
    assert len(describe(cfg)) >= 8
    for bad in (
        {"roster_min": 9},
        {"team_size": 20},
        {"missing": "x"},
        {"points": {"3": [1, 2, 3]}},
        {"nonsense": 1},
        {"guest_players": "yes"},
    ):
        with pytest.raises(LeagueError):
            parse_settings(bad)
