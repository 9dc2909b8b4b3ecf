"""The live bench's command line (``python -m bench live``, bench.live.measure)."""

from __future__ import annotations

import argparse
import os


def parse(argv, description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the laptop's folder")
    parser.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help="the server's gunicorn and PostgreSQL backends at this niceness",
    )
    parser.add_argument(
        "--server-own-disk",
        action="store_true",
        help="the server's PostgreSQL commits without waiting for its disk (synchronous_commit"
        " off), standing in for a server's own disk",
    )
    parser.add_argument(
        "--server-core",
        action="store_true",
        help="with --server-nice: the server's gunicorn and PostgreSQL backends on the one CPU"
        " the director's process is pinned to, so that they run while he waits (as on another"
        " machine), not beside his saves on the other CPU; the laptop's workers on any CPU",
    )
    parser.add_argument(
        "--server-elsewhere",
        type=float,
        metavar="S",
        help="with --cost-only: the director's cost against a stand-in for a server on another"
        " machine that acknowledges each batch after S seconds (the real server's apply)",
    )
    parser.add_argument(
        "--cost-only",
        type=int,
        metavar="N",
        help="measure the director's cost alone, with N saves a mode (more than 100 narrows"
        " the interval of its p95)",
    )
    parser.add_argument(
        "--control",
        action="store_true",
        help="with --cost-only: the link stays off in both kinds of block, so the table shows"
        " the rise and interval that chance alone gives (the bench's own spread)",
    )
    args = parser.parse_args(argv)
    if args.server_core and not (args.server_nice and hasattr(os, "sched_setaffinity")):
        parser.error("--server-core needs --server-nice and a system that pins processes")
    if args.server_elsewhere is not None and (not args.cost_only or args.server_core):
        parser.error("--server-elsewhere goes with --cost-only and without --server-core")
    if args.control and not args.cost_only:
        parser.error("--control goes with --cost-only")
    return args
