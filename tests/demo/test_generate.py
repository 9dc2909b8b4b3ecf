"""The generator builds events whose stored results agree with the rules engine."""

import pytest
from django.db.models import Count, Sum

from rules import HandResult, check_series, score_hand
from scoring.demo.generate import Plan, generate_event
from scoring.models import HandSeat, Sheet
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_generated_event_is_valid_and_consistent():
    club = ClubFactory()
    players = PlayerFactory.create_batch(14)
    event = generate_event(
        Plan(name="Demo", club=club, players=players, series=3, rounds=2, pairs=2, teams=1,
             confirmed_series=2, entered_tables=1, draft_tables=1)
    )  # fmt: skip
    ruleset = event.ruleset
    series = list(event.series.order_by("number"))
    assert [s.status for s in series] == ["complete", "complete", "in_play"]
    assert all(s.tables.count() == 4 for s in series)  # 14 players: 4 + 4 + 3 + 3
    for sheet in Sheet.objects.filter(table__series__event=event).prefetch_related(
        "versions", "table__seats"
    ):
        grid = sheet.versions.all()[0].grid
        size = sheet.table.seats.count()
        hands = [HandResult.from_dict(h) for h in grid["hands"]]
        partial = sheet.status == Sheet.Status.DRAFT
        assert check_series(hands, ruleset, size, planned_rounds=2, partial=partial) == []
        stored = list(
            HandSeat.objects.filter(hand__sheet=sheet)
            .order_by("hand__number", "position")
            .values_list("points", flat=True)
        )
        expected = [p for h in hands for p in score_hand(h, ruleset, size)]
        assert stored == expected
    statuses = dict(
        Sheet.objects.filter(table__series=series[2]).values_list("status").annotate(n=Count("id"))
    )
    assert statuses == {"entered": 1, "draft": 1}
    assert (
        HandSeat.objects.filter(hand__sheet__table__series=series[0]).aggregate(s=Sum("points"))[
            "s"
        ]
        < 0
    )


def test_generated_treppenromme_events_play_fixed_rounds(club_a):
    """Generated series are fixed rounds, so the target score of seed 004 is switched off."""
    players = PlayerFactory.create_batch(4)
    event = generate_event(
        Plan(
            name="Treppe", club=club_a, players=players, series=1, rounds=1,
            ruleset_slug="treppenromme",
        )
    )  # fmt: skip
    assert event.ruleset_overrides == {"target_score": None}
    assert event.ruleset.target_score is None
