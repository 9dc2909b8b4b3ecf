"""The host's own spread: one fixed piece of Python work, timed again and again (no Django).

Run from the repository root::

    python -m bench host-jitter                 # 300 a mode, 0.2 s apart
    python -m bench host-jitter --pause 1.0     # the live bench's pace (10 minutes)

The live bench's director's cost (issue 38) compares the p95 of 300 saves with the link on
against 300 with it off. Where identical work already takes some 1.4-1.7 times its median at
p95, that tail is the host's (a virtual CPU that shares its core some of the time), not the
app's, and it decides how far the p95 of 300 saves moves by chance. This bench times the
same arithmetic (no allocation, no I/O) in blocks of 10, alternately labelled "off" and "on"
as the live bench's blocks are, and prints the spread and the A/A rise of the p95 with the
live bench's bootstrap interval: the floor of what a run of the live bench can show.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench.live.measure import BLOCK
from bench.live.report import p95_rise, pct, rise_interval


def fixed_work(iterations: int) -> int:
    total = 0
    for i in range(iterations):
        total += i * i % 7
    return total


def sample(per_mode: int, pause: float, iterations: int) -> dict[str, list[float]]:
    """Milliseconds of each run of the same work, in alternating blocks "off" and "on"."""
    times: dict[str, list[float]] = {"off": [], "on": []}
    mode = "off"
    while min(len(v) for v in times.values()) < per_mode:
        for _ in range(BLOCK):
            started = time.perf_counter()
            fixed_work(iterations)
            times[mode].append((time.perf_counter() - started) * 1000)
            time.sleep(pause)
        mode = "on" if mode == "off" else "off"
    return times


def summary(times: dict[str, list[float]]) -> dict[str, float]:
    """The spread of all runs and the A/A rise of the p95 ("on" against "off")."""
    every = sorted(times["off"] + times["on"])
    median = statistics.median(every)
    p95 = pct(every, 0.95)
    low, high = rise_interval(times["off"], times["on"])
    return {
        "n": len(every),
        "p50": median,
        "p90": pct(every, 0.90),
        "p95": p95,
        "max": every[-1],
        "p95/p50": p95 / median,
        "slow share": sum(1 for x in every if x > 1.3 * median) / len(every),
        "rise": p95_rise(times["off"], times["on"]),
        "low": low,
        "high": high,
    }


def report(s: dict[str, float], per_mode: int, pause: float) -> None:
    load = os.getloadavg()[0]
    print(
        f"## The host's spread: the same arithmetic {s['n']:.0f} times, {pause:g} s apart, "
        f"in blocks of {BLOCK} ({os.cpu_count()} cores, load {load:.1f})"
    )
    print("| measure | figure |")
    print("|---|---|")
    print(f"| p50 / p90 / p95 / max, ms | {s['p50']:.2f} / {s['p90']:.2f} / {s['p95']:.2f} / "
          f"{s['max']:.2f} |")  # fmt: skip
    print(f"| p95 / p50 | {s['p95/p50']:.2f} |")
    print(f"| runs over 1.3 × the median | {100 * s['slow share']:.0f} % |")
    print(f'| A/A: p95 of {per_mode} "on" against {per_mode} "off" | {s["rise"]:+.1f} % |')
    interval = f"{s['low']:+.1f} … {s['high']:+.1f} %"
    print(f"| … 90 % interval (bench.live.report's bootstrap) | {interval} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-mode", type=int, default=300, help="runs a mode (300)")
    parser.add_argument("--pause", type=float, default=0.2, help="seconds between runs (0.2)")
    parser.add_argument(
        "--iterations", type=int, default=150_000, help="the work's loop (6 ms on a fast host)"
    )
    args = parser.parse_args(argv)
    per_mode = max(1, args.per_mode)
    times = sample(per_mode, max(0.0, args.pause), max(1, args.iterations))
    report(summary(times), per_mode, args.pause)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
