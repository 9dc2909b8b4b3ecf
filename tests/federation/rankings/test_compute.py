"""The ranking computation (issue 27, point 2): snapshots against hand-made expectations,
query counts constant in the number of events and players, the task scheduled on commit."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.models import PublicHiding, RankingSnapshot
from federation.rankings import compute
from federation.rankings import status_services as ss
from federation.rankings.models import OfficialResult
from tests.factories import IMMEDIATE_TASKS, EventFactory, PlayerFactory
from tests.federation.status_helpers import (
    approved_version,
    make_ranking,
    member_of,
    played_event,
)


@pytest.fixture
def ranking_a(region_a, affiliation_a):
    return make_ranking(region_a, "Hessen-Rangliste")


def res(player, place, **extra):
    return {"player": player.pk, "place": place, "score": 0, "hands": 10, **extra}


@pytest.fixture
def league(region_a, affiliation_a, club_a, club_b):
    """Three events by hand (docstring of test_hand_made_expectations)."""
    ranking = make_ranking(region_a, best_n=2, min_events=2)
    ranking.as_of = dt.date(2026, 12, 31)
    ranking.save()
    p = [PlayerFactory(given_name=f"G{i}", family_name=f"F{i}") for i in range(1, 6)]
    member_of(p[0], club_a)
    member_of(p[1], club_b)
    e1, e2, e3 = (EventFactory(club=club_a, start_date=dt.date(2026, m, 1)) for m in (3, 4, 5))
    v1 = approved_version(ranking, e1, [res(p[0], 1), res(p[1], 2), res(p[2], 2), res(p[3], 4)])
    v2 = approved_version(
        ranking, e2, [res(p[1], 1), res(p[0], 2), res(p[3], 3)], klass="championship"
    )
    v3 = approved_version(ranking, e3, [res(p[0], 1), res(p[2], 2), res(p[4], 3)])
    return ranking, p, (v1, v2, v3)


def test_hand_made_expectations(league, region_a):
    """E1 (field 4): P1 4, P2 and P3 tied on 2: (3 + 2) / 2 = 2.5 each, P4 1.
    E2 (championship, ×2, field 3): P2 6, P1 4, P4 2.  E3 (field 3): P1 3, P3 2, P5 1.
    Best 2: P2 8.5, P1 4 + 4 = 8 (3 dropped), P3 4.5, P4 3; P5 one event: not listed."""
    ranking, p, (v1, v2, v3) = league
    PublicHiding.objects.create(player=p[3])
    snap = compute.recompute(ranking, "test")
    assert snap.number == 1 and snap.as_of == dt.date(2026, 12, 31)
    assert snap.versions == sorted([v1.pk, v2.pk, v3.pk])
    table = [(ln["name"], ln["rank"], ln["value"], ln["events_counted"], ln["listed"])
             for ln in snap.lines]  # fmt: skip
    assert table == [
        ("G2 F2", 1, "8.50", 2, True),
        ("G1 F1", 2, "8.00", 2, True),
        ("G3 F3", 3, "4.50", 2, True),
        ("G4 F4", 4, "3.00", 2, True),
        ("G5 F5", None, "1.00", 1, False),
    ]
    first = snap.lines[1]
    assert first["club"] == "HDK" and first["regions"] == [region_a.pk]
    assert first["best"] == "4.00" and first["player"] == p[0].pk
    dropped = [r for r in first["results"] if not r["counted"]]
    assert [(r["version"], r["points"], r["place"], r["field"]) for r in dropped] == [
        (v3.pk, "3.00", 1, 3)
    ]
    assert dropped[0]["reason"] == compute.REASONS["dropped"]
    assert dropped[0]["date"] == "2026-05-01" and dropped[0]["event_name"] == v3.status.event.name
    assert snap.lines[1]["regions"] == [region_a.pk] and snap.lines[0]["regions"] == []
    assert snap.lines[3]["hidden"] and not snap.lines[0]["hidden"]
    assert snap.lines[4]["reason"] == compute.REASONS["min-events"]
    assert compute.recompute(ranking).number == 2


def test_window_and_empty_ranking(league, region_a):
    ranking, _p, _v = league
    ranking.as_of = dt.date(2030, 1, 1)  # all three events left the 24-month window
    ranking.save()
    assert compute.recompute(ranking).lines == []
    empty = make_ranking(region_a, "Leer")
    snap = compute.recompute(empty)
    assert snap.lines == [] and snap.versions == []


def test_disqualified_and_small_field(region_a, affiliation_a, club_a):
    ranking = make_ranking(region_a, min_events=1, min_field=3)
    a, b = PlayerFactory(), PlayerFactory()
    small = EventFactory(club=club_a, start_date=dt.date(2026, 6, 1))
    big = EventFactory(club=club_a, start_date=dt.date(2026, 7, 1))
    approved_version(ranking, small, [res(a, 1), res(b, 2)])
    approved_version(ranking, big, [res(a, 1, disqualified=True), res(b, 2)], field_size=3)
    ranking.as_of = dt.date(2026, 8, 1)
    lines = {ln["player"]: ln for ln in compute.recompute(ranking).lines}
    assert lines[b.pk]["rank"] == 1 and lines[b.pk]["value"] == "2.00"
    assert not lines[a.pk]["listed"]
    reasons = {r["reason"] for r in lines[a.pk]["results"]}
    assert reasons == {compute.REASONS["disqualified"], compute.REASONS["field-small"]}


def _queries(ranking) -> int:
    with CaptureQueriesContext(connection) as ctx:
        compute.recompute(ranking)
    return len(ctx.captured_queries)


def test_queries_constant_in_events_and_players(region_a, affiliation_a, club_a):
    ranking = make_ranking(region_a)
    ranking.as_of = dt.date(2026, 12, 31)

    def add_events(count, size):
        for i in range(count):
            event = EventFactory(club=club_a, start_date=dt.date(2026, 1 + i % 12, 1))
            players = [PlayerFactory() for _ in range(size)]
            for player in players:
                member_of(player, club_a)
            approved_version(ranking, event, [res(pl, n) for n, pl in enumerate(players, 1)])

    add_events(2, 3)
    small = _queries(ranking)
    add_events(6, 8)
    assert _queries(ranking) == small


def test_approval_computes_on_commit(
    settings, club_a, ranking_a, organiser_a, officer_a, django_capture_on_commit_callbacks
):
    settings.TASKS = IMMEDIATE_TASKS
    event = played_event(club_a)
    ranking_a.as_of = event.start_date  # the played event lies in the future of today
    ranking_a.save()
    status = ss.request_status(organiser_a, event, ranking_a, event_class="ranking")
    ss.decide_status(officer_a, status, grant=True, reason="")
    version = ss.submit_event(organiser_a, status)
    assert not RankingSnapshot.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        ss.approve_version(officer_a, version)
    snap = RankingSnapshot.objects.get(ranking=ranking_a)
    assert snap.versions == [version.pk] and len(snap.lines) == 8
    assert snap.reason == "approval"
    assert all(not ln["listed"] for ln in snap.lines)  # one event, two needed
    # The lines are rows (a page reads one page of them, a card one row) and the players'
    # official results are written with them.
    assert snap.rows.count() == 8
    assert OfficialResult.objects.filter(version=version).count() == 8


def test_one_waiting_task_per_ranking(ranking_a, django_capture_on_commit_callbacks):
    from django_tasks_db.models import DBTaskResult

    with django_capture_on_commit_callbacks(execute=True):
        compute.schedule_recompute(ranking_a.pk, "a")
        compute.schedule_recompute(ranking_a.pk, "b")
    waiting = DBTaskResult.objects.filter(task_path=compute.recompute_ranking.module_path)
    assert waiting.count() == 1
    assert waiting.get().args_kwargs["kwargs"]["ranking_id"] == ranking_a.pk
