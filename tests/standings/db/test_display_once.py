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


def _shape(standing):
    rows = [
        (r.rank, r.key, r.total, r.values, r.provisional, r.series_totals, r.reason)
        for r in standing.rows
    ]
    ties = [[r.key for r in tie] for tie in standing.ties]
    return rows, ties, standing.counted_series, standing.days, standing.provisional


@pytest.mark.parametrize("include_entered", [False, True])
@pytest.mark.parametrize("only_published", [False, True])
def test_every_scope_from_one_read_equals_its_own_read(club_a, include_entered, only_published):
    """The prints and the prize list rank every scope from one read of all series: each
    standing must be what the page's read of that scope alone gives, playoffs, entered
    sheets, unpublished series and several days included."""
    from scoring.standings.labels import COMPETITIONS, DAY, OVERALL, SERIES
    from tests.standings.db.conftest import add_series, make_event

    event, (a, b, c, d) = make_event(club_a, chain=("total", "hands_won"), prize_lines=(1, 2))
    H = [(0, False, [(0, 20), (5, -5), (5, -5), (10, -10)])]
    add_series(event, [a, b, c, d], H, day=1)
    add_series(event, [b, a, d, c], H, day=1, status="entered")
    add_series(event, [c, d, a, b], H, day=2, published=False)
    add_series(event, [a, b], [(1, False, [(10, -10), (0, 10)])], kind="playoff", day=2)
    scopes = [(OVERALL, None), (SERIES, 1), (SERIES, 2), (SERIES, 3), (DAY, 1), (DAY, 2)]
    options = {"include_entered": include_entered, "only_published": only_published}
    inputs = selectors.standing_inputs(event, **options)
    for scope, number in scopes:
        together = inputs.standings(scope, number)
        for competition in COMPETITIONS:
            alone = selectors.event_standings(
                event, competitions=(competition,), scope=scope, number=number, **options
            )[competition]
            assert _shape(together[competition]) == _shape(alone), (scope, number, competition)
    # not a comparison of empty lists: the overall standing has every player
    overall = inputs.standings()["individual"]
    assert len(overall.rows) == 4 and overall.counted_series


def test_a_competition_not_read_is_refused(club_a):
    event = generated(club_a, 8, series=1)
    inputs = selectors.standing_inputs(event, competitions=("individual",))
    with pytest.raises(ValueError):
        inputs.standings(competitions=("pair",))
    with pytest.raises(ValueError):
        inputs.standings("season")
