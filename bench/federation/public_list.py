"""The public federation ranking list and JSON under a 10,000-line snapshot (issue 27, 6):
``python -m bench federation-public`` (SQLite) or with ``DATABASE_URL=postgres://…``
(a throw-away database next to the named one, created and dropped: bench.rigs.harness).

One national ranking with 16 regional associations and a snapshot of 10,000 lines of about
20 results each (the issue's two years of 1,500 events), written in the documented lines
format. Each answer is requested ``--runs`` times through Django's test client (the whole
middleware stack, no network) as an anonymous German reader: uncached (the shared cache
emptied before every request: the first reader after a recomputation) and cached (a hit: one
query for the snapshot number, the body from the cache), and a 304 to a matching ETag.
p50/p95 of the server's wall time in ms and the queries of the last request.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import date, timedelta

REGIONS = 16


def build(lines: int, results: int, seed: int = 27):
    from federation.models import Association, Ranking, RankingSnapshot

    rng = random.Random(seed)
    national = Association.objects.create(name="Bund (Bench)", short_name="BB", kind="national")
    regions = [
        Association.objects.create(
            name=f"Land {n} (Bench)", short_name=f"L{n}", kind="regional", parent=national
        )
        for n in range(REGIONS)
    ]
    ranking = Ranking.objects.create(association=national, name="Bundesrangliste (Bench)")
    out, day = [], date(2026, 6, 30)
    for i in range(lines):
        rows = [
            {
                "version": rng.randrange(1, 1500), "event": rng.randrange(1, 1500),
                "event_name": f"Ranglistenturnier {k}", "place": rng.randint(1, 400),
                "date": (day - timedelta(days=rng.randrange(730))).isoformat(),
                "field": 400, "points": f"{rng.randint(1, 400)}.5", "counted": k < 5,
                "reason": "" if k < 5 else "dropped: not among the best results",
            }
            for k in range(rng.randint(results // 2, results * 3 // 2))
        ]  # fmt: skip
        out.append(
            {
                "player": 100_000 + i, "name": f"Vorname{i} Nachname{i}", "club": f"C{i % 300}",
                "regions": [regions[i % REGIONS].pk], "rank": i + 1 if i < 9000 else None,
                "value": f"{10_000 - i}.5", "listed": i < 9000, "hidden": i % 97 == 0,
                "events_counted": 5, "best": "400", "results": rows,
                "reason": "" if i < 9000 else "fewer events than the minimum",
            }
        )  # fmt: skip
    RankingSnapshot.objects.create(ranking=ranking, number=1, as_of=day, lines=out)
    return ranking, regions[3], 100_000 + 5


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def measure(client, url: str, runs: int, *, clear: bool, etag: str | None = None, keep=None):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    samples, response = [], None
    client.get(url)  # warm: templates compiled, the entry cached
    for _ in range(runs):
        if clear:
            cache.clear()
            if keep:
                keep()  # untimed: the snapshot's lines read by an earlier answer
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url, **headers)
            samples.append((time.perf_counter() - started) * 1000)
    expected = 304 if etag else 200
    assert response.status_code == expected, (url, response.status_code)
    return (*percentiles(samples), len(queries.captured_queries), len(response.content))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=20)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)

    from bench.rigs.harness import setup_django, teardown_django

    database = setup_django()
    try:
        from django.conf import settings
        from django.test import Client
        from django.urls import reverse

        from federation.public import selectors as public

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        started = time.perf_counter()
        ranking, region, player = build(args.lines, args.results)
        print(f"{args.lines} lines built in {time.perf_counter() - started:.1f}s on {database}")
        client = Client(HTTP_ACCEPT_LANGUAGE="de")

        def warm():
            public.snapshot_lines(public.ranking_state(ranking.pk))

        page = reverse("federation_public:ranking", args=[ranking.pk])
        api = reverse("federation_api:ranking", args=[ranking.pk])
        targets = [
            ("list page (200 lines)", page),
            ("list page, one region", f"{page}?region={region.pk}"),
            ("card page", reverse("federation_public:card", args=[ranking.pk, player])),
            ("JSON, whole list", api),
            ("JSON, one region", f"{api}?region={region.pk}"),
            ("JSON, a player", reverse("federation_api:player", args=[ranking.pk, player])),
        ]
        print(f"{'answer':26} {'state':9} {'p50 ms':>8} {'p95 ms':>8} {'queries':>7} {'bytes':>9}")
        for label, url in targets:
            rows = [("uncached", measure(client, url, args.runs, clear=True))]
            if "player" not in label and "card" not in label:
                rows.append(("lines hit", measure(client, url, args.runs, clear=True, keep=warm)))
            rows.append(("cached", measure(client, url, args.runs, clear=False)))
            etag = client.get(url)["ETag"]
            rows.append(("304", measure(client, url, args.runs, clear=False, etag=etag)))
            for state, (p50, p95, queries, size) in rows:
                print(f"{label:26} {state:9} {p50:8.2f} {p95:8.2f} {queries:7d} {size:9d}")
    finally:
        teardown_django()
    return 0
