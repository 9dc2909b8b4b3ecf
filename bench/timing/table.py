"""The timing table: every operation the issues budget, on the small, large and season data.

    python -m bench                 # full run (about two minutes), prints the table
    python -m bench --write         # also writes it to docs/performance.md
    python -m bench --short         # CI: the small data set, a few runs, no budgets enforced
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/romme python -m bench   # on PostgreSQL
    python -m bench --db sqlite,postgresql   # both, one table with the ratio (compare.py)

``python -m bench table [options]`` is the same; ``python -m bench --help`` lists the other
sub-commands. A fresh database is used (bench.rigs.harness.setup_django); nothing real is
touched. Budgets come from the issues; "FAIL" marks a median over budget and the exit code is
non-zero.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from bench.rigs.harness import (
    Measurement,
    analyze,
    kept_connection_warmup,
    measure,
    print_table,
    setup_django,
    teardown_django,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "performance.md"


def rules_rows(hands: int) -> list[Measurement]:
    from rules import PRESETS, check_hand, random_hand, score_hand

    rows = []
    for slug in ("german-minus", "treppenromme"):
        ruleset = PRESETS[slug]
        rng = random.Random(7)
        sizes = list(range(ruleset.players_min, ruleset.players_max + 1))
        batch = []
        for k in range(hands):
            n = sizes[k % len(sizes)]
            batch.append((random_hand(ruleset, n, rng, dealer=k % n), n))

        def run(batch=batch, ruleset=ruleset):
            for hand, n in batch:
                check_hand(hand, ruleset, n)
                score_hand(hand, ruleset, n)

        m = measure(f"check + score {hands:,} hands, {slug}", "-", run, runs=3,
                    count_queries=False)  # fmt: skip
        m.note = f"{hands / (m.median_ms / 1000):,.0f} hands/s"
        rows.append(m)
    return rows


def workflow_rows(size: str, players, club, runs: int) -> list[Measurement]:
    """Seating draw for series 2 with constraints, then saving and confirming sheets."""
    from django.contrib.auth import get_user_model

    from clubs.models import ClubRole
    from rules import random_hand
    from scoring.demo.generate import Plan, generate_event
    from scoring.sheets import selectors, services
    from tournaments import seating
    from tournaments.models import Series

    User = get_user_model()
    director = User.objects.create_user(f"bench-director-{size}", password="x")
    checker = User.objects.create_user(f"bench-checker-{size}", password="x")
    for user in (director, checker):
        ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.ORGANISER)
    event = generate_event(
        Plan(name=f"Auslosung {size}", club=club, players=players, series=2, rounds=5,
             confirmed_series=1, pairs=len(players) // 4, teams=len(players) // 16, seed=3)
    )  # fmt: skip
    event.avoid_same_club = event.avoid_repeat_opponents = True
    event.save()
    series = event.series.get(number=2)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.SEATED)
    series.refresh_from_db()
    # The planner's statistics of the data sets and this event (as autovacuum's on a server;
    # every timed read and write of the table comes after this): without them PostgreSQL
    # summed a sheet's seat totals over every hand seat, 5 of a save + confirm's 28 ms
    # (performance log, session 22).
    analyze()

    def draw():
        order = selectors.running_order(event, before_series=2)
        seating.draw_series(director, series, running_order=order)

    rows = [measure("seating draw, series 2 (constraints)", size, draw, runs=max(3, runs // 4),
                    budget_ms=1000)]  # fmt: skip
    tables = list(series.tables.prefetch_related("seats").order_by("number"))
    Series.objects.filter(pk=series.pk).update(status=Series.Status.IN_PLAY)  # sheets need it
    rng = random.Random(11)
    ruleset = event.ruleset
    queue = iter(tables)

    def save_and_confirm():
        table = next(queue)
        size_ = len(table.seats.all())
        hands = [random_hand(ruleset, size_, rng, dealer=i % size_) for i in range(5 * size_)]
        grid = {"first_dealer": 0, "hands": [h.to_dict() for h in hands]}
        services.save_sheet(director, table, grid, expected_version=0, submit=True)
        services.confirm_sheet(checker, table, grid, expected_version=1)

    warmup = min(kept_connection_warmup(), max(0, len(tables) - 1 - runs))
    count = min(runs, len(tables) - 1 - warmup)
    rows.append(measure("save + confirm one sheet (validated)", size, save_and_confirm,
                        runs=count, warmup=warmup, budget_ms=150))  # fmt: skip
    return rows


def export_rows(
    event, runs: int, *, season=None, workbook_pdf=False, prints_only=False
) -> list[Measurement]:
    from bench.rigs.datasets import add_categories
    from scoring.exports.registry import EXPORTERS

    series = event.series.get(number=1)
    # Issue 38: every category print at most half the series print's 3 s; its A3 wall list
    # half the overall wall list's 5 s. Women, seniors and youth (bench.rigs.datasets).
    categories = [("category-standings", event, "pdf", 1_500),
                  ("category-standings-wall", event, "pdf", 2_500)]  # fmt: skip
    cases = [
        ("seating", series, "xlsx", None),
        ("seating", series, "pdf", None),
        ("score-sheets", series, "pdf", 5_000),  # issue 38: half the first budgets
        ("standings", event, "pdf", 2_500),
        ("standings", event, "xlsx", None),
        ("series-standings", series, "pdf", 1_500),  # issue 29: after every series
        ("standings-wall", event, "pdf", 2_500),  # issue 29: the overall wall list (A3)
        ("event-workbook", event, "xlsx", 5_000),
    ]
    if prints_only:  # the score sheets, standings, season and workbook PDFs (issues 13, 18)
        cases = [("score-sheets", series, "pdf", 5_000), ("standings", event, "pdf", 2_500),
                 ("series-standings", series, "pdf", 1_500),
                 ("standings-wall", event, "pdf", 2_500)]  # fmt: skip
    if workbook_pdf:  # a job in the app (minutes): no budget
        cases.append(("event-workbook", event, "pdf", None))
    if season is not None:
        cases.append(("season-ranking", season.club, "pdf", None))
    cases += categories  # last: the rows before them read the event without categories
    rows = []
    for slug, obj, fmt, budget in cases:
        if slug not in EXPORTERS:
            continue
        if slug.startswith("category-"):
            add_categories(event)
        tables = series.tables.count()
        what = f"export {slug}.{fmt}" + (f" ({tables} tables)" if slug == "score-sheets" else "")
        size = "season" if slug == "season-ranking" else "large"
        count = 1 if (slug, fmt) == ("event-workbook", "pdf") else runs
        # --only-exports: each PDF laid out in one process as well (PDF_WORKERS=1, as before
        # the parallel parts), in the same run.
        for workers in _pdf_workers(fmt, both=prints_only):
            label = what if workers is None else f"{what}, 1 process"
            # The one process is the comparison; the budget is the app's way (PDF_WORKERS).
            kept = budget if workers is None else None
            rows.append(_timed_export(label, size, slug, obj, fmt, count, kept, workers))
    return rows


def _pdf_workers(fmt: str, *, both: bool) -> list[int | None]:
    from scoring.exports.formats.pdf_parts import pdf_workers

    return [1, None] if fmt == "pdf" and both and pdf_workers() > 1 else [None]


def _timed_export(label, size, slug, obj, fmt, runs, budget, workers) -> Measurement:
    """One export timed; the note gives the CPU seconds per run of this process and of the
    worker processes (resource.RUSAGE_CHILDREN) and the load average."""
    import resource

    from django.conf import settings
    from django.test import override_settings

    from scoring.exports.rendering import render_export

    def cpu() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time(), children.ru_utime + children.ru_stime

    (own0, kids0), load0 = cpu(), os.getloadavg()[0]
    with override_settings(PDF_WORKERS=workers or settings.PDF_WORKERS):
        row = measure(label, size, lambda: render_export(slug, obj, fmt), runs=runs, warmup=0,
                      budget_ms=budget, count_queries=False)  # fmt: skip
    own1, kids1 = cpu()
    load = (load0 + os.getloadavg()[0]) / 2
    if fmt == "pdf":
        row.note = (f"CPU/run {(own1 - own0) / runs:.1f} s + workers "
                    f"{(kids1 - kids0) / runs:.1f} s; load {load:.1f}")  # fmt: skip
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="small data, few runs (CI)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--write", action="store_true", help="write docs/performance.md")
    parser.add_argument("--db", help="databases side by side, e.g. sqlite,postgresql")
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    parser.add_argument("--skip-exports", action="store_true", help="leave out the exports")
    parser.add_argument(
        "--only-exports",
        action="store_true",
        help="only the PDFs of standings, season ranking and workbook (large and season data)",
    )
    args = parser.parse_args(argv)
    if args.db:
        from bench.timing import compare

        return compare.main(args)
    started = time.perf_counter()
    database = setup_django()
    try:
        rows = run(args, database)
    finally:
        teardown_django()
    command = "python -m bench" + (" --short" if args.short else "")
    command += " --only-exports" if args.only_exports else ""
    print(f"\n{database}; {time.perf_counter() - started:.0f} s in all; `{command}`")
    if not args.json:  # compare.py prints one budgets table for all databases
        import dataclasses

        from bench.timing import budgets

        budgets.print_budgets({database.split()[0]: [dataclasses.asdict(m) for m in rows]})
    if args.write:
        write_doc(rows, database, command)
    if args.json:
        import dataclasses
        import json

        Path(args.json).write_text(json.dumps([dataclasses.asdict(m) for m in rows]))
    failed = [m for m in rows if m.verdict == "FAIL"]
    return 1 if failed and not args.short else 0


def run(args, database: str) -> list[Measurement]:
    from bench.rigs.datasets import build
    from bench.timing import standings
    from clubs.models import Player

    runs = 3 if args.short else args.runs
    if args.only_exports:
        from bench.rigs.datasets import build

        large, season = build("large"), build("season")
        rows = export_rows(large, 3, season=season, workbook_pdf=True, prints_only=True)
        print_table(rows)
        return rows
    rows = rules_rows(2_000 if args.short else 100_000)
    sizes = ("small",) if args.short else ("small", "large", "season")
    built = {}
    for size in sizes:
        start = time.perf_counter()
        built[size] = build(size)
        rows.append(Measurement(f"build data set ({size})", size, 1,
                                (time.perf_counter() - start) * 1000,
                                (time.perf_counter() - start) * 1000))  # fmt: skip
    if args.short:
        event = built["small"]
        players = list(Player.objects.filter(participations__event=event))
        rows += workflow_rows("small", players, event.club, runs)
        from scoring.standings import selectors as standings_selectors

        rows.append(measure("event_standing", "small",
                            lambda: standings_selectors.event_standing(event, only_published=False),
                            runs=runs))  # fmt: skip
    else:
        large = built["large"]
        players = list(Player.objects.filter(participations__event=large))
        rows += workflow_rows("large", players, large.club, runs)
        rows += standings.measurements(large, built["season"], runs)
        if not args.skip_exports:
            rows += export_rows(large, 3, season=built["season"])
        rows.append(standings.prize_list_row(large, runs))
    print_table(rows)
    return rows


def write_doc(rows: list[Measurement], database: str, command: str) -> None:
    from io import StringIO

    table = StringIO()
    print_table(rows, file=table)
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    marker_start, marker_end = "<!-- timing table -->", "<!-- end timing table -->"
    block = (f"{marker_start}\nMeasured on {database} with `{command}` "
             f"({time.strftime('%Y-%m-%d')}, this 2-core machine):\n\n"
             f"{table.getvalue()}\n{marker_end}")  # fmt: skip
    if marker_start in text:
        head, rest = text.split(marker_start, 1)
        text = head + block + rest.split(marker_end, 1)[1]
    else:
        text += "\n" + block + "\n"
    DOC.write_text(text, encoding="utf-8")
