"""Time the standings: ``python -m bench standings``.

Data sets: ``large`` (400 players, 5 series of 20 hands, 100 pairs, 25 teams) and ``season``
(60 members over 50 club evenings of 2 series). Budgets from the issue: the standings page
150 ms median with at most 10 queries (Django test Client, logged in as a director), the
JSON 60 ms, the season ranking 200 ms. Next to them the floor: the same totals by one
hand-written SQL aggregate on the same database, and our time as a multiple of it.
"""

from __future__ import annotations

import argparse

from bench.rigs.harness import (
    Measurement,
    director_client,
    kept_connection_warmup,
    measure,
    print_table,
    setup_django,
    teardown_django,
)

# The floors read the same derived rows as the pages (scoring_seattotal, per sheet and seat);
# HAND_FLOOR_SQL sums every hand seat instead, as the pages did before seat totals existed.
HAND_FLOOR_SQL = """
SELECT hs.participant_id, SUM(hs.points)
FROM scoring_handseat hs
JOIN scoring_hand h ON h.id = hs.hand_id
JOIN scoring_sheet sh ON sh.id = h.sheet_id
JOIN tournaments_table t ON t.id = sh.table_id
JOIN tournaments_series s ON s.id = t.series_id
WHERE s.event_id = %s AND sh.status = 'confirmed' AND s.kind = 'regular'
GROUP BY hs.participant_id
"""

FLOOR_SQL = """
SELECT hs.participant_id, SUM(hs.points)
FROM scoring_seattotal hs
JOIN scoring_sheet sh ON sh.id = hs.sheet_id
JOIN tournaments_table t ON t.id = sh.table_id
JOIN tournaments_series s ON s.id = t.series_id
WHERE s.event_id = %s AND sh.status = 'confirmed' AND s.kind = 'regular'
GROUP BY hs.participant_id
"""

SEASON_FLOOR_SQL = """
SELECT p.player_id, s.id, SUM(hs.points)
FROM scoring_seattotal hs
JOIN tournaments_participant p ON p.id = hs.participant_id
JOIN scoring_sheet sh ON sh.id = hs.sheet_id
JOIN tournaments_table t ON t.id = sh.table_id
JOIN tournaments_series s ON s.id = t.series_id
JOIN tournaments_event e ON e.id = s.event_id
WHERE e.season_id = %s AND sh.status = 'confirmed' AND s.kind = 'regular'
GROUP BY p.player_id, s.id
"""


def _floor(sql: str, param: int):
    from django.db import connection

    def run():
        with connection.cursor() as cursor:
            cursor.execute(sql, [param])
            return cursor.fetchall()

    return run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    database = setup_django()
    try:
        return _run(args.runs, database)
    finally:
        teardown_django()


def _run(runs: int, database: str) -> int:
    from bench.rigs.datasets import build

    print(f"database: {database}; building the large and season data sets ...", flush=True)
    rows = measurements(build("large"), build("season"), runs)
    print_table(rows)
    page_rows = [m for m in rows if m.operation.startswith("standings page")]
    too_many = [m for m in page_rows if m.queries is not None and m.queries > 10]
    failed = [m for m in rows if m.verdict == "FAIL"] + too_many
    if too_many:
        print("more than 10 queries:", ", ".join(m.operation for m in too_many))
    return 1 if failed else 0


def measurements(event, season, runs: int) -> list[Measurement]:
    """The standings rows of the timing table, for the large event and the season."""
    from django.urls import reverse

    from scoring.standings import season as standings_season
    from scoring.standings import selectors

    client = director_client("bench-director", event, season)
    page = reverse("standings:event", args=[event.pk])
    api = reverse("standings:api", args=[event.pk])

    def get(url):
        def run():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return run

    rows: list[Measurement] = []
    # Every path as a server's kept connection runs it (PostgreSQL's prepared statements).
    warm = kept_connection_warmup()
    floor = measure(
        "floor: one SQL SUM GROUP BY", "large", _floor(FLOOR_SQL, event.pk), runs=runs, warmup=warm
    )
    rows.append(floor)
    rows.append(
        measure(
            "floor over hand seats",
            "large",
            _floor(HAND_FLOOR_SQL, event.pk),
            runs=runs,
            warmup=warm,
        )
    )
    core = measure(
        "event_standing (aggregate + rank)",
        "large",
        lambda: selectors.event_standing(event, only_published=False),
        runs=runs,
        warmup=warm,
    )
    rows.append(core)
    for label, url, budget in (
        ("standings page, individual", page, 150),
        ("standings page, pairs", page + "?competition=pair", 150),
        ("standings page, teams, series 5", page + "?competition=team&scope=series&n=5", 150),
        ("standings page, provisional", page + "?provisional=1", 150),
        ("public page", reverse("standings:public", args=[event.pk]), 150),
        ("hall display", reverse("standings:display", args=[event.pk]), None),
        ("JSON individual", api, 60),
        ("JSON teams, series 3", api + "?competition=team&series=3", 60),
    ):
        rows.append(measure(label, "large", get(url), runs=runs, warmup=warm, budget_ms=budget))

    season_floor = measure(
        "floor: season SQL SUM GROUP BY",
        "season",
        _floor(SEASON_FLOOR_SQL, season.pk),
        runs=runs,
        warmup=warm,
    )
    rows.append(season_floor)
    rows.append(
        measure(
            "season_standing (aggregate + rank)",
            "season",
            lambda: standings_season.season_standing(season, only_published=False),
            runs=runs,
            warmup=warm,
            budget_ms=200,
        )
    )
    rows.append(
        measure(
            "season ranking page",
            "season",
            get(reverse("standings:season", args=[season.pk])),
            runs=runs,
            warmup=warm,
            budget_ms=200,
        )
    )
    for m in rows:
        base = season_floor if m.size == "season" else floor
        if m is not base and base.median_ms > 0:
            m.note = (m.note + " " if m.note else "") + f"{m.median_ms / base.median_ms:.1f}x floor"
    return rows


def prize_list_row(event, runs: int) -> Measurement:
    """The prize list page of the large event with the demo's prize-giving (categories, entry
    fees, a plan paying the overall places, every series, the pairs and two categories): a
    read path of issue 38. Measured after the prints, which its categories would change."""
    from django.urls import reverse

    from bench.rigs.harness import analyze
    from prizes.demo import seed_prizes

    # (seed_prizes hands out as the club's first organiser: this one, if none is yet)
    client = director_client("bench-director", event)
    seed_prizes(tournament=event)
    analyze()
    url = reverse("prizes:prize_list", args=[event.pk])

    def run():
        response = client.get(url)
        assert response.status_code == 200 and b"Serie 5" in response.content, url
        return response

    return measure("prize list page", "large", run, runs=runs, warmup=kept_connection_warmup())
