"""An event sets the session end (target score) and the tie policy through its rule-set
overrides (issue 12, items 3 and 4)."""

import pytest
from django.urls import reverse

from scoring.sheets.grid import check_grid, normalise_grid
from tournaments.models import Event

from .test_events import event_data

pytestmark = pytest.mark.django_db


def test_target_score_and_ties_are_stored_as_overrides(client, club_a, organiser_a):
    client.force_login(organiser_a)
    client.post(
        reverse("tournaments:event_create"),
        event_data(club_a, ruleset_slug="treppenromme", target_score="1000", ties="playoff"),
    )
    event = Event.objects.get()
    assert event.ruleset_overrides == {"target_score": 1000, "ties": "playoff"}
    assert event.ruleset.target_score == 1000 and event.ruleset.ties == "playoff"


def test_target_score_0_means_fixed_rounds_and_empty_keeps_the_preset(client, club_a, organiser_a):
    client.force_login(organiser_a)
    client.post(
        reverse("tournaments:event_create"),
        event_data(club_a, ruleset_slug="treppenromme", target_score="0"),
    )
    client.post(
        reverse("tournaments:event_create"),
        event_data(club_a, ruleset_slug="treppenromme", name="Zweites", target_score=""),
    )
    fixed, preset = Event.objects.order_by("pk")
    assert fixed.ruleset_overrides == {"target_score": None}
    assert fixed.ruleset.target_score is None
    assert preset.ruleset_overrides == {} and preset.ruleset.target_score == 500
    page = client.get(reverse("tournaments:event_edit", args=[fixed.pk]))
    assert page.context["form"]["target_score"].initial == 0


def test_a_treppenromme_sheet_ending_at_the_target_is_complete(club_a):
    """seed 004: the session ends when a player reaches the agreed points; a sheet of two
    hands at a 3-table is then complete (no series.unequal-deals)."""
    from rules import PRESETS

    rs = PRESETS["treppenromme"].derive(target_score=100)

    def hand(*seats):
        return {
            "winner": 0,
            "seats": [{"hand_points": h, "melded": m} for h, m in seats],
        }

    grid = normalise_grid(
        {
            "first_dealer": 0,
            "hands": [hand((0, 40), (10, 20), (15, 0)), hand((0, 30), (5, 0), (6, 10))],
        },
        3,
    )
    checked = check_grid(grid, ruleset=rs, table_size=3, planned_rounds=1, partial=False)
    assert [p.code for p in checked.problems] == []
    assert checked.ready and checked.totals[0] >= 100
