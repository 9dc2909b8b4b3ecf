"""League play at scale (issue 37): ``python -m bench league-scale [--quick]`` (SQLite) or
with ``DATABASE_URL=postgres://…`` (a throw-away PostgreSQL database ``bench_league``,
created and dropped).

Data set: a national league of 4 levels, 60 divisions of 16 teams (960 teams of 480 clubs,
each club with a team at two levels; 6,000 rostered players), 5 match days a division, each
with 4 venues of 4 teams: 1,200 match-day events of the host clubs with 16 players in team
groups, 3 series of 4 tables with confirmed sheets (their stored seat totals; the hands
themselves are not generated: the league reads only the totals). Every day's result is
submitted and approved through the services. Then: the division table uncached (the
selector, and the public JSON and page with the shared cache emptied), cached (an
anonymous reader's repeated request, and a 304), the recomputation after one more approval
(approve + the table), and closing the season (proposal, confirmation, the next season).
``--quick``: 6 divisions (a smoke run)."""

from __future__ import annotations

import argparse
import random
import time
from datetime import date, timedelta

from bench.rigs.harness import measure, print_table, setup_django, teardown_django

SIZES = {
    "full": {"levels": (1, 3, 12, 44), "runs": 20},
    "quick": {"levels": (1, 2, 3), "runs": 5},
}
TEAMS, DAYS, VENUES, SERIES, LINEUP, ROSTER = 16, 5, 4, 3, 4, 6


def build(levels, seed=37):
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player
    from federation.models import Association
    from leagues.models import Division, LeagueSeason, LineupEntry, MatchDay, RosterEntry, Team
    from scoring.models import SeatTotal, Sheet
    from tournaments.models import Event, Group, GroupMember, Participant, Seat, Series, Table

    rng = random.Random(seed)
    admin = get_user_model().objects.create_superuser("bench-admin", password="x")
    national = Association.objects.create(name="Bund (Liga)", short_name="BL", kind="national")
    season = LeagueSeason.objects.create(
        association=national,
        name="Liga-Skala",
        first_year=2026,
        last_year=2026,
        rules={"roster_max": 8},
    )
    divisions, _parents = [], []
    for level, count in enumerate(levels, start=1):
        above = [d for d in divisions if d.level == level - 1]
        for n in range(count):
            parent = above[n % len(above)] if above else None
            divisions.append(
                Division.objects.create(
                    season=season,
                    name=f"Staffel {level}-{n + 1:02d}",
                    level=level,
                    parent=parent,
                    promoted=0 if parent is None else 2,
                    relegated=2 if level < len(levels) else 0,
                )
            )
    n_teams = len(divisions) * TEAMS
    clubs = Club.objects.bulk_create(
        Club(name=f"Ligaclub {i:03d}", short_name=f"LC{i:03d}") for i in range(n_teams // 2)
    )
    # Club i has its first team in slot i and its second one half the league further on:
    # never two in one division.
    slots = [(d, k) for d in divisions for k in range(TEAMS)]
    half = len(clubs)
    teams = Team.objects.bulk_create(
        Team(
            division=d,
            club=clubs[i % half],
            name=f"{clubs[i % half].short_name} {'I' if i < half else 'II'}",
        )
        for i, (d, _k) in enumerate(slots)
    )
    players = Player.objects.bulk_create(
        Player(
            given_name=f"V{i}",
            family_name=f"Spieler{i:05d}",
            player_number=f"LB{i:05d}",
            sort_key=f"spieler{i:05d}",
        )
        for i in range(n_teams * ROSTER + n_teams // 4)
    )
    roster = {}
    it = iter(players)
    members = []
    for t in teams:
        size = ROSTER + (1 if t.pk % 4 == 0 else 0)
        roster[t.pk] = [next(it) for _ in range(size)]
        members += [
            Membership(player=p, club_id=t.club_id, valid_from=date(2024, 1, 1))
            for p in roster[t.pk]
        ]
    Membership.objects.bulk_create(members)
    RosterEntry.objects.bulk_create(
        RosterEntry(team_id=t, player=p) for t, ps in roster.items() for p in ps
    )
    by_division = {}
    for t in teams:
        by_division.setdefault(t.division_id, []).append(t)
    start = date(2026, 2, 1)
    days = []
    for d in divisions:
        dteams = by_division[d.pk]
        for day in range(DAYS):
            rng.shuffle(dteams)
            for v in range(VENUES):
                group = dteams[v * 4 : v * 4 + 4]
                days.append((d, day * VENUES + v + 1, start + timedelta(days=28 * day), group))
    events = Event.objects.bulk_create(
        Event(
            club_id=g[0].club_id,
            name=f"{d.name}, {n}. Spieltag",
            start_date=when,
            later_series_seating="lot",
        )
        for d, n, when, g in days
    )
    matchdays = MatchDay.objects.bulk_create(
        MatchDay(
            division=d,
            number=n,
            date=when,
            host_id=g[0].club_id,
            event=e,
            status="open",
            lots_seed=rng.getrandbits(40),
            series_count=SERIES,
        )
        for (d, n, when, g), e in zip(days, events, strict=True)
    )
    Through = MatchDay.teams.through
    Through.objects.bulk_create(
        Through(matchday_id=m.pk, team_id=t.pk)
        for m, (_d, _n, _w, g) in zip(matchdays, days, strict=True)
        for t in g
    )
    parts, entries, groups = [], [], []
    for e, (_d, _n, _w, g) in zip(events, days, strict=True):
        for t in g:
            groups.append(Group(event=e, kind="team", name=t.name))
            for p in roster[t.pk][:LINEUP]:
                parts.append(Participant(event=e, player=p, club_id=t.club_id, checked_in=True))
    Participant.objects.bulk_create(parts, batch_size=2000)
    Group.objects.bulk_create(groups, batch_size=2000)
    pi = iter(parts)
    gi = iter(groups)
    gm, seats_of = [], {}
    for m, e, (_d, _n, _w, g) in zip(matchdays, events, days, strict=True):
        cols = []
        for t in g:
            group = next(gi)
            col = []
            for p in roster[t.pk][:LINEUP]:
                part = next(pi)
                gm.append(GroupMember(group=group, participant=part, kind="team"))
                entries.append(LineupEntry(match_day=m, team=t, player=p, participant=part))
                col.append(part.pk)
            cols.append(col)
        seats_of[e.pk] = cols
    GroupMember.objects.bulk_create(gm, batch_size=2000)
    LineupEntry.objects.bulk_create(entries, batch_size=2000)
    series = Series.objects.bulk_create(
        Series(event=e, number=n, planned_rounds=5, status="complete", published=True)
        for e in events
        for n in range(1, SERIES + 1)
    )
    tables = Table.objects.bulk_create(
        (Table(series=s, number=k + 1) for s in series for k in range(LINEUP)), batch_size=2000
    )
    sheets = Sheet.objects.bulk_create(
        (Sheet(table=t, status="confirmed") for t in tables), batch_size=2000
    )
    seats, totals = [], []
    for idx, (t, sheet) in enumerate(zip(tables, sheets, strict=True)):
        s = series[idx // LINEUP]
        cols = seats_of[s.event_id]
        k = idx % LINEUP
        for pos, col in enumerate(cols):
            pid = col[(k + s.number + pos) % LINEUP]
            seats.append(Seat(table=t, series=s, position=pos, participant_id=pid))
            totals.append(
                SeatTotal(
                    sheet=sheet,
                    position=pos,
                    participant_id=pid,
                    points=rng.randint(-150, 260),
                    lost_hand_points=0,
                    hands_won=rng.randint(0, 8),
                    hand_rommes=0,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=5000)
    SeatTotal.objects.bulk_create(totals, batch_size=5000)
    return {"admin": admin, "season": season, "divisions": divisions, "matchdays": matchdays}


def approve_all(data) -> float:
    from leagues.matchdays import services as matchday_services

    started = time.perf_counter()
    for m in data["matchdays"]:
        result = matchday_services.submit_result(data["admin"], m)
        matchday_services.decide_result(data["admin"], result, approve=True)
    return time.perf_counter() - started


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="6 divisions (a smoke run)")
    args = parser.parse_args(argv)
    size = SIZES["quick" if args.quick else "full"]
    database = setup_django("bench_league" + ("_quick" if args.quick else ""))
    from django.conf import settings

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from leagues import selectors
    from leagues.closing import services as closing
    from leagues.matchdays import services as matchday_services
    from leagues.models import MatchDayResult, PlayerDayResult, TeamDayResult

    try:
        t0 = time.perf_counter()
        data = build(size["levels"])
        built = time.perf_counter() - t0
        approved = approve_all(data)
        n_div = len(data["divisions"])
        label = f"{n_div} div."
        print(
            f"{database}: built in {built:.1f} s, {len(data['matchdays'])} days submitted and "
            f"approved in {approved:.1f} s"
        )
        # As the app server does once it has loaded (romme/wsgi.py): what lives now is not
        # walked again by the collector during the requests timed below.
        from common.gc_tuning import freeze_startup_heap

        freeze_startup_heap()
        division = data["divisions"][-1]
        runs = size["runs"]
        rows = [
            measure(
                "division table (selector)",
                label,
                lambda: selectors.table_of(division),
                runs=runs,
                budget_ms=100,
            ),
        ]
        client = Client()
        json_url = reverse("leagues_public:division_json", args=[division.pk])
        page_url = reverse("leagues_public:division", args=[division.pk])

        def uncached(url):
            def run():
                cache.clear()
                assert client.get(url).status_code == 200

            return run

        rows.append(
            measure("division JSON, uncached", label, uncached(json_url), runs=runs, budget_ms=100)
        )
        rows.append(
            measure("division page, uncached", label, uncached(page_url), runs=runs, budget_ms=100)
        )
        client.get(page_url)
        rows.append(
            measure(
                "division page, cached",
                label,
                lambda: client.get(page_url),
                runs=runs * 5,
                budget_ms=5,
            )
        )
        etag = client.get(json_url)["ETag"]
        rows.append(
            measure(
                "division JSON, 304",
                label,
                lambda: client.get(json_url, HTTP_IF_NONE_MATCH=etag),
                runs=runs * 5,
                budget_ms=5,
            )
        )
        day = next(m for m in data["matchdays"] if m.division_id == division.pk)
        result = MatchDayResult.objects.get(match_day=day)

        def reapprove():
            MatchDayResult.objects.filter(pk=result.pk).update(status="submitted")
            TeamDayResult.objects.filter(result=result).update(approved=False)
            PlayerDayResult.objects.filter(result=result).update(approved=False)
            matchday_services.decide_result(data["admin"], result, approve=True)
            selectors.table_of(division)

        rows.append(
            measure("approval + division recomputed", label, reapprove, runs=runs, budget_ms=1000)
        )

        def close():
            closing.close_season(
                data["admin"],
                data["season"],
                changes={},
                reason="",
                next_name="Liga-Skala 2027",
                next_first_year=2027,
                next_last_year=2027,
            )

        rows.append(
            measure(
                "closing the season",
                f"{n_div * TEAMS} teams",
                close,
                runs=1,
                warmup=0,
                budget_ms=10_000,
            )
        )
        print_table(rows)
    finally:
        teardown_django()
