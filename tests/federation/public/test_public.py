"""The public federation pages (issue 27, point 6): anonymous, German, public rankings only,
names, clubs and results only; hidden players as "nicht öffentlich" without a card."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import UserFactory
from tests.federation.public_helpers import TODAY, build, leaked, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.fixture
def client():
    """An anonymous visitor whose browser asks for German."""
    from django.test import Client

    return Client(HTTP_ACCEPT_LANGUAGE="de")


@pytest.fixture
def fed(national, region_a, region_b, club_a, club_b, affiliation_a, affiliation_b):
    return build(national, region_a, region_b, club_a, club_b)


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def assert_private_data_absent(body: str):
    assert not leaked(body)


def ranking_url(fed, **query):
    url = reverse("federation_public:ranking", args=[fed["ranking"].pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_index_lists_public_rankings_only_in_german(client, fed, region_a):
    body = text(client.get(reverse("federation_public:index")))
    assert "Ranglisten" in body and "Deutsche Rangliste" in body
    assert "Interne Liste" not in body
    assert f"?region={region_a.pk}" in body and "LV HE" in body


def test_the_ranking_list_shows_names_clubs_and_points_only(client, fed):
    response = client.get(ranking_url(fed))
    body = text(response)
    assert "Anna Albrecht" in body and "Bernd Becker" in body and "HDK" in body
    assert "40,5" in body  # a German decimal on the page
    assert "Platz" in body and "Punkte" in body and "Gewertete Turniere" in body
    assert_private_data_absent(body)
    assert "Cookie" not in response.get("Vary", "") and not response.cookies
    assert "public" in response["Cache-Control"]


def test_a_hidden_player_keeps_the_rank_without_name_or_card(client, fed):
    body = text(client.get(ranking_url(fed)))
    assert "Clara" not in body and "Claussen" not in body and "nicht öffentlich" in body
    row = body.split("nicht öffentlich")[0].rsplit("<tr", 1)[1]
    assert '<td class="num">2</td>' in row  # the rank is kept, shared with Bernd
    card = reverse("federation_public:card", args=[fed["ranking"].pk, fed["clara"].pk])
    assert client.get(card).status_code == 404
    assert card not in body


def test_an_unlisted_player_is_shown_below_with_the_reason(client, fed):
    body = text(client.get(ranking_url(fed)))
    assert body.index("Anna Albrecht") < body.index("Bernd Becker") < body.index("Dora Dietz")
    assert "weniger Veranstaltungen als das Minimum" in body


def test_a_regional_list_shows_its_region_with_regional_ranks(client, fed, region_a, region_b):
    body = text(client.get(ranking_url(fed, region=region_b.pk)))
    assert "Bernd Becker" in body and "Anna Albrecht" not in body
    assert "Platz im Landesverband" in body
    row = body.split("Bernd Becker")[0].rsplit("<tr", 1)[1]
    assert row.count('<td class="num">1</td>') == 1  # region 1, national 2 (a tap away on a phone)
    assert '<td class="num detail">2</td>' in row
    body_a = text(client.get(ranking_url(fed, region=region_a.pk)))
    assert "Anna Albrecht" in body_a and "Bernd Becker" not in body_a


def test_unknown_regions_and_private_rankings_answer_404(client, fed, national):
    assert client.get(ranking_url(fed, region=national.pk)).status_code == 404
    assert client.get(ranking_url(fed, region="abc")).status_code == 404
    private = reverse("federation_public:ranking", args=[fed["private"].pk])
    assert client.get(private).status_code == 404
    card = reverse("federation_public:card", args=[fed["private"].pk, fed["anna"].pk])
    assert client.get(card).status_code == 404
    assert client.get(reverse("federation_public:ranking", args=[99999])).status_code == 404


def test_a_ranking_without_snapshot_says_so(client, national):
    from federation.models import Ranking

    ranking = Ranking.objects.create(association=national, name="Neue Liste")
    body = text(client.get(reverse("federation_public:ranking", args=[ranking.pk])))
    assert "noch nicht berechnet" in body


def test_the_card_shows_results_with_dropped_ones_in_brackets(client, fed):
    url = reverse("federation_public:card", args=[fed["ranking"].pk, fed["anna"].pk])
    body = text(client.get(url))
    assert "Anna Albrecht" in body and "Frühjahrsturnier Kassel" in body
    assert "(1,5)" in body and '<td class="num">29</td>' in body
    assert fed["past"].start_date.strftime("%d.%m.%Y") in body
    assert_private_data_absent(body)
    missing = reverse("federation_public:card", args=[fed["ranking"].pk, 99999])
    assert client.get(missing).status_code == 404


def test_a_new_snapshot_is_shown_at_once(client, fed):
    assert "Anna Albrecht" in text(client.get(ranking_url(fed)))
    lines = [dict(fed["lines"][2], rank=1)]
    snapshot(fed["ranking"], lines)
    body = text(client.get(ranking_url(fed)))
    assert "Anna Albrecht" not in body and "Bernd Becker" in body


def test_logged_in_readers_get_a_private_page(client, fed):
    client.force_login(UserFactory(username="leser"))
    response = client.get(ranking_url(fed))
    body = text(response)
    assert "leser" in body and "Anna Albrecht" in body
    assert "private" in response["Cache-Control"]


def test_the_calendar_lists_sanctioned_events_of_public_rankings(client, fed):
    body = text(client.get(reverse("federation_public:calendar")))
    assert "Kalender" in body
    assert "Sommercup Fulda" in body and "Frühjahrsturnier Kassel" in body
    assert "Nur beantragt" not in body and "Interner Abend" not in body
    upcoming, past = body.split("Vergangene")
    assert "Sommercup Fulda" in upcoming and "Frühjahrsturnier Kassel" in past
    assert "Deutsche Rangliste" in upcoming


def archive(client, **query):
    return text(client.get(reverse("federation_public:archive"), query))


def test_the_archive_lists_approved_events_and_links_public_results(client, fed):
    body = archive(client)
    assert "Frühjahrsturnier Kassel" in body and "Herbstpokal Fulda" in body
    assert "Sommercup Fulda" not in body
    assert reverse("standings:public", args=[fed["past"].pk]) in body  # a published series
    assert reverse("standings:public", args=[fed["older"].pk]) not in body


@pytest.mark.parametrize(
    ("query", "found", "not_found"),
    [
        ({"name": "herbst"}, "Herbstpokal", "Frühjahrsturnier"),
        ({"year": str((TODAY - dt.timedelta(60)).year)}, "Frühjahrs", "Herbst"),
        ({"player": "bernd"}, "Herbstpokal", "Frühjahrsturnier"),
        ({"player": "dora dietz"}, "Frühjahrsturnier", "Herbstpokal"),
    ],
)
def test_the_archive_search(client, fed, query, found, not_found):
    body = archive(client, **query)
    assert found in body and not_found not in body


def test_the_archive_searches_by_club(client, fed, club_b):
    body = archive(client, club=club_b.pk)
    assert "Herbstpokal" in body and "Frühjahrsturnier" not in body


def test_the_archive_never_finds_a_hidden_player_or_a_number(client, fed):
    assert "Frühjahrsturnier" not in archive(client, player="Claussen")
    assert "Frühjahrsturnier" not in archive(client, player="GEHEIM-A1")


def test_bad_search_input_gets_a_german_message(client, fed):
    body = archive(client, year="zweitausend")
    assert "Jahr" in body and "Zahl" in body
    assert client.get(reverse("federation_public:archive"), {"page": "x"}).status_code == 200
    assert client.get(ranking_url(fed, page="999")).status_code == 200


def test_the_public_pages_are_readable_in_english_too(client, fed):
    body = text(client.get(ranking_url(fed, lang="en")))
    assert "not public" in body and "Points" in body and "40.5" in body
