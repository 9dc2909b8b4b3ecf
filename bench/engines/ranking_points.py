"""Do plausible hands under `ranking-points` end with the reported totals?
``python -m bench ranking-points``

The reports of tournaments "nach den Rommé-Wettkampfregeln" (deaf players' associations
of Saxony, Saxony-Anhalt and Thuringia, 2012-2014; two series of 20 hands) give the
winners of 40-51-player fields 115-117 points over the 40 hands and tenth place 104.
This plays such fields with the project's hand generator (``rules.random_hand``,
the deals of the demo data and the benchmarks), scores every hand with ``score_hand``
under the preset and prints, per field size, the winner's total, the 10th place, the
median and the last place over ``--seeds`` fields (mean and range). Tables as the draw
makes them (``tournaments.draw.table_sizes``: 4-tables, the rest at 3-tables), seated
at random again for the second series; every table plays 20 hands a series.

Pure Python (the rules engine and the draw's table sizes); no database.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass

from rules import PRESETS, check_hand, random_hand, score_hand
from tournaments.draw import table_sizes

PRESET = "ranking-points"
FIELDS = (40, 45, 51)
SERIES = 2
HANDS = 20
REPORTED = {"winner": (115, 117), "10th": (104, 104)}


@dataclass(frozen=True)
class Field:
    players: int
    totals: tuple[int, ...]  # every player's total, best first
    losers: tuple[int, ...]  # how many losers' results scored 0, 1, 2, 3 points


def play_field(players: int, seed: int, *, preset: str = PRESET, check: bool = False) -> Field:
    """One tournament: `players` players, SERIES series of HANDS hands at the draw's tables.
    `check` also runs ``check_hand`` on every hand and asserts the preset's limits."""
    ruleset = PRESETS[preset]
    rng = random.Random(seed)
    totals = [0] * players
    losers = [0, 0, 0, 0]
    for _series in range(SERIES):
        order = list(range(players))
        rng.shuffle(order)
        start = 0
        for size in table_sizes(players):
            seats = order[start : start + size]
            start += size
            for k in range(HANDS):
                hand = random_hand(ruleset, size, rng, dealer=k % size)
                points = score_hand(hand, ruleset, size)
                if check:
                    _check(hand, points, ruleset, size)
                for seat, player in enumerate(seats):
                    totals[player] += points[seat]
                    if seat != hand.winner:
                        losers[points[seat]] += 1
    return Field(players, tuple(sorted(totals, reverse=True)), tuple(losers))


def _check(hand, points, ruleset, size) -> None:
    """The structural facts of the preset: a winner 5 (8 after a hand Rommé), a loser 3, 2,
    1 or 0 by the band of the hand points held."""
    problems = check_hand(hand, ruleset, size)
    assert not problems, problems
    win = ruleset.hand_romme_points if hand.hand_romme else ruleset.win_points
    for seat, (result, got) in enumerate(zip(hand.seats, points, strict=True)):
        if seat == hand.winner:
            assert got == win, (seat, got)
            continue
        band = next((p for up_to, p in ruleset.loser_bands if result.hand_points <= up_to), 0)
        assert got == band, (seat, result.hand_points, got)
        assert 0 <= got <= max(p for _, p in ruleset.loser_bands) < ruleset.win_points


def fields(sizes, seeds: int, **kwargs) -> Iterator[Field]:
    for players in sizes:
        for seed in range(seeds):
            yield play_field(players, 1000 * players + seed, **kwargs)


def summary(played: list[Field]) -> list[dict]:
    """Per field size: mean and range of the winner, 10th place, median and last place."""
    rows = []
    for players in sorted({f.players for f in played}):
        same = [f.totals for f in played if f.players == players]
        places = {
            "winner": [t[0] for t in same],
            "10th": [t[9] for t in same],
            "median": [statistics.median(t) for t in same],
            "last": [t[-1] for t in same],
        }
        rows.append({"players": players, "seeds": len(same), **places})
    return rows


def _cell(values) -> str:
    return f"{statistics.mean(values):.0f} ({min(values):.0f}-{max(values):.0f})"


def print_table(rows: list[dict]) -> None:
    print(f"`{PRESET}`, {SERIES} series x {HANDS} hands, tables of 4 (rest of 3): mean (range)")
    print()
    print("| players | fields | winner | 10th place | median | last |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        cells = " | ".join(_cell(r[k]) for k in ("winner", "10th", "median", "last"))
        print(f"| {r['players']} | {r['seeds']} | {cells} |")
    low, high = REPORTED["winner"]
    print()
    print(f"Reported: winner {low}-{high}, 10th place {REPORTED['10th'][0]}.")


def print_losers(played: list[Field]) -> None:
    counts = [sum(f.losers[k] for f in played) for k in range(4)]
    total = sum(counts)
    shares = ", ".join(f"{k} points {100 * counts[k] / total:.0f} %" for k in (3, 2, 1, 0))
    mean = sum(k * counts[k] for k in range(4)) / total
    print(f"Losers' results: {shares}; {mean:.2f} points per loser and hand.")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50, help="fields per size (default 50)")
    parser.add_argument("--players", type=int, nargs="*", default=list(FIELDS))
    parser.add_argument("--check", action="store_true", help="check every hand as well")
    args = parser.parse_args(argv)
    played = list(fields(args.players, args.seeds, check=args.check))
    print_table(summary(played))
    print_losers(played)
    return 0
