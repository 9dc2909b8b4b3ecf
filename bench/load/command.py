"""Load and fault test: concurrent scorers against gunicorn and PostgreSQL on 127.0.0.1.

    python -m bench load                      # 50 scorers, 4 sheets each, 5 conflict pairs
    python -m bench load --kill-worker        # the same, killing a gunicorn worker mid-run
    python -m bench load --short              # CI: 6 scorers, a few seconds
    python -m bench load --phones [--kill-worker] [--short]   # 100 tables of 4 phones
                                              # (bench.load.phones, issue 16)
    python -m bench load --phones --hall [--short]   # the laptop in the hall: the hall mode,
                                              # 25 tables, spectators (bench.load.hall)

Without --phones: scorers at their desks (bench.load.sheets) save and confirm whole sheets
while pairs of them save the same sheet at the same moment. With --phones: the table links
(bench.load.phones), with --hall in the hall mode (bench.load.hall). Each run checks the
database afterwards and exits non-zero if any check fails.
"""

from __future__ import annotations

import argparse
import os
import sys

from bench.load import hall, phones, sheets
from bench.rigs.serving import ROOT

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/romme_load"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=os.environ.get("LOAD_DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--sheets", type=int, default=4, help="sheets per scorer")
    parser.add_argument("--pairs", type=int, default=5, help="pairs saving one sheet at once")
    parser.add_argument("--workers", type=int, default=5, help="gunicorn workers")
    parser.add_argument(
        "--pace", type=float, default=2.0, help="seconds between a scorer's sheets (0: none)"
    )
    parser.add_argument("--seconds", type=float, default=120, help="time limit of the run")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--kill-worker", action="store_true")
    parser.add_argument("--kill-after", type=float, default=1.0, help="seconds into the run")
    parser.add_argument("--kill-every", type=float, default=0.5, help="seconds between kills")
    parser.add_argument("--kills", type=int, default=10, help="workers to kill at most")
    parser.add_argument("--short", action="store_true", help="CI: a few scorers, a few seconds")
    parser.add_argument("--phones", action="store_true", help="table links: phones enter hands")
    phones.add_arguments(parser)
    hall.add_arguments(parser)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.phones and args.hall:
        hall.configure(args)
        return hall.run(args)
    if args.phones:
        phones.configure(args)
        sys.path.insert(0, str(ROOT))
        return phones.run(args)
    if args.short:
        args.scorers, args.sheets, args.pairs, args.seconds, args.pace = 6, 1, 2, 30, 0.5
    sys.path.insert(0, str(ROOT))
    return sheets.run(args)
