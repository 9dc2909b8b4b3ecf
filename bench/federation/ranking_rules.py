"""Benchmark: the federation's ranking rules alone (no Django, no database).

    python -m bench ranking-rules              # 10,000 players, 1,500 events
    python -m bench ranking-rules --players 2000 --events 300 --runs 3

The data set of issue 27: 10,000 players, 1,500 sanctioned events over 26 months (some
before the 24-month window) of 30 to 400 players (most small: about 200,000 results), one
in ten a championship, tied places, 16 regional associations. Built before timing; each
row is timed `--runs` times with the garbage collector paused: the median and best wall
time and the median CPU time of this process, in ms (on a busy machine the CPU time is the
computation's own cost).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from datetime import date, timedelta

from rules.qualification import Wildcard, qualify
from rules.ranking import (
    AVERAGE_PER_HAND,
    CHAMPIONSHIP,
    RANKING_TOURNAMENT,
    EventResult,
    RankingSettings,
    compute_ranking,
    rerank,
)

AS_OF = date(2026, 6, 30)
REGIONS = 16


def build(players: int, events: int, seed: int) -> list[EventResult]:
    """Every event's standing: random totals, places by competition ranking (ties share)."""
    rng = random.Random(seed)
    out = []
    for event in range(events):
        size = min(players, int(30 + 370 * rng.random() ** 2.3))
        day = AS_OF - timedelta(days=rng.randrange(0, 26 * 30))
        klass = CHAMPIONSHIP if rng.random() < 0.1 else RANKING_TOURNAMENT
        series = rng.choice((2, 3, 3, 4))
        field = rng.sample(range(players), size)
        hands = series * 12
        totals = sorted(((rng.randint(-400, 40), p) for p in field), reverse=True)
        place = 0
        for i, (total, player) in enumerate(totals):
            if not i or total != totals[i - 1][0]:
                place = i + 1
            out.append(EventResult(player, event, day, klass, size, place, total, hands, series))
    return out


def timed(run, runs: int) -> tuple[tuple[float, float, float], object]:
    """(median wall ms, best wall ms, median CPU ms of this process), the last result."""
    wall, cpu, result = [], [], None
    gc.disable()
    try:
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            result = run()
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    finally:
        gc.enable()
    return (statistics.median(wall), min(wall), statistics.median(cpu)), result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=1_500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args(argv)

    results = build(args.players, args.events, args.seed)
    regions = {p: f"LV{p % REGIONS:02d}" for p in range(args.players)}
    defaults = RankingSettings()
    ddv = RankingSettings(min_field=32, min_series=3)
    average = RankingSettings(formula=AVERAGE_PER_HAND, min_hands=48)
    rows = []

    for label, settings in (
        ("ranking, defaults (best 5 of 24 months)", defaults),
        ("ranking, DDV minimum (32 players, 3 series)", ddv),
        ("ranking, average per hand (48 hands)", average),
    ):
        ms, ranking = timed(lambda s=settings: compute_ranking(results, s, AS_OF), args.runs)
        rows.append((label, len(results), len(ranking.lines), ms))
        if settings is defaults:
            base = ranking

    one_region = {p for p, r in regions.items() if r == "LV00"}
    ms, regional = timed(lambda: rerank(base.lines, one_region), args.runs)
    rows.append(("regional list (one of 16)", len(base.lines), len(regional), ms))

    titles = [base.lines[5].player]
    cards = [Wildcard(base.lines[-1].player, "Ausrichter")]
    ms, quali = timed(
        lambda: qualify(base, regions, 4, title_holders=titles, wildcards=cards), args.runs
    )
    rows.append(
        ("qualification, 4 per region + reserves", len(base.lines), len(quali.qualified), ms)
    )

    in_window = sum(1 for e in base.events)
    print(
        f"{args.players:,} players, {args.events:,} events ({in_window:,} in the window), "
        f"{len(results):,} results; median of {args.runs} runs"
    )
    print(f"| {'operation':<46} | {'rows in':>9} | {'rows out':>8} | median | best | CPU |")
    print(f"|{'-' * 48}|{'-' * 11}|{'-' * 10}|-------:|-----:|----:|")
    for label, rows_in, rows_out, (median, best, cpu) in rows:
        print(
            f"| {label:<46} | {rows_in:>9,} | {rows_out:>8,} | {median:>6.0f} | {best:>4.0f} "
            f"| {cpu:>3.0f} |"
        )
