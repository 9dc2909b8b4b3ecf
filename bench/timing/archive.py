"""Is the event archive too slow for a request? ``python -m bench archive``.

Builds ``bench.rigs.datasets.build("large")`` (400 players, 5 series, 10,000 hands) on a
throw-away database (bench.rigs.harness.setup_django; DATABASE_URL picks PostgreSQL) and times
each step of the archive's two directions, as the web pages run them:

- download: ``scoring.archive.dump.export_event`` and ``dumps`` (the JSON text);
- upload: ``limits.load_json`` (the limits and the parse the upload form runs in the
  request), then what the task runs: ``validate`` (the JSON Schema, then every sheet
  through the rules) and ``import_event`` writing the checked document under a new name;
  last the whole ``import_event`` with its own checks, as ``manage.py import_event`` runs.

Wall time, CPU time of this process and queries. The answer decides what is a request and
what a task (docs/architecture.md, "Background jobs"; docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import time


def _timed(label: str, fn, rows: list):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    wall, cpu = time.perf_counter(), time.process_time()
    with CaptureQueriesContext(connection) as queries:
        value = fn()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rows.append((label, wall, cpu, len(queries.captured_queries)))
    return value


def main(argv=None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    from bench.rigs.harness import setup_django, teardown_django

    database = setup_django()
    try:
        from common import limits
        from scoring.archive import validate
        from scoring.archive.dump import dumps, export_event
        from scoring.archive.load import import_event
        from tests.factories import UserFactory

        started = time.perf_counter()
        event = build_large()
        print(f"large data set built in {time.perf_counter() - started:.1f}s on {database}")
        actor = UserFactory(username="bench-archive", is_superuser=True)
        rows: list = []
        data = _timed("export_event (read the event)", lambda: export_event(event), rows)
        text = _timed("dumps (the JSON text)", lambda: dumps(data), rows)
        parsed = _timed("load_json (limits + parse)", lambda: limits.load_json(text), rows)
        _timed("  of it: the schema alone", lambda: validate.check_schema(parsed), rows)
        plans = _timed("validate (schema + semantics)", lambda: validate.validate(parsed), rows)
        result = _timed(
            "import_event (writing, checked)",
            lambda: import_event(parsed, rename="Kopie", actor=actor, plans=plans),
            rows,
        )
        _timed(
            "import_event (checks + writing)",
            lambda: import_event(parsed, rename="Kopie 2", actor=actor),
            rows,
        )
        print(
            f"archive: {len(text.encode()) / 1024 / 1024:.1f} MB, "
            f"{result.created.get('hands', 0)} hands imported; "
            f"load {os.getloadavg()[0]:.1f}"
        )
        print(f"{'step':<36} {'wall s':>8} {'CPU s':>8} {'queries':>8}")
        for label, wall, cpu, queries in rows:
            print(f"{label:<36} {wall:>8.2f} {cpu:>8.2f} {queries:>8}")
    finally:
        teardown_django()
    return 0


def build_large():
    from bench.rigs.datasets import build

    return build("large")
