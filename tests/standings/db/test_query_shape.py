"""The read paths' queries, one by one (issue 18): every round trip costs PostgreSQL more
than SQLite, so a page reads each table once and joins only what it shows."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Series

from .conftest import director, generated

pytestmark = pytest.mark.django_db


def _queries(client, url) -> list[str]:
    client.get(url)  # warm-up (the lots seed, caches)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return [q["sql"] for q in captured.captured_queries]


def _from(queries, table) -> list[str]:
    return [q for q in queries if re.search(rf'\bFROM "{table}"', q)]


@pytest.fixture
def event(club_a):
    return generated(club_a, 16, series=2, rounds=1, pairs=4, teams=2, seed=5)


def test_the_hall_display_reads_the_groups_once_for_pairs_and_teams(client, club_a, event):
    client.force_login(director(club_a))  # a private response: rendered on every request
    queries = _queries(client, reverse("standings:display", args=[event.pk]))
    assert not _from(queries, "tournaments_group")  # the names come with the members
    assert len(_from(queries, "tournaments_groupmember")) == 1
    # event, series, aggregate, participants, group members, and whether a laptop sends
    # the event live ("live aus dem Saal, Stand …"); the display never reads the session:
    # it shows the same to everybody
    assert len(queries) == 6


def test_a_logged_in_reader_of_a_public_view_reads_the_event_once(client, club_a, event):
    client.force_login(director(club_a))
    for name, query in (
        ("standings:api", ""),
        ("standings:api", "?competition=team&series=1"),
        ("standings:public", ""),
        ("standings:display", ""),
    ):
        queries = _queries(client, reverse(name, args=[event.pk]) + query)
        assert len(_from(queries, "tournaments_event")) == 1, (name, query)


def test_the_playoff_tables_are_read_only_when_there_is_a_playoff(client, club_a, event):
    client.force_login(director(club_a))
    url = reverse("standings:event", args=[event.pk])
    queries = _queries(client, url)
    # session, user with their club roles (clubs.auth), event, series, aggregate, participants
    assert len(queries) == 6
    assert not _from(queries, "tournaments_table")
    series = event.series.get(number=2)
    Series.objects.create(
        event=event, number=3, planned_rounds=1, kind=Series.Kind.PLAYOFF,
        playoff_of={"series": series.number},
    )  # fmt: skip
    assert len(_from(_queries(client, url), "tournaments_table")) == 1


def test_lookups_by_id_join_nothing_for_an_ordering(client, club_a, event):
    """Participants, groups and club roles are read into dicts: no Meta ordering, so no
    join of the events, players' sort keys, clubs or users just to sort them. The roles
    come with the user (clubs.auth): a join of the roles alone, no query of their own."""
    client.force_login(director(club_a))
    for query, tables in (
        ("", ("tournaments_participant",)),
        ("?competition=pair", ("tournaments_groupmember",)),
    ):
        queries = _queries(client, reverse("standings:event", args=[event.pk]) + query)
        for table in tables:
            (sql,) = _from(queries, table)
            assert "ORDER BY" not in sql or table == "tournaments_groupmember", sql
            assert 'JOIN "tournaments_event"' not in sql, sql
    assert not _from(queries, "clubs_clubrole")
    (user,) = _from(queries, "auth_user")
    assert "ORDER BY" not in user, user
    assert re.findall(r'JOIN "(\w+)"', user) == ["clubs_clubrole"], user


def test_a_pairs_or_teams_standing_reads_the_members_names_with_the_groups(client, club_a, event):
    """A group standing shows members only: their names and clubs come in the group
    members' query, no separate participants query (one round trip less, issue 18)."""
    client.force_login(director(club_a))
    for name, query in (
        ("standings:event", "?competition=pair"),
        ("standings:event", "?competition=team&scope=series&n=1"),
        ("standings:api", "?competition=team&series=1"),
    ):
        queries = _queries(client, reverse(name, args=[event.pk]) + query)
        assert not _from(queries, "tournaments_participant"), (name, query)
        (members,) = _from(queries, "tournaments_groupmember")
        assert 'JOIN "clubs_player"' in members, members
        # session, user with roles, event, series, aggregate, group members with their names
        assert len(queries) == 6, (name, query, queries)
