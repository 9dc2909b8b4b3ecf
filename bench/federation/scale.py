"""The federation at scale (issue 27, point 7): ``python -m bench federation-scale [--quick]``
(SQLite) or with ``DATABASE_URL=postgres://…/bench_fedscale`` (a throw-away database of that
name, created and dropped).

Data set: a national association with 16 regional associations, 300 clubs, 10,000 players
and two years of sanctioned events (1,500 ranking tournaments and championships of 30 to 400
players, approved, their results as `federation.rankings.compute` reads them, every player
registered as a participant) plus club evenings (ordinary events without ranking status);
one national ranking computed by the task. Then the recomputation after one more approval
as the task runs it (a few times), and through Django's test client (the whole middleware
stack, no network) on the list computed last: the public pages as an anonymous German
reader, uncached (the shared cache emptied before each request) and cached; the officer's
pages logged in (always uncached). p50/p95 of the
server's wall time in ms, the queries of the last request, the issue's target and a verdict
(p95 against the target). ``--quick``: 30 clubs, 1,000 players, 150 events (a smoke run).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import date, timedelta

from bench.rigs.harness import analyze, setup_django, teardown_django

REGIONS = 16
AS_OF = date(2026, 6, 30)
SIZES = {
    "full": {"clubs": 300, "players": 10_000, "events": 1_500, "evenings": 300, "runs": 30},
    "quick": {"clubs": 30, "players": 1_000, "events": 150, "evenings": 30, "runs": 8},
}


def _setup(quick: bool) -> str:
    """Django on a throw-away database: bench/out/bench_fedscale[_quick].sqlite3, or a
    PostgreSQL database of that name beside DATABASE_URL's (bench.rigs.harness)."""
    database = setup_django("bench_fedscale" + ("_quick" if quick else ""))
    from django.conf import settings

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    return database


# --------------------------------------------------------------------------- the data set


def _field(rng: random.Random) -> int:
    """30 to 400 players, most fields small (mean about 150)."""
    return 30 + int(370 * rng.random() ** 2)


def build(size: dict, seed: int = 27) -> dict:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from clubs.models import Club, Membership, Player
    from federation.models import (
        Affiliation,
        Association,
        AssociationRole,
        Championship,
        EventVersion,
        PublicHiding,
        Ranking,
        RankingStatus,
    )
    from rules.ranking import RankingSettings
    from tournaments.models import Event, Participant

    rng = random.Random(seed)
    national = Association.objects.create(name="Rommé-Bund (Skala)", short_name="RBS",
                                          kind="national")  # fmt: skip
    regions = Association.objects.bulk_create(
        Association(name=f"Landesverband {n:02d} (Skala)", short_name=f"LV{n:02d}",
                    kind="regional", parent=national)
        for n in range(REGIONS)
    )  # fmt: skip
    clubs = Club.objects.bulk_create(
        Club(name=f"Rommé-Club {n:03d}", short_name=f"RC{n:03d}", town=f"Stadt {n}")
        for n in range(size["clubs"])
    )
    Affiliation.objects.bulk_create(
        Affiliation(club=c, association=regions[n % REGIONS], since=date(2020, 1, 1))
        for n, c in enumerate(clubs)
    )
    people = []
    for n in range(size["players"]):
        player = Player(given_name=f"Vorname{n}", family_name=f"Nachname{n}",
                        player_number=f"P{n:06d}", birth_year=1940 + n % 60)  # fmt: skip
        player.derive_keys()
        people.append(player)
    players = Player.objects.bulk_create(people, batch_size=2000)
    Membership.objects.bulk_create(
        (Membership(player=p, club=clubs[n % len(clubs)], valid_from=date(2020, 1, 1))
         for n, p in enumerate(players)),
        batch_size=2000,
    )  # fmt: skip
    PublicHiding.objects.bulk_create(PublicHiding(player=p, reason="Bench") for p in players[::97])
    ranking = Ranking.objects.create(
        association=national, name="Bundesrangliste (Skala)",
        settings=RankingSettings().as_json(), as_of=AS_OF,
    )  # fmt: skip
    days = [AS_OF - timedelta(days=rng.randrange(728)) for _ in range(size["events"])]
    events = Event.objects.bulk_create(
        (Event(club=rng.choice(clubs), name=f"Ranglistenturnier {n:04d}", start_date=day)
         for n, day in enumerate(sorted(days))),
        batch_size=1000,
    )  # fmt: skip
    evenings = Event.objects.bulk_create(
        Event(club=clubs[n % len(clubs)], name=f"Clubabend {n:03d}", kind="club_evening",
              start_date=AS_OF - timedelta(days=rng.randrange(728)))
        for n in range(size["evenings"])
    )  # fmt: skip
    statuses = RankingStatus.objects.bulk_create(
        (RankingStatus(event=e, ranking=ranking, state="approved",
                       event_class="championship" if n % 50 == 0 else "ranking")
         for n, e in enumerate(events)),
        batch_size=1000,
    )  # fmt: skip
    now = timezone.now()
    versions, participants = [], []
    for status in statuses:
        field = rng.sample(players, _field(rng))
        versions.append(EventVersion(
            status=status, number=1, source="here", state="approved", field_size=len(field),
            series_count=3, results=results_of(field, rng), counted_from=now,
        ))  # fmt: skip
        participants += [Participant(event_id=status.event_id, player=p) for p in field]
    for evening in evenings:
        participants += [Participant(event=evening, player=p) for p in rng.sample(players, 24)]
    EventVersion.objects.bulk_create(versions, batch_size=200)
    Participant.objects.bulk_create(participants, batch_size=5000)
    officer = get_user_model().objects.create_user("bundeswart-skala", password="x")
    AssociationRole.objects.create(user=officer, association=national, role="officer")
    championship = Championship.objects.create(ranking=ranking, name="DM (Skala)")
    return {
        "ranking": ranking, "regions": regions, "players": players, "clubs": clubs,
        "officer": officer, "championship": championship, "results": sum(
            len(v.results) for v in versions), "rng": rng,
    }  # fmt: skip


def results_of(field, rng: random.Random) -> list[dict]:
    """A version's results: places 1..n (a tie now and then), score and hands."""
    out = []
    for index, player in enumerate(field):
        tied = index and rng.random() < 0.03  # tied with the one before
        place = out[-1]["place"] if tied else index + 1
        out.append({"player": player.pk, "place": place, "score": rng.randint(-300, 900),
                    "hands": 60, "withdrawn": False, "disqualified": False})  # fmt: skip
    return out


def approve_one_more(world: dict, number: int):
    """One more 400-player ranking tournament, approved as the officer leaves it."""
    from django.utils import timezone

    from federation.models import EventVersion, RankingStatus
    from tournaments.models import Event, Participant

    rng, players = world["rng"], world["players"]
    field = rng.sample(players, 400)
    event = Event.objects.create(club=world["clubs"][0], name=f"Nachzügler {number}",
                                 start_date=AS_OF - timedelta(days=3))  # fmt: skip
    Participant.objects.bulk_create(Participant(event=event, player=p) for p in field)
    status = RankingStatus.objects.create(event=event, ranking=world["ranking"], state="approved")
    EventVersion.objects.create(status=status, number=1, source="here", state="approved",
                                field_size=400, series_count=3, results=results_of(field, rng),
                                counted_from=timezone.now())  # fmt: skip


# --------------------------------------------------------------------------- measuring


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def measure(client, url: str, runs: int, *, clear: bool):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm: templates compiled
    samples, response = [], None
    for _ in range(runs):
        if clear:
            cache.clear()
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            samples.append((time.perf_counter() - started) * 1000)
    assert response.status_code == 200, (url, response.status_code)
    return (*percentiles(samples), len(queries.captured_queries))


def recompute_runs(world: dict, runs: int):
    """The task as the worker runs it, after one more approval each time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from federation.rankings import compute

    samples = []
    for n in range(runs):
        approve_one_more(world, n)
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            compute.recompute_ranking.call(ranking_id=world["ranking"].pk, reason="bench")
            samples.append((time.perf_counter() - started) * 1000)
    return (*percentiles(samples), len(queries.captured_queries))


def _as_an_app_server() -> None:
    """The pages are served by app servers, the computation by the task worker: what the
    worker keeps between computations (230,000 parsed results) is not in an app server's
    memory, where the garbage collector would walk it (common.gc_tuning)."""
    import gc

    from common.gc_tuning import freeze_startup_heap
    from federation.rankings import compute

    for kept in (compute._PARSED, compute._CHECKED, compute._LAST, compute._BUILT):
        kept.clear()
    gc.unfreeze()
    freeze_startup_heap()


def rows(world: dict, runs: int) -> list[tuple]:
    from django.test import Client
    from django.urls import reverse

    ranking, region = world["ranking"], world["regions"][3]
    # First the recomputations: the pages then read a list computed after approvals, as a
    # federation's newest list is (most lines share the results of an earlier snapshot's
    # rows, federation.rankings.snapshot_rows).
    recomputed = recompute_runs(world, max(3, runs // 5))
    _as_an_app_server()
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="de")
    officer = Client(HTTP_ACCEPT_LANGUAGE="de")
    officer.force_login(world["officer"])
    from federation.rankings.snapshots import newest_snapshot, snapshot_lines

    found = snapshot_lines(newest_snapshot(ranking), results=False)
    player = next(ln["player"] for ln in found if ln["listed"] and not ln["hidden"])
    page = reverse("federation_public:ranking", args=[ranking.pk])
    public = [
        ("public list page, national", page, 150, 5),
        ("public list page, one region", f"{page}?region={region.pk}", 150, 5),
        ("JSON API list, national", reverse("federation_api:ranking", args=[ranking.pk]), 50, 5),
        ("public player card", reverse("federation_public:card", args=[ranking.pk, player]),
         100, 5),
    ]  # fmt: skip
    out = []
    for label, url, uncached, cached in public:
        out.append((f"{label}, uncached", *measure(anonymous, url, runs, clear=True), uncached))
        out.append((f"{label}, cached", *measure(anonymous, url, runs, clear=False), cached))
    lines = reverse("federation:ranking_lines", args=[ranking.pk])
    members = [
        ("officer's ranking page", reverse("federation:ranking_detail", args=[ranking.pk]), 150),
        ("officer's ranking list", lines, 150),
        ("officer's ranking list, one region", f"{lines}?region={region.pk}", 150),
        ("officer's ranking list, by name, page 20", f"{lines}?sort=name&page=20", 150),
        ("officer's player card", reverse("federation:player_card", args=[ranking.pk, player]),
         100),
        ("qualification list",
         reverse("federation:championship_detail", args=[world["championship"].pk]), 150),
    ]  # fmt: skip
    for label, url, target in members:
        out.append((label, *measure(officer, url, runs, clear=True), target))
    out.append(("recompute after one approval (task)", *recomputed, 1000))
    out.append(("submit a 400-player event end to end", None, None, None, 20000))
    return out


def print_table(rows_: list[tuple]) -> None:
    print(f"| {'measure':<46} | {'p50 ms':>8} | {'p95 ms':>8} | {'queries':>7} "
          f"| {'target ms':>9} | verdict |")  # fmt: skip
    print(f"|{'-' * 48}|{'-' * 10}|{'-' * 10}|{'-' * 9}|{'-' * 11}|---------|")
    for label, p50, p95, queries, target in rows_:
        if p50 is None:
            print(f"| {label:<46} | {'':>8} | {'':>8} | {'':>7} | {target:>9} | "
                  "python -m bench federation-submit |")  # fmt: skip
            continue
        verdict = "pass" if p95 <= target else "FAIL"
        print(f"| {label:<46} | {p50:8.1f} | {p95:8.1f} | {queries:7d} | {target:>9} "
              f"| {verdict:<7} |")  # fmt: skip


def main(argv=None) -> int:
    import logging

    logging.disable(logging.INFO)  # the task's and the login's log lines
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller data set (smoke run)")
    parser.add_argument("--runs", type=int, help="requests per measure")
    args = parser.parse_args(argv)
    size = SIZES["quick" if args.quick else "full"]
    database = _setup(args.quick)
    try:
        from federation.rankings import compute

        started = time.perf_counter()
        world = build(size)
        built = time.perf_counter() - started
        print(f"{size['clubs']} clubs, {size['players']:,} players, {size['events']:,} events "
              f"({world['results']:,} results), {size['evenings']} club evenings: built in "
              f"{built:.1f} s on {database}")  # fmt: skip
        started = time.perf_counter()
        compute.recompute_ranking.call(ranking_id=world["ranking"].pk, reason="bench")
        print(f"first computation (task): {time.perf_counter() - started:.2f} s")
        analyze()
        # As romme/wsgi.py does when an app server starts (common.gc_tuning): what exists
        # now (here the data set's builder's objects too) is not walked by the collector.
        from common.gc_tuning import freeze_startup_heap

        freeze_startup_heap()
        load = os.getloadavg()
        table = rows(world, args.runs or size["runs"])
        print(f"\nload average {load[0]:.2f} before, {os.getloadavg()[0]:.2f} after\n")
        print_table(table)
    finally:
        teardown_django()
    return 0
