"""Time the seating draw on a 400-player field: ``python -m bench draw``.

The field has 20 clubs, 100 tandem pairs, 25 teams of 4 and the opponents of a previous
series; every constraint is switched on. Budget: 1 s per draw.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.draw import DrawOptions, DrawPlayer, draw, opponents_from

PLAYERS = 400
CLUBS = 20
PAIRS = 100
TEAMS = 25


def build_field(seed: int = 2024) -> tuple[list[DrawPlayer], set[frozenset[int]]]:
    """The benchmark field and a previous series' opponents."""
    rng = random.Random(seed)
    ids = list(range(1, PLAYERS + 1))
    clubs = {pid: 1 + (pid - 1) % CLUBS for pid in ids}
    groups: dict[int, list[str]] = {pid: [] for pid in ids}
    # Tandem and team members play for one club, as they usually do.
    for k in range(PAIRS):
        a, b = 2 * k + 1, 2 * k + 2
        clubs[b] = clubs[a]
        groups[a].append(f"pair:{k + 1}")
        groups[b].append(f"pair:{k + 1}")
    for k in range(TEAMS):
        members = range(2 * PAIRS + 4 * k + 1, 2 * PAIRS + 4 * k + 5)
        for pid in members:
            clubs[pid] = clubs[members[0]]
            groups[pid].append(f"team:{k + 1}")
    ranks = list(range(1, PLAYERS + 1))
    rng.shuffle(ranks)
    players = [
        DrawPlayer(id=pid, club=clubs[pid], groups=tuple(groups[pid]), rank=rank)
        for pid, rank in zip(ids, ranks, strict=True)
    ]
    first = draw(players, seed=rng.randrange(2**31))
    return players, opponents_from(first.tables)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    players, previous = build_field()
    print(f"{'case':<8} {'players':>7} {'median ms':>10} {'p95 ms':>8} {'violations':>10}")
    for method in ("lot", "ranked"):
        options = DrawOptions(method=method, avoid_same_club=True, avoid_repeat_opponents=True)
        times, broken = [], []
        for seed in range(args.runs):
            start = time.perf_counter()
            result = draw(players, seed, options, previous)
            times.append((time.perf_counter() - start) * 1000)
            broken.append(len(result.violations))
        times.sort()
        p95 = times[max(0, -(-len(times) * 95 // 100) - 1)]
        print(
            f"{method:<8} {len(players):>7} {statistics.median(times):>10.1f} {p95:>8.1f} "
            f"{max(broken):>10}"
        )
