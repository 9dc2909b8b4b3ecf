"""Time saving a 20-hand sheet through ``scoring.sheets.services.save_sheet``:
``python -m bench sheet``.

Uses DATABASE_URL when set, else a temporary SQLite file; migrates it, builds one event
with a 4-table (5 rounds = 20 hands) and saves a fresh valid grid ``--runs`` times
(parse, full ``check_series``, ``score_hand``, version, Hand/HandSeat rows replaced).
Budget: median 150 ms or less.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

BUDGET_MS = 150.0


def _setup(tmp: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    os.environ["DEBUG"] = "1"
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'sheet_bench.sqlite3'}"
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _grid(seed: int) -> dict:
    from rules import PRESETS, random_hand

    ruleset = PRESETS["german-minus"]
    rng = random.Random(seed)
    hands = []
    for i in range(20):
        hand = random_hand(ruleset, 4, rng, dealer=i % 4)
        hands.append(
            {
                "dealer": hand.dealer,
                "winner": hand.winner,
                "hand_romme": hand.hand_romme,
                "seats": [
                    {"hand_points": s.hand_points, "cards": None, "melded": s.melded}
                    for s in hand.seats
                ],
            }
        )
    return {"first_dealer": 0, "hands": hands}


def _build():
    import datetime as dt

    from django.contrib.auth import get_user_model

    from clubs.models import Club, ClubRole, Player
    from tournaments.models import Event, Participant, Seat, Series, Table

    stamp = str(time.time_ns())
    club = Club.objects.create(name=f"Bench club {stamp}", short_name=f"B{stamp[-8:]}")
    user = get_user_model().objects.create_user(f"bench-{stamp}", password="bench")
    ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.SCORER)
    event = Event.objects.create(club=club, name="Bench", start_date=dt.date(2026, 1, 1))
    series = Series.objects.create(
        event=event, number=1, planned_rounds=5, status=Series.Status.IN_PLAY
    )
    table = Table.objects.create(series=series, number=1)
    for position in range(4):
        player = Player.objects.create(
            given_name="Bench", family_name=f"P{position}", player_number=f"{stamp}-{position}"
        )
        participant = Participant.objects.create(event=event, player=player)
        Seat.objects.create(table=table, series=series, position=position, participant=participant)
    return user, table


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        _setup(tmp)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from scoring.models import HandSeat
        from scoring.sheets.services import save_sheet

        user, table = _build()
        grids = [_grid(seed) for seed in range(args.runs + 1)]
        # One save outside the timing: the role cache and the first sheet row.
        save_sheet(user, table, grids[0], expected_version=0, submit=True)
        times, queries = [], []
        for run in range(1, args.runs + 1):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                save_sheet(user, table, grids[run], expected_version=run, submit=True)
                times.append((time.perf_counter() - start) * 1000)
            queries.append(len(captured))
        assert HandSeat.objects.filter(hand__sheet__table=table).count() == 80
        times.sort()
        p95 = times[max(0, -(-len(times) * 95 // 100) - 1)]
        median = statistics.median(times)
        vendor = connection.vendor
        connection.close()
    print(f"{'case':<22} {'db':<10} {'runs':>4} {'median ms':>10} {'p95 ms':>8} {'queries':>8}")
    print(
        f"{'save 20 hands, 4 seats':<22} {vendor:<10} {args.runs:>4} {median:>10.1f} "
        f"{p95:>8.1f} {max(queries):>8}"
    )
    verdict = "within" if median <= BUDGET_MS else "OVER"
    print(f"budget: median {BUDGET_MS:.0f} ms or less: {verdict}")
    if median > BUDGET_MS:
        sys.exit(1)
