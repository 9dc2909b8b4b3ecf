"""The division table reads a fixed number of queries however many days are approved."""

import datetime as dt

from leagues import selectors
from leagues.demo.play import play_match_day
from leagues.matchdays import services as matchday_services
from tests.leagues.conftest import name_all


def _play(league, day):
    name_all(league, day)
    play_match_day(day, lambda n, pid: pid * n % 97)
    result = matchday_services.submit_result(league.officer, day)
    matchday_services.decide_result(league.officer, result, approve=True)


def test_table_queries_do_not_grow(league, day, django_assert_num_queries):
    _play(league, day)
    division = league.top
    division.season  # noqa: B018  (read once, as the views do)
    with django_assert_num_queries(4):
        first = selectors.table_of(division)
    second_day = matchday_services.create_match_day(
        league.officer,
        division,
        number=2,
        date=dt.date(2026, 4, 1),
        host=league.clubs[1],
        teams=league.teams,
    )
    _play(league, second_day)
    with django_assert_num_queries(4):
        table = selectors.table_of(division)
    assert [line.played for line in table.lines] == [2, 2, 2, 2]
    assert sum(line.points for line in table.lines) == 2 * sum(line.points for line in first.lines)
