"""Time the exports of a big series and a big event: ``python -m bench exports``.

Uses a temporary SQLite file (never DATABASE_URL's database), migrates it, and creates
400 players seated at 100 tables of one series directly with the ORM (bulk_create).
Times the seating list as XLSX and PDF and the pre-filled score sheets (PDF, 100 tables,
with QR codes) through ``scoring.exports.rendering.render_export``, the function the
views and the jobs use. Budget: the 100 score sheets in 5 s or less (issue 38).

Then builds ``bench.rigs.datasets.build("large")`` (400 players, 5 series of 20 hands at 100
tables, 100 pairs, 25 teams: 10,000 hands) and times the standings (XLSX and PDF) and the
whole-event workbook (XLSX), the standing of series 5 (A4 and A3 wall list) and the overall
wall list (A3). Budgets (issue 38: half the first ones): the workbook 5 s, the standings PDF
and the overall wall list 2.5 s, the series standing PDF 1.5 s.
``--workbook-pdf`` also times the workbook as PDF (a job in the app; minutes, no budget).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

TABLES = 100
BUDGETS_S = {
    ("score-sheets", "pdf"): 5.0,  # issue 38: half the first budgets of the prints
    ("event-workbook", "xlsx"): 5.0,
    ("standings", "pdf"): 2.5,
    ("series-standings", "pdf"): 1.5,
    ("standings-wall", "pdf"): 2.5,
}


def _setup(tmp: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "romme.settings"
    os.environ["DEBUG"] = "1"
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'export_bench.sqlite3'}"
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _build(tables: int):
    import datetime as dt

    from clubs.models import Club, Membership, Player, make_name_key, make_sort_key
    from tournaments.models import Event, Participant, Seat, Series, Table

    clubs = Club.objects.bulk_create(
        [Club(name=f"Rommé-Club {i}", short_name=f"RC{i}", town="Kassel") for i in range(8)]
    )
    given = ["Jürgen", "Anna", "Grete", "Heinz", "Karl", "Lotte", "Otto", "Rita", "Özlem"]
    family = ["Müller", "Weiß", "Schröder", "Äbersold", "Krüger", "Hoß", "Bäcker", "Groß"]
    players = []
    for i in range(tables * 4):
        g, f = given[i % len(given)], f"{family[i % len(family)]}-{i:03d}"
        players.append(
            Player(
                given_name=g,
                family_name=f,
                player_number=f"B{i:05d}",
                birth_year=1940 + i % 60,
                name_key=make_name_key(g, f),
                sort_key=make_sort_key(g, f, f"B{i:05d}"),  # bulk_create skips save()
            )
        )
    players = Player.objects.bulk_create(players)
    Membership.objects.bulk_create(
        [
            Membership(player=p, club=clubs[i % len(clubs)], valid_from=dt.date(2020, 1, 1))
            for i, p in enumerate(players)
        ]
    )
    event = Event.objects.create(
        club=clubs[0],
        name="Großes Benchmark-Turnier ♠♥♦♣",
        start_date=dt.date(2026, 3, 14),
        ruleset_slug="german-minus",
        rounds_per_series=5,
    )
    participants = Participant.objects.bulk_create(
        [
            Participant(event=event, player=p, club=clubs[i % len(clubs)], checked_in=True)
            for i, p in enumerate(players)
        ]
    )
    series = Series.objects.create(event=event, number=1, planned_rounds=5, status="seated")
    table_rows = Table.objects.bulk_create(
        [Table(series=series, number=n + 1) for n in range(tables)]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, series=series, position=pos, participant=participants[4 * t + pos])
            for t, table in enumerate(table_rows)
            for pos in range(4)
        ]
    )
    return series


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--keep", help="write the files into this folder")
    parser.add_argument(
        "--workbook-pdf", action="store_true", help="also time the whole-event workbook as PDF"
    )
    parser.add_argument(
        "--no-event", action="store_true", help="skip the large event (standings, workbook)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="romme-export-bench-") as tmp:
        _setup(tmp)
        from django.utils import translation

        from scoring.exports.rendering import render_export

        series = _build(args.tables)
        cases = [
            (series, "seating", "xlsx"),
            (series, "seating", "pdf"),
            (series, "score-sheets", "pdf"),
        ]
        if not args.no_event:
            from bench.rigs.datasets import build

            start = time.perf_counter()
            event = build("large")
            build_seconds = time.perf_counter() - start
            cases += [
                (event, "standings", "xlsx"),
                (event, "standings", "pdf"),
                (event.series.get(number=5), "series-standings", "pdf"),
                (event.series.get(number=5), "series-standings-wall", "pdf"),
                (event, "standings-wall", "pdf"),
                (event, "event-workbook", "xlsx"),
            ]
            if args.workbook_pdf:
                cases.append((event, "event-workbook", "pdf"))
        results = []
        with translation.override("de"):
            for obj, slug, fmt in cases:
                pages = []
                start = time.perf_counter()
                content, filename, _ = render_export(
                    slug,
                    obj,
                    fmt,
                    lambda done, total, unit, pages=pages: pages.append(done),
                    base_url="http://192.168.1.10:8000",
                )
                seconds = time.perf_counter() - start
                budget = BUDGETS_S.get((slug, fmt))
                verdict = "–" if budget is None else ("pass" if seconds <= budget else "FAIL")
                results.append((slug, fmt, seconds, budget, verdict, len(content)))
                if args.keep:
                    Path(args.keep).mkdir(parents=True, exist_ok=True)
                    (Path(args.keep) / filename).write_bytes(content)
    print(f"Exports of one series: {args.tables} tables, {args.tables * 4} players")
    if not args.no_event:
        print(
            'and of build("large"): 400 players, 5 series of 20 hands, 100 pairs, 25 teams '
            f"(built in {build_seconds:.1f} s)"
        )
    print(f"{'export':<16} {'format':<6} {'seconds':>8} {'budget':>7}  {'verdict':<7} {'size':>9}")
    for slug, fmt, seconds, budget, verdict, size in results:
        budget_text = f"{budget:.0f} s" if budget is not None else "–"
        print(
            f"{slug:<16} {fmt:<6} {seconds:>8.2f} {budget_text:>7}  {verdict:<7} "
            f"{size / 1024:>7.0f} kB"
        )
    return 1 if any(r[4] == "FAIL" for r in results) else 0
