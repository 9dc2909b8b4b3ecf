"""The members' ranking list and player card: a list computed by the real rules, the
regional list ranked again by the rules, who may read it, query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from federation.lists.selectors import ranking_list, regional
from federation.models import PublicHiding
from tests.federation.list_helpers import computed_world, hand_lines, hand_snapshot

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def world(national, region_a, region_b, affiliation_a, affiliation_b, club_a, club_b):
    return computed_world(national, club_a, club_b)


def rows(page):
    return [(ln["name"], ln["rank"], ln["value"]) for ln in page.listed]


def test_the_computed_snapshot_is_in_the_documented_format(world):
    line = world["snapshot"].lines[0]
    assert set(line) >= {"player", "name", "club", "regions", "rank", "value", "listed",
                         "hidden", "events_counted", "best", "reason", "results"}  # fmt: skip
    assert set(line["results"][0]) >= {"version", "event", "event_name", "date", "place",
                                       "field", "points", "counted", "reason"}  # fmt: skip


def test_national_list_from_the_rules(world, superuser):
    with translation.override("de"):
        page = ranking_list(superuser, world["ranking"])
    assert rows(page) == [
        ("Anna Albrecht", 1, "11.00"), ("Bernd Becker", 2, "10.00"),
        ("Arno Adler", 3, "8.00"), ("Alma Arndt", 4, "5.00"), ("Berta Brandt", 4, "5.00"),
    ]  # fmt: skip
    anna = page.listed[0]
    assert anna["results_text"] == "5,00 · 6,00 · (4,00)"
    assert [ln["name"] for ln in page.unlisted] == ["Dora Dietz"]
    assert page.unlisted[0]["reason_text"] == "weniger Veranstaltungen als das Minimum"


def test_the_officers_ranking_page_shows_the_numbers_as_the_list_does(
    client, world, national_officer
):
    """The ranking's own page showed "11.00" and "5.00 · 6.00 (4.00)" in German while the
    members' list beside it showed "11,00" and "5,00 · 6,00 · (4,00)"."""
    client.force_login(national_officer)
    ranking = world["ranking"]
    text = client.get(reverse("federation:ranking_detail", args=[ranking.pk]), **DE)
    text = text.content.decode()
    assert "11,00" in text and "5,00 · 6,00 · (4,00)" in text
    assert "11.00" not in text and "6.00" not in text
    english = client.get(
        reverse("federation:ranking_detail", args=[ranking.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "5.00 · 6.00 · (4.00)" in english


def test_regional_lists_are_ranked_again(world, superuser, region_a, region_b):
    a = ranking_list(superuser, world["ranking"], region_a.pk)
    assert rows(a) == [("Anna Albrecht", 1, "11.00"), ("Arno Adler", 2, "8.00"),
                       ("Alma Arndt", 3, "5.00")]  # fmt: skip
    assert [ln["national_rank"] for ln in a.listed] == [1, 3, 4]
    b = ranking_list(superuser, world["ranking"], str(region_b.pk))
    assert rows(b) == [("Bernd Becker", 1, "10.00"), ("Berta Brandt", 2, "5.00")]
    assert [ln["name"] for ln in b.unlisted] == ["Dora Dietz"]


def test_shared_ranks_stay_shared_in_a_region(region_a):
    def ln(player, rank, regions=(1,)):
        return {"player": player, "rank": rank, "value": "5", "listed": True, "hidden": False,
                "regions": list(regions)}  # fmt: skip

    lines = [ln(1, 1, (2,)), ln(2, 2), ln(3, 2), ln(4, 4), ln(5, 5, (2,)), ln(6, 5)]
    assert [(x["player"], x["rank"]) for x in regional(lines, 1)] == [
        (2, 1),
        (3, 1),
        (4, 3),
        (6, 4),
    ]


def test_the_page_in_german(client, world, national_officer, region_a):
    client.force_login(national_officer)
    url = reverse("federation:ranking_lines", args=[world["ranking"].pk])
    text = client.get(url, **DE).content.decode()
    for expected in ("Anna Albrecht", "11,00", "(4,00)", "Nicht gelistet", "Dora Dietz",
                     "Landesverband Hessen"):  # fmt: skip
        assert expected in text, expected
    regional_page = client.get(url, {"region": region_a.pk}, **DE).content.decode()
    assert "Bernd Becker" not in regional_page and "Arno Adler" in regional_page
    assert client.get(url, {"region": 999999}).status_code == 404
    assert client.get(url, {"region": "abc"}).status_code == 404
    by_name = client.get(url, {"sort": "name"}).content.decode()
    assert by_name.index("Alma Arndt") < by_name.index("Anna Albrecht") < by_name.index("Arno")


def test_a_hidden_player_is_shown_with_a_marker(client, world, national_officer):
    PublicHiding.objects.create(player=world["arno"], reason="Wunsch")
    from federation.rankings import compute

    compute.recompute(world["ranking"], "hidden")
    client.force_login(national_officer)
    text = client.get(
        reverse("federation:ranking_lines", args=[world["ranking"].pk]), **DE
    ).content.decode()
    assert "Arno Adler" in text and "nicht öffentlich" in text


def test_who_may_read_the_list(
    client, world, officer_a, viewer_region_a, national_officer, organiser_a, region_a
):
    from tests.federation.status_helpers import make_ranking

    regional_ranking = make_ranking(region_a, "Hessen")
    hand_snapshot(regional_ranking, [])
    national = reverse("federation:ranking_lines", args=[world["ranking"].pk])
    hessen = reverse("federation:ranking_lines", args=[regional_ranking.pk])
    assert client.get(national).status_code == 302  # anonymous: to the login
    assert "/login" in client.get(national)["Location"] or "login" in client.get(national).url
    client.force_login(officer_a)  # a regional officer sees no national list here
    assert client.get(national).status_code == 404
    assert client.get(hessen).status_code == 200
    client.force_login(viewer_region_a)
    assert client.get(hessen).status_code == 200
    client.force_login(organiser_a)
    assert client.get(hessen).status_code == 404
    client.force_login(national_officer)
    assert client.get(hessen).status_code == 200 and client.get(national).status_code == 200


def test_officer_of_another_region_is_refused(client, officer_b, region_a):
    from tests.federation.status_helpers import make_ranking

    ranking = make_ranking(region_a, "Hessen")
    hand_snapshot(ranking, [])
    client.force_login(officer_b)
    assert client.get(reverse("federation:ranking_lines", args=[ranking.pk])).status_code == 404


def _count(client, url):
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    assert answer.status_code == 200
    return len(queries)


def test_query_count_does_not_grow_with_the_lines(
    client, superuser, national, region_a, region_b, member_a, member_b
):
    from tests.federation.status_helpers import make_ranking

    small, large = make_ranking(national, "Klein"), make_ranking(national, "Groß")
    hand_snapshot(small, hand_lines(5, region_a, region_b, [member_a, member_b]))
    hand_snapshot(large, hand_lines(400, region_a, region_b, [member_a, member_b]))
    client.force_login(superuser)
    for region in ("", f"?region={region_a.pk}"):
        urls = [reverse("federation:ranking_lines", args=[r.pk]) + region for r in (small, large)]
        assert _count(client, urls[0]) == _count(client, urls[1])


def test_player_card(client, world, national_officer):
    client.force_login(national_officer)
    url = reverse("federation:player_card", args=[world["ranking"].pk, world["anna"].pk])
    answer = client.get(url, **DE)
    text = answer.content.decode()
    card = answer.context["card"]
    assert card.line["rank"] == 1
    assert [r["event_name"] for r in card.line["results"]] == [
        "Sommerturnier Kassel", "Pokal Fulda", "Frühjahrsturnier Kassel"
    ]  # fmt: skip
    assert [o.event_name for o in card.official] == [
        "Sommerturnier Kassel", "Pokal Fulda", "Frühjahrsturnier Kassel"
    ]  # fmt: skip
    assert "(4,00)" in text and "01.03.2025" in text and "Alle offiziellen Ergebnisse" in text
    dora = reverse("federation:player_card", args=[world["ranking"].pk, world["dora"].pk])
    assert "nicht gelistet" in client.get(dora, **DE).content.decode().lower()
    unknown = reverse("federation:player_card", args=[world["ranking"].pk, 987654])
    assert client.get(unknown).status_code == 404


def test_player_card_queries_constant(client, superuser, world):
    client.force_login(superuser)
    ranking = world["ranking"]
    small = _count(client, reverse("federation:player_card", args=[ranking.pk, world["dora"].pk]))
    large = _count(client, reverse("federation:player_card", args=[ranking.pk, world["anna"].pk]))
    assert small == large
