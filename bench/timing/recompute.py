"""Is a rule-set change too slow for a request? ``python -m bench recompute``.

Builds ``bench.rigs.datasets.build("large")`` (10,000 hands at 100 tables) on a throw-away
database (bench.rigs.harness.setup_django; DATABASE_URL picks PostgreSQL) and times
``scoring.sheets.services.change_ruleset`` to another scoring profile (ranking points) and
back, the whole transaction the rule-set page runs inline: wall time, CPU time of this
process (time.process_time) and queries. The answer decides whether it must be a task
(docs/architecture.md, "Background jobs").
"""

from __future__ import annotations

import argparse
import os
import time


def main(argv=None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    from bench.rigs.harness import setup_django, teardown_django

    database = setup_django()
    try:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from bench.rigs.datasets import build
        from scoring.sheets.services import change_ruleset
        from tests.factories import UserFactory

        started = time.perf_counter()
        event = build("large")
        print(f"large data set built in {time.perf_counter() - started:.1f}s on {database}")
        actor = UserFactory(username="bench-recompute", is_superuser=True)
        original = event.ruleset_slug
        # Another scoring profile: every seat's points change (the costly case).
        other = "ranking-points" if original != "ranking-points" else "german-minus"
        for slug in (other, original):
            wall, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as queries:
                result = change_ruleset(actor, event, slug, None, "bench")
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(
                f"change_ruleset -> {slug}: {wall:.2f}s wall, {cpu:.2f}s CPU, "
                f"{len(queries.captured_queries)} queries, {result.hand_seats} hand seats, "
                f"{result.changed} changed, {result.sheets} sheets, "
                f"{result.unscorable} unscorable; load {os.getloadavg()[0]:.1f}"
            )
    finally:
        teardown_django()
    return 0
