"""The live bench's table (bench.live.measure): the issue's three targets, the director's
cost with the bootstrap interval of its p95 rise."""

from __future__ import annotations

import os
import random
import statistics

VISIBLE_S, BACKLOG_S = 5.0, 30.0
# The director's cost (issue 38): the p95's rise with the link on, and the upper end of its
# 90 % interval, so that a run that passes by chance alone does not pass.
COST_PCT, COST_HIGH_PCT = 5.0, 8.0


def pct(values, q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def backlog_rows(row, backlog: dict, quick: bool, ok: bool) -> None:
    row(
        f"backlog: {backlog['changes']} changes after {backlog['offline']:.0f} s offline "
        f"({backlog['failures']} failed tries); server back → all held, s",
        f"{backlog['caught']:.1f}",
        "≤ 30 s",
        ok,
    )
    waited = "–" if backlog["waited"] is None else f"{backlog['waited']:.1f}"
    row("… of which waiting for the retry / pushing, s", f"{waited} / {backlog['push']:.1f}")
    row("… parts / batches sent", f"{backlog['parts']} / {backlog['batches']}")
    row("… top 10 overall on the server's JSON = laptop's", "yes" if backlog["equal"] else "NO")
    row("… the sender's retry interval then", f"{backoff_cap():.0f} s ±20 %" if not quick
        else "not at its cap (--quick)")  # fmt: skip


def p95_rise(off: list[float], on: list[float]) -> float:
    """How much higher the p95 of ``on`` is than that of ``off``, in per cent."""
    return (pct(on, 0.95) / pct(off, 0.95) - 1) * 100


def rise_interval(off: list[float], on: list[float], rounds: int = 2000) -> tuple[float, float]:
    """The 5th and 95th percentile of the p95's rise over resamples of both modes' saves:
    how far the rise of one run could move by chance alone (a p95 of 100 spreads by about
    15 % between identical runs here)."""
    rng = random.Random(95)
    # "on" is resampled first, as it always was: the same saves give the same interval.
    rises = sorted(
        p95_rise(on=rng.choices(on, k=len(on)), off=rng.choices(off, k=len(off)))
        for _ in range(rounds)
    )
    return rises[round(0.05 * (rounds - 1))], rises[round(0.95 * (rounds - 1))]


def split_rows(row, times: dict, split: dict) -> None:
    """Where the saves' time went, off → on: the director's own CPU (a rise: his process's
    work, or a CPU slowed by what runs beside it), the wait for SQLite's write lock (the
    workers' writes), the rest (the disk's syncs, time off the CPU)."""
    parts = {
        mode: {
            "CPU": [x * 1000 for x in split[mode]["cpu"]],
            "write lock": [x * 1000 for x in split[mode]["lock"]],
            "rest": [
                (t - c - w) * 1000
                for t, c, w in zip(
                    times[mode], split[mode]["cpu"], split[mode]["lock"], strict=True
                )
            ],
        }
        for mode in ("off", "on")
    }
    for name in ("CPU", "write lock", "rest"):
        off, on = parts["off"][name], parts["on"][name]
        row(
            f"… save + confirm's {name}, off → on: p50 / p95 ms",
            f"{statistics.median(off or [0]):.2f} → {statistics.median(on or [0]):.2f} / "
            f"{pct(off, 0.95):.2f} → {pct(on, 0.95):.2f}",
        )


def backoff_cap() -> float:
    from live.laptop.sender import BACKOFF_MAX_S

    return BACKOFF_MAX_S


def report(args, visible, cost, backlog, first_push, loads, errors) -> int:
    off, on = (sorted(x * 1000 for x in cost["times"][m]) for m in ("off", "on"))
    rise = p95_rise(off, on)
    low, high = rise_interval(off, on)
    checks = {"cost": rise <= COST_PCT, "cost interval": high <= COST_HIGH_PCT}
    control = getattr(args, "control", False)
    on_label = "link off too (--control)" if control else "link on"
    if visible is not None:
        checks["visible"] = pct(visible, 0.95) <= VISIBLE_S
    if backlog is not None:
        checks["backlog"] = backlog["equal"] and backlog["caught"] <= BACKLOG_S
    print()
    print(
        f"## Live results: SQLite laptop (hall mode) → gunicorn (2 workers) + PostgreSQL, "
        f"400 players, {os.cpu_count()} cores{' (--quick)' if args.quick else ''}"
        + (" (--cost-only)" if args.cost_only else "")
        + (
            f", the server's gunicorn and PostgreSQL backends at nice {args.server_nice}"
            if args.server_nice
            else ""
        )
        + (", its commits not flushed (--server-own-disk)" if args.server_own_disk else "")
        + (
            ", on the director's CPU, running while he waits (--server-core)"
            if args.server_core
            else ""
        )
        + (
            f"; the director's cost against a server on another machine, each batch"
            f" acknowledged after {args.server_elsewhere:g} s (--server-elsewhere)"
            if getattr(args, "server_elsewhere", None) is not None
            else ""
        )
        + ("; the link off in both kinds of block, chance alone (--control)" if control else "")
    )
    print("| measure | figure | target | verdict |")
    print("|---|---|---|---|")

    def row(label, figure, target="", ok=None):
        verdict = "" if ok is None else ("pass" if ok else "MISS")
        print(f"| {label} | {figure} | {target} | {verdict} |")

    row("first push (live_push) of event A / event B, s",
        " / ".join(f"{s:.1f}" for s in first_push))  # fmt: skip
    if visible is not None:
        row(
            f"confirmation → server's version.json, median / p95 / max s ({len(visible)})",
            f"{statistics.median(visible):.2f} / {pct(visible, 0.95):.2f} / {max(visible):.2f}",
            "≤ 5 s",
            checks["visible"],
        )
    if backlog is not None:
        backlog_rows(row, backlog, args.quick, checks["backlog"])
    row(f"save + confirm, link off: p50 / p95 ms ({len(off)})",
        f"{statistics.median(off):.1f} / {pct(off, 0.95):.1f}")  # fmt: skip
    row(f"save + confirm, {on_label}: p50 / p95 ms ({len(on)})",
        f"{statistics.median(on):.1f} / {pct(on, 0.95):.1f}")  # fmt: skip
    row("p95 on vs off", f"{rise:+.1f} %", f"≤ +{COST_PCT:g} %", checks["cost"])
    row("… 90 % interval of that rise (bootstrap, 2000 resamples)", f"{low:+.1f} … {high:+.1f} %",
        f"upper end ≤ +{COST_HIGH_PCT:g} %", checks["cost interval"])  # fmt: skip
    row(
        "pushes during the on / off blocks; worker pushing, % of the block time",
        f"{cost['pushes']['on']} / {cost['pushes']['off']}; "
        f"{100 * cost['busy']['on'] / max(cost['spent']['on'], 1e-9):.0f} % / "
        f"{100 * cost['busy']['off'] / max(cost['spent']['off'], 1e-9):.0f} %",
    )
    met = cost.get("met") or []
    if met:
        during = sorted(x * 1000 for x, m in zip(cost["times"]["on"], met, strict=False) if m)
        apart = sorted(x * 1000 for x, m in zip(cost["times"]["on"], met, strict=False) if not m)
        row(
            f"… {on_label}: saves while a push ran / the others: count; p50 / p95 ms",
            f"{len(during)}; {statistics.median(during or [0]):.1f} / {pct(during, 0.95):.1f}"
            f" · {len(apart)}; {statistics.median(apart or [0]):.1f} / {pct(apart, 0.95):.1f}",
        )
    if cost.get("split"):
        split_rows(row, cost["times"], cost["split"])
    row("load average (1 min) at start / after each step",
        " / ".join(f"{x[0]:.1f}" for x in loads))  # fmt: skip
    if backlog is not None and not backlog["equal"]:
        print(f"  laptop: {backlog['mine']}\n  server: {backlog['theirs']}")
    if "Traceback" in errors:
        print("\nThe processes' log has a traceback:\n" + errors[-3000:])
    return 0 if all(checks.values()) else 1
