"""The federation JSON (issue 27, point 5): public rankings only, names, clubs and results
only, hidden players without name or id, cached per snapshot with ETag, 304 and a constant
small number of queries."""

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import UserFactory
from tests.federation.public_helpers import build, leaked, snapshot

pytestmark = pytest.mark.django_db

PRIVATE_KEYS = ("birth_year", "player_number", "pin", "regions")


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.fixture
def client():
    from django.test import Client

    return Client(HTTP_ACCEPT_LANGUAGE="de")


@pytest.fixture
def fed(national, region_a, region_b, club_a, club_b, affiliation_a, affiliation_b):
    return build(national, region_a, region_b, club_a, club_b)


def url(fed, **query):
    base = reverse("federation_api:ranking", args=[fed["ranking"].pk])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def get_json(client, address, **headers):
    response = client.get(address, **headers)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/json"
    return response, json.loads(response.content)


def assert_no_private_data(response):
    body = response.content.decode()
    assert not leaked(body)
    for key in PRIVATE_KEYS:
        assert f'"{key}"' not in body, key


def test_the_index_lists_public_rankings(client, fed, region_a, region_b):
    response, data = get_json(client, reverse("federation_api:rankings"))
    assert [r["name"] for r in data["rankings"]] == ["Deutsche Rangliste"]
    ranking = data["rankings"][0]
    assert ranking["snapshot"]["number"] == 1 and ranking["url"] == url(fed)
    assert {r["id"] for r in ranking["regions"]} == {region_a.pk, region_b.pk}
    assert "public" in response["Cache-Control"]
    again = client.get(reverse("federation_api:rankings"), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_the_list_shows_names_clubs_points_and_hides_hidden_players(client, fed):
    response, data = get_json(client, url(fed))
    assert data["ranking"]["name"] == "Deutsche Rangliste" and data["snapshot"]["number"] == 1
    lines = data["lines"]
    assert [line["rank"] for line in lines] == [1, 2, 2, None]
    anna, clara, bernd, dora = lines
    assert anna == {
        "rank": 1, "value": "40.5", "listed": True, "events_counted": 3, "best": "29",
        "hidden": False, "player": fed["anna"].pk, "name": "Anna Albrecht", "club": "HDK",
    }  # fmt: skip
    assert clara["hidden"] and clara["name"] is None and clara["player"] is None
    assert clara["club"] is None and clara["value"] == "30"
    assert bernd["name"] == "Bernd Becker"
    assert not dora["listed"] and dora["reason"]
    assert_no_private_data(response)
    assert "Claussen" not in response.content.decode()


def test_a_regional_list(client, fed, region_a, region_b):
    _response, data = get_json(client, url(fed, region=region_b.pk))
    assert data["region"] == region_b.pk
    assert [(x["name"], x["rank"], x["region_rank"]) for x in data["lines"]] == [
        ("Bernd Becker", 2, 1),
        ("Dora Dietz", None, None),
    ]
    _response, data = get_json(client, url(fed, region=region_a.pk))
    assert [x["region_rank"] for x in data["lines"]] == [1, 2]  # Anna, then hidden Clara


def test_bad_regions_and_private_rankings(client, fed, national):
    response = client.get(url(fed, region="abc"))
    assert response.status_code == 400
    assert "Landesverband" in json.loads(response.content)["error"]
    assert client.get(url(fed, region=national.pk)).status_code == 404
    private = reverse("federation_api:ranking", args=[fed["private"].pk])
    assert client.get(private).status_code == 404
    player = reverse("federation_api:player", args=[fed["private"].pk, fed["anna"].pk])
    assert client.get(player).status_code == 404


def test_a_player_with_results(client, fed):
    address = reverse("federation_api:player", args=[fed["ranking"].pk, fed["anna"].pk])
    response, data = get_json(client, address)
    assert data["player"]["name"] == "Anna Albrecht" and data["player"]["rank"] == 1
    assert [(r["event_name"], r["points"], r["counted"]) for r in data["results"]] == [
        ("Frühjahrsturnier Kassel", "12", True),
        ("Herbstpokal Fulda", "29", True),
        ("Herbstpokal Fulda", "1.5", False),
    ]
    assert data["results"][2]["reason"]
    assert_no_private_data(response)
    hidden = reverse("federation_api:player", args=[fed["ranking"].pk, fed["clara"].pk])
    assert client.get(hidden).status_code == 404
    unknown = reverse("federation_api:player", args=[fed["ranking"].pk, 99999])
    assert client.get(unknown).status_code == 404


def test_etag_304_and_cache_control(client, fed):
    response, _data = get_json(client, url(fed))
    etag = response["ETag"]
    assert etag and response["Cache-Control"] == "public, max-age=5"
    again = client.get(url(fed), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    region = client.get(url(fed, region=fed["lines"][0]["regions"][0]))
    assert region["ETag"] != etag  # the region is part of the key
    snapshot(fed["ranking"], fed["lines"][:1])
    fresh = client.get(url(fed), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    assert len(json.loads(fresh.content)["lines"]) == 1


def test_a_cached_answer_reads_one_row_and_not_the_snapshot(client, fed, django_assert_num_queries):
    first, _data = get_json(client, url(fed))
    with django_assert_num_queries(1) as context:
        second, _data = get_json(client, url(fed))
    assert "lines" not in context.captured_queries[0]["sql"]
    assert second.content == first.content and second["ETag"] == first["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url(fed), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    page = reverse("federation_public:ranking", args=[fed["ranking"].pk])
    client.get(page)
    with django_assert_num_queries(1):
        assert client.get(page).status_code == 200
    card = reverse("federation_api:player", args=[fed["ranking"].pk, fed["anna"].pk])
    client.get(card)
    with django_assert_num_queries(1):
        assert client.get(card).status_code == 200


def test_a_gzip_reader_gets_the_compressed_form(client, fed):
    response = client.get(url(fed), HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip" and response["ETag"].endswith('-gz"')


def test_a_logged_in_reader_gets_a_private_uncached_answer(client, fed):
    client.force_login(UserFactory(username="leser"))
    response, data = get_json(client, url(fed))
    assert "private" in response["Cache-Control"] and "ETag" not in response
    assert data["lines"][1]["name"] is None  # hidden for everyone on the public JSON
