"""The hall display reads and ranks the field once per request, not once per competition."""

import pytest
from django.urls import reverse

from scoring.standings import selectors
from tests.factories import ClubFactory
from tests.standings.db.conftest import generated

pytestmark = pytest.mark.django_db


def test_the_display_reads_the_results_once(client, monkeypatch):
    event = generated(ClubFactory(), 12, series=2, rounds=1, pairs=2, teams=1)
    calls = {"aggregate": 0, "individuals": 0}
    aggregate, individuals = selectors.aggregate, selectors._rank_individuals

    def counting_aggregate(*args, **kwargs):
        calls["aggregate"] += 1
        return aggregate(*args, **kwargs)

    def counting_individuals(*args, **kwargs):
        calls["individuals"] += 1
        return individuals(*args, **kwargs)

    monkeypatch.setattr(selectors, "aggregate", counting_aggregate)
    monkeypatch.setattr(selectors, "_rank_individuals", counting_individuals)
    response = client.get(reverse("standings:display", args=[event.pk]))
    assert response.status_code == 200
    assert calls == {"aggregate": 1, "individuals": 1}
    text = response.content.decode()
    assert text.count("data-panel ") >= 3  # individual, pairs and teams all shown


def test_several_competitions_at_once_equal_one_at_a_time(db):
    event = generated(ClubFactory(), 12, series=2, rounds=1, pairs=2, teams=1)
    together = selectors.event_standings(event, only_published=True)
    for competition, standing in together.items():
        alone = selectors.event_standing(event, competition=competition)
        assert [(r.rank, r.key, r.total) for r in standing.rows] == [
            (r.rank, r.key, r.total) for r in alone.rows
        ]
