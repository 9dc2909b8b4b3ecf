"""A redraw removes the old seating with one history record per seat, in a fixed number of
queries (seat-by-seat deletes cost 800 queries for 400 players, slow on PostgreSQL)."""

import pytest

from tests.factories import SeriesFactory
from tests.tournaments.conftest import make_participants
from tournaments import seating
from tournaments.models import Seat, Table

pytestmark = pytest.mark.django_db


def _redraw_queries(event, organiser, count, django_assert_max_num_queries, number):
    make_participants(event, count)
    series = SeriesFactory(event=event, number=number)
    seating.draw_series(organiser, series, seed=1)
    old = sorted(Seat.objects.filter(series=series).values_list("pk", "participant_id"))
    with django_assert_max_num_queries(40) as captured:
        seating.draw_series(organiser, series, seed=2)
    return series, old, len(captured.captured_queries)


def test_a_redraw_records_every_removed_seat(event_a, organiser_a, django_assert_max_num_queries):
    series, old, _ = _redraw_queries(event_a, organiser_a, 13, django_assert_max_num_queries, 1)
    removed = Seat.history.filter(series_id=series.pk, history_type="-")
    assert sorted(removed.values_list("id", "participant_id")) == old
    assert {r.history_user for r in removed} == {organiser_a}
    assert set(removed.values_list("history_change_reason", flat=True)) == {"new draw"}
    # The new seating is in place, the old seats and tables are gone.
    assert not Seat.objects.filter(pk__in=[pk for pk, _ in old]).exists()
    assert Seat.objects.filter(series=series).count() == 13
    assert Table.objects.filter(series=series).count() == 4


def test_redraw_queries_do_not_grow_with_the_players(
    event_a, organiser_a, django_assert_max_num_queries
):
    _, _, few = _redraw_queries(event_a, organiser_a, 8, django_assert_max_num_queries, 1)
    _, _, many = _redraw_queries(event_a, organiser_a, 40, django_assert_max_num_queries, 2)
    assert many == few
