"""The timing table on several databases side by side, in one run.

    python -m bench --db sqlite,postgresql [--short] [--runs N] [--write]

Each database gets its own `python -m bench table --json FILE` process (Django is set up once per
process, on a fresh database: bench.rigs.harness), then one table shows the median of every row
per database and the ratio PostgreSQL / SQLite. A budget is met only if it holds on every
database. PostgreSQL is BENCH_POSTGRES_URL, or postgres://postgres@127.0.0.1:5432/romme_bench
(the harness creates and drops test_<name> beside it): over TCP, as CI and a server whose
database is on another machine connect. ``postgresql-socket`` is the same database over the
local Unix socket, as the README's server install connects (BENCH_POSTGRES_SOCKET_URL, or
Debian's socket folder /var/run/postgresql).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATABASES = {
    "sqlite": "",
    "postgresql": os.environ.get(
        "BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/romme_bench"
    ),
    "postgresql-socket": os.environ.get(
        "BENCH_POSTGRES_SOCKET_URL", "postgres://postgres@%2Fvar%2Frun%2Fpostgresql/romme_bench"
    ),
}


def run_one(name: str, args) -> list[dict]:
    if name not in DATABASES:
        raise SystemExit(f"unknown database {name!r}; known: {', '.join(DATABASES)}")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rows.json"
        command = [
            sys.executable,
            "-m",
            "bench",
            "table",
            "--json",
            str(out),
            "--runs",
            str(args.runs),
        ]
        if args.short:
            command.append("--short")
        if args.skip_exports:
            command.append("--skip-exports")
        if args.only_exports:
            command.append("--only-exports")
        env = {**os.environ, "DATABASE_URL": DATABASES[name]}
        print(f"=== {name}: {' '.join(command[1:])}", flush=True)
        subprocess.run(command, cwd=ROOT, env=env, check=False)
        if not out.exists():
            raise SystemExit(f"the benchmark on {name} wrote no results")
        return json.loads(out.read_text(encoding="utf-8"))


def merge(results: dict[str, list[dict]]) -> list[dict]:
    """One row per (operation, size), in the order of the first database's table."""
    names = list(results)
    order, by_key = [], {}
    for name in names:
        for row in results[name]:
            key = (row["operation"], row["size"])
            if key not in by_key:
                by_key[key] = {
                    "operation": row["operation"],
                    "size": row["size"],
                    "budget_ms": row["budget_ms"],
                    "queries": {},
                    "median": {},
                }
                order.append(key)
            by_key[key]["median"][name] = row["median_ms"]
            by_key[key]["queries"][name] = row["queries"]
    return [by_key[key] for key in order]


def table(rows: list[dict], names: list[str]) -> str:
    ratio = len(names) == 2
    head = f"| {'operation':<42} | {'size':<6} | " + " | ".join(f"{n + ' ms':>13}" for n in names)
    head += f" | {'ratio':>5}" if ratio else ""
    head += f" | {'queries':>9} | {'budget ms':>9} | result"
    lines = [head, "|" + "|".join("-" * len(c) for c in head.split("|")[1:])]
    for row in rows:
        medians = [row["median"].get(n) for n in names]
        cells = " | ".join(f"{'' if m is None else f'{m:.1f}':>13}" for m in medians)
        line = f"| {row['operation'][:42]:<42} | {row['size']:<6} | {cells}"
        if ratio:
            a, b = medians
            line += f" | {f'{b / a:.2f}' if a and b else '':>5}"
        queries = {q for q in row["queries"].values() if q is not None}
        query_text = "/".join(str(row["queries"].get(n)) for n in names) if len(queries) > 1 else (
            str(next(iter(queries))) if queries else "")  # fmt: skip
        budget = row["budget_ms"]
        verdict = "–"
        if budget is not None:
            met = all(m is not None and m <= budget for m in medians)
            verdict = (
                "pass"
                if met
                else "FAIL "
                + ",".join(
                    n for n, m in zip(names, medians, strict=True) if m is None or m > budget
                )
            )
        line += f" | {query_text:>9} | {'' if budget is None else f'{budget:g}':>9} | {verdict}"
        lines.append(line)
    return "\n".join(lines)


def main(args) -> int:
    names = [n.strip() for n in args.db.split(",") if n.strip()]
    started, load_before = time.perf_counter(), os.getloadavg()[0]
    began = time.strftime("%Y-%m-%d %H:%M")
    results = {name: run_one(name, args) for name in names}
    rows = merge(results)
    text = table(rows, names)
    command = f"python -m bench --db {','.join(names)} --runs {args.runs}"
    command += " --short" if args.short else ""
    command += " --skip-exports" if args.skip_exports else ""
    command += " --only-exports" if args.only_exports else ""
    print(f"\n{text}\n\n{time.perf_counter() - started:.0f} s in all; `{command}`")
    from bench.timing import budgets

    budgets.print_budgets(results)
    if args.write:
        write_doc(text, command, began, (load_before, os.getloadavg()[0]))
    failed = [r for r in rows if r["budget_ms"] is not None and any(
        m > r["budget_ms"] for m in r["median"].values())]  # fmt: skip
    return 1 if failed and not args.short else 0


def write_doc(text: str, command: str, began: str, load: tuple[float, float]) -> None:
    doc = ROOT / "docs" / "performance.md"
    body = doc.read_text(encoding="utf-8")
    start, end = "<!-- database table -->", "<!-- end database table -->"
    # The load, not a claim about it: the reader judges whether the machine was quiet.
    block = (f"{start}\nMeasured with `{command}` ({began}-{time.strftime('%H:%M %Z')}, "
             f"{os.cpu_count()} cores, load average {load[0]:.1f} → {load[1]:.1f}):"
             f"\n\n{text}\n{end}")  # fmt: skip
    if start in body:
        head, rest = body.split(start, 1)
        body = head + block + rest.split(end, 1)[1]
    else:
        body += "\n## SQLite and PostgreSQL side by side\n\n" + block + "\n"
    doc.write_text(body, encoding="utf-8")
