"""Benchmark: check and score random hands under every preset (no Django).

Run from the repository root::

    python -m bench rules            # 100,000 hands per preset
    python -m bench rules --hands 5000

Hands are dealt with ``random_hand`` before timing; the clock covers ``check_hand``
plus ``score_hand`` only. Table sizes cycle through the preset's allowed range. Like
``timeit``, each batch is timed ``--repeat`` times with the garbage collector paused and
the best run is reported: a 50 ms pass on a shared machine is otherwise mostly noise.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time

from rules import PRESETS, check_hand, random_hand, score_hand


def _time(batch, rs) -> tuple[float, int]:
    problems = 0
    start = time.perf_counter()
    for h, n in batch:
        if check_hand(h, rs, n):
            problems += 1
        score_hand(h, rs, n)
    return time.perf_counter() - start, problems


def run(
    hands: int, seed: int, keep_cards: bool, repeat: int = 5
) -> list[tuple[str, str, int, float, int]]:
    rows = []
    for slug, rs in PRESETS.items():
        rng = random.Random(seed)
        sizes = list(range(rs.players_min, rs.players_max + 1))
        batch = []
        for k in range(hands):
            n = sizes[k % len(sizes)]
            batch.append((random_hand(rs, n, rng, dealer=k % n, keep_cards=keep_cards), n))
        gc.disable()
        try:
            elapsed, problems = min(_time(batch, rs) for _ in range(max(1, repeat)))
        finally:
            gc.enable()
        # a profile that counts jokers held (drov-ranking-points) always gets cards
        kind = "cards" if keep_cards or rs.needs_cards else "points"
        rows.append((slug, kind, hands, elapsed, problems))
    return rows


def _libpython() -> str:
    """Whether the interpreter runs on a shared libpython (pyenv's default build: slower
    calls) or has it linked in (Debian's /usr/bin/python3.11)."""
    try:
        with open("/proc/self/maps") as maps:
            shared = any("libpython" in line for line in maps)
    except OSError:
        return "libpython unknown"
    return "shared libpython" if shared else "libpython linked in"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per preset")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--cards", action="store_true", help="also time hands given as cards")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes; the best counts")
    args = parser.parse_args(argv)
    # The interpreter's build moves this table by a fifth (docs/performance.md): say which.
    print(f"Python {platform.python_version()} ({sys.executable}, {_libpython()})")
    rows = run(args.hands, args.seed, keep_cards=False, repeat=args.repeat)
    if args.cards:
        rows += run(args.hands, args.seed, keep_cards=True, repeat=args.repeat)
    print(f"{'preset':<20} {'input':<7} {'hands':>9} {'seconds':>8} {'hands/s':>10}")
    total_h = total_s = 0.0
    for slug, kind, n, secs, problems in rows:
        total_h += n
        total_s += secs
        flag = f"  ({problems} with problems!)" if problems else ""
        print(f"{slug:<20} {kind:<7} {n:>9,} {secs:>8.3f} {n / secs:>10,.0f}{flag}")
    # Two totals: hands written as points (what a sheet of every points profile holds; the
    # 500,000 hands/s target), and every row, where a preset that counts jokers held
    # (drov-ranking-points) always takes cards and costs its per-card work.
    points = [(n, secs) for _slug, kind, n, secs, _p in rows if kind == "points"]
    if points and len(points) < len(rows):
        ph = sum(n for n, _ in points)
        ps = sum(secs for _, secs in points)
        print(f"{'all, points input':<28} {ph:>9,} {ps:>8.3f} {ph / ps:>10,.0f}")
    cards = sorted({slug for slug, kind, *_ in rows if kind == "cards"})
    label = "all" if not cards or args.cards else f"all ({', '.join(cards)} as cards)"
    print(f"{label}\n{'':<28} {int(total_h):>9,} {total_s:>8.3f} {total_h / total_s:>10,.0f}")
