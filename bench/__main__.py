"""The one entry of the benches: ``python -m bench <sub-command> [options]``.

Without a sub-command it is the timing table (``python -m bench [--short] [--db ...]``, as CI
and the docs call it). A sub-command's options go unchanged to that bench's own parser:
``python -m bench <sub-command> --help`` shows them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NamedTuple


class Command(NamedTuple):
    module: str
    help: str


# The bench behind each sub-command is imported only when it runs: --help stays instant and
# a bench's heavy imports (Django, psycopg) are its own.
COMMANDS = {
    "table": Command("bench.timing.table", "the timing table (also bare `python -m bench`)"),
    "standings": Command("bench.timing.standings", "the standings pages and JSON"),
    "exports": Command("bench.timing.exports", "seating lists, score sheets, standings PDF/XLSX"),
    "prerender": Command("bench.timing.prerender", "click-to-file of a prerendered standings PDF"),
    "hall-click": Command("bench.timing.hall_click", "the standings PDF's click in the hall"),
    "archive": Command("bench.timing.archive", "the event archive: download and upload"),
    "sheet": Command("bench.timing.sheet", "saving a 20-hand score sheet"),
    "recompute": Command("bench.timing.recompute", "a rule-set change of a large event"),
    "db-profile": Command("bench.timing.db_profile", "where a database spends the read paths"),
    "db-side-by-side": Command(
        "bench.timing.db_side_by_side", "the read paths on SQLite and PostgreSQL at once"
    ),
    "install": Command(
        "bench.timing.install", "the wheel, a fresh install to serving, a data folder's upgrade"
    ),
    "rules": Command("bench.engines.rules_engine", "check and score hands (no Django)"),
    "host-jitter": Command(
        "bench.engines.host_jitter", "the host's spread: the same work timed again and again"
    ),
    "draw": Command("bench.engines.seating_draw", "the seating draw, 400 players (no Django)"),
    "ranking-points": Command(
        "bench.engines.ranking_points", "plausible hands against reported ranking-point totals"
    ),
    "load": Command("bench.load.command", "scorers, phones (--phones) or the hall (--hall)"),
    "readers": Command("bench.load.readers", "spectators reading while sheets are confirmed"),
    "faults": Command("bench.faults.command", "PostgreSQL, disk, hall and live faults (root)"),
    "live": Command("bench.live.measure", "live results between a laptop and a server"),
    "live-rig": Command("bench.live.rig", "seed a live rig's laptop (used by faults, tests)"),
    "federation-scale": Command("bench.federation.scale", "the federation at scale"),
    "federation-submit": Command("bench.federation.submit", "a 400-player event submitted"),
    "federation-public": Command(
        "bench.federation.public_list", "the public ranking list and JSON, 10,000 lines"
    ),
    "league-scale": Command(
        "bench.leagues.scale", "a national league's tables, approvals, closing"
    ),
    "ranking-rules": Command("bench.federation.ranking_rules", "the ranking rules alone"),
}
DEFAULT = "table"


def build_parser() -> argparse.ArgumentParser:
    """Only for --help and errors: the sub-command's own parser reads its options."""
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="The benchmarks, load tests and fault runs of the project, one entry.",
        formatter_class=lambda prog: argparse.HelpFormatter(prog, max_help_position=32),
        epilog="Without a sub-command: the timing table, e.g. `python -m bench --short`.",
    )
    commands = parser.add_subparsers(title="sub-commands", metavar="<sub-command>")
    for name, command in COMMANDS.items():
        commands.add_parser(name, help=command.help, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in ("-h", "--help"):
        build_parser().print_help()
        return 0
    if argv and argv[0] in COMMANDS:
        name, rest = argv[0], argv[1:]
    elif not argv or argv[0].startswith("-"):
        name, rest = DEFAULT, argv  # bare `python -m bench [--short ...]`: the timing table
    else:
        build_parser().error(f"unknown sub-command {argv[0]!r}")
    # The bench's parser names itself after sys.argv[0]; some benches read sys.argv too.
    sys.argv = [f"python -m bench {name}", *rest]
    module = importlib.import_module(COMMANDS[name].module)
    return module.main(rest) or 0


if __name__ == "__main__":
    sys.exit(main())
