"""`common.id_lists.among_ids`: the same rows as ``__in`` with the ids as one parameter, on
SQLite and on PostgreSQL (issue 38)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership, Player
from common.id_lists import among_ids
from tests.factories import MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_the_same_rows_as_in_with_one_parameter():
    players = [PlayerFactory() for _ in range(5)]
    MembershipFactory(player=players[1])
    MembershipFactory(player=players[3])
    wanted = [players[1].pk, players[3].pk, players[4].pk, 999_999_937, players[1].pk]
    with CaptureQueriesContext(connection) as queries:
        found = set(Player.objects.filter(among_ids("pk", wanted)).values_list("pk", flat=True))
    assert found == set(Player.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    assert found == {players[1].pk, players[3].pk, players[4].pk}
    sql = queries.captured_queries[0]["sql"]
    assert len(re.findall(rf"\b{players[1].pk}\b", sql)) == 2  # as given, twice
    members = Membership.objects.filter(among_ids("player_id", wanted)).values_list(
        "player_id", flat=True
    )
    assert sorted(members) == sorted([players[1].pk, players[3].pk])


def test_no_ids_no_rows_and_joined_with_other_conditions():
    player = PlayerFactory(given_name="Anna")
    assert not Player.objects.filter(among_ids("pk", [])).exists()
    both = Player.objects.filter(among_ids("pk", {player.pk}), given_name="Anna")
    assert list(both) == [player]
    assert not Player.objects.filter(among_ids("pk", [player.pk]), given_name="Berta").exists()
    assert list(Player.objects.exclude(among_ids("pk", [player.pk]))) == []
