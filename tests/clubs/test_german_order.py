"""Names sort as a German reader expects (DIN 5007-1: Ä with A, ß as ss) on every database,
and the player filter matches part of a name or a number."""

import pytest
from django.urls import reverse

from clubs.models import Player, make_sort_key
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

NAMES = ["Zander", "Ärmel", "Abel", "Öhler", "Ober", "Strauß", "Strauss", "Straub", "Müller"]


def test_sort_key_folds_umlauts_and_sharp_s():
    assert make_sort_key("Jürgen", "Groß") == make_sort_key("Jurgen", "Gross")
    assert make_sort_key("Anna", "Berg") < make_sort_key("Anna", "Bergmann")
    # Family name first: "Berg, Zora" comes before "Bergan, Anna" whatever the collation.
    assert make_sort_key("Zora", "Berg") < make_sort_key("Anna", "Bergan")


def test_registry_order_is_german_alphabetical():
    for i, name in enumerate(NAMES):
        PlayerFactory(family_name=name, given_name="Eva", player_number=f"N{i}")
    got = [p.family_name for p in Player.objects.all()]
    assert got == [
        "Abel",
        "Ärmel",
        "Müller",
        "Ober",
        "Öhler",
        "Straub",
        "Strauß",
        "Strauss",
        "Zander",
    ]


def test_player_list_sorts_and_filters_by_part_of_name_or_number(client, superuser):
    PlayerFactory(family_name="Müller", given_name="Jörg", player_number="HDK-0042")
    PlayerFactory(family_name="Mai", given_name="Anna", player_number="KBF-0007")
    client.force_login(superuser)
    url = reverse("clubs:player_list")
    for query in ["mül", "Muller", "0042", "hdk", "jörg müller"]:
        rows = client.get(url, {"name": query}).context["table"].rows
        assert [r.record.family_name for r in rows] == ["Müller"], query
    rows = client.get(url, {"sort": "-family_name"}).context["table"].rows
    assert [r.record.family_name for r in rows] == ["Müller", "Mai"]
