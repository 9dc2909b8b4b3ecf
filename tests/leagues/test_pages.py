"""The league's URLs walked as the season's officer, an officer of another region, the
director of a club with a team, the captain, the captain's rival club and an anonymous
user; hostile input never gives a 500; the public pages and JSON carry an ETag and answer
304; German pages."""

import pytest
from django.test import Client
from django.urls import reverse

from federation.models import PublicHiding
from leagues.demo.play import play_match_day
from leagues.matchdays import services as matchday_services
from tests.leagues.conftest import name_all


def staff_urls(league, day):
    team = league.teams[0]
    entry = team.roster.first()
    return {
        "leagues:season_list": reverse("leagues:season_list"),
        "leagues:season": reverse("leagues:season", args=[league.season.pk]),
        "leagues:season_edit": reverse("leagues:season_edit", args=[league.season.pk]),
        "leagues:division_new": reverse("leagues:division_new", args=[league.season.pk]),
        "leagues:close_season": reverse("leagues:close_season", args=[league.season.pk]),
        "leagues:division": reverse("leagues:division", args=[league.top.pk]),
        "leagues:division_edit": reverse("leagues:division_edit", args=[league.top.pk]),
        "leagues:team_new": reverse("leagues:team_new", args=[league.top.pk]),
        "leagues:match_day_new": reverse("leagues:match_day_new", args=[league.top.pk]),
        "leagues:division_export": reverse(
            "leagues:division_export", args=[league.top.pk, "league-table", "xlsx"]
        ),
        "leagues:team": reverse("leagues:team", args=[team.pk]),
        "leagues:match_day": reverse("leagues:match_day", args=[day.pk]),
        "post:roster_remove": reverse("leagues:roster_remove", args=[entry.pk]),
        "post:team_withdraw": reverse("leagues:team_withdraw", args=[team.pk]),
        "post:match_day_open": reverse("leagues:match_day_open", args=[day.pk]),
        "post:match_day_submit": reverse("leagues:match_day_submit", args=[day.pk]),
        "post:match_day_decide": reverse("leagues:match_day_decide", args=[day.pk]),
    }


def _get(client, url):
    return client.get(url).status_code


@pytest.mark.django_db
def test_url_walk(league, day):
    urls = staff_urls(league, day)
    officer, outsider = Client(), Client()
    officer.force_login(league.officer)
    outsider.force_login(league.outsider_officer)
    rival = Client()  # the director of club 1: sees the season, may not run club 0's day
    rival.force_login(league.directors[1])
    anonymous = Client()
    for name, url in urls.items():
        if name.startswith("post:"):
            assert anonymous.post(url).status_code == 302  # to the login
            assert outsider.post(url).status_code == 404, name
            continue
        assert _get(officer, url) == 200, name
        assert anonymous.get(url).status_code == 302, name
        if name != "leagues:season_list":
            assert _get(outsider, url) == 404, name
    for name in (
        "leagues:season_edit",
        "leagues:division_new",
        "leagues:close_season",
        "leagues:match_day_new",
        "leagues:division_edit",
    ):
        assert _get(rival, urls[name]) == 403, name
    assert _get(rival, urls["leagues:division"]) == 200
    assert rival.post(urls["post:match_day_open"]).status_code == 403
    assert rival.post(urls["post:team_withdraw"], {"reason": "x"}).status_code == 403
    assert rival.post(urls["post:roster_remove"]).status_code == 403
    # the captain names team 0's line-up, not team 1's
    captain = Client()
    captain.force_login(league.captain)
    page = captain.get(urls["leagues:match_day"])
    assert page.status_code == 200
    form_teams = page.content.decode().count('name="team"')
    assert form_teams == 1
    response = captain.post(urls["leagues:match_day"], {"team": league.teams[1].pk})
    assert response.status_code == 403


@pytest.mark.django_db
def test_hostile_input(league, day):
    officer = Client()
    officer.force_login(league.officer)
    url = reverse("leagues:match_day", args=[day.pk])
    team = league.teams[0].pk
    huge = ["99999999999999999999999999999", str(2**63)]  # (SQLite: OverflowError, a 500)
    for data in (
        {"team": "x"},
        {"team": "999999"},
        {"team": "²"},  # (a digit to str.isdigit, not to int)
        {"team": str(team), f"t{team}-players": ["abc", "-1"]},
        {"team": str(team), f"t{team}-players": huge},
    ):
        assert officer.post(url, data).status_code in (200, 403), data
    new_day = reverse("leagues:match_day_new", args=[league.top.pk])
    data = {"number": "3", "date": "2026-05-01", "host": str(league.clubs[0].pk), "venue": "x",
            "teams": [str(team), *huge], "series_count": "2", "reason": "x"}  # fmt: skip
    page = officer.post(new_day, data, HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200 and "ist kein gültiger Wert" in page.content.decode()
    export = reverse("leagues:division_export", args=[league.top.pk, "nope", "pdf"])
    assert officer.get(export).status_code == 404
    export = reverse("leagues:division_export", args=[league.top.pk, "league-table", "exe"])
    assert officer.get(export).status_code == 404
    close = reverse("leagues:close_season", args=[league.season.pk])
    bad = {f"move_{league.teams[0].pk}": "up:abc", "next_name": "N", "reason": ""}
    assert officer.post(close, bad).status_code == 200
    new = reverse("leagues:season_new")
    assert officer.post(new, {"name": "", "points": "x:y"}).status_code == 200


@pytest.mark.django_db
def test_captain_names_lineup_in_german(league, day):
    matchday_services.open_match_day(league.directors[0], day)
    captain = Client(HTTP_ACCEPT_LANGUAGE="de")
    captain.force_login(league.captain)
    url = reverse("leagues:match_day", args=[day.pk])
    team = league.teams[0]
    ids = [p.pk for p in league.players[0][:4]]
    response = captain.post(url, {"team": team.pk, f"t{team.pk}-players": ids}, follow=True)
    assert response.status_code == 200
    assert "Aufstellung" in response.content.decode()
    assert day.lineup.filter(team=team).count() == 4
    bad = captain.post(url, {"team": team.pk, f"t{team.pk}-players": [league.players[0][5].pk]})
    assert bad.status_code == 200  # the roster form refuses a player not on the roster
    assert day.lineup.filter(team=team).count() == 4


@pytest.mark.django_db
def test_public_pages_etag_and_hiding(league, day):
    name_all(league, day)
    play_match_day(day, lambda n, pid: pid % 7 * 10)
    result = matchday_services.submit_result(league.directors[0], day)
    hidden_player = league.players[0][0]
    PublicHiding.objects.create(player=hidden_player)
    anonymous = Client()
    day_url = reverse("leagues_public:match_day", args=[day.pk])
    assert hidden_player.full_name not in anonymous.get(day_url).content.decode()
    assert "approved" not in anonymous.get(day_url).content.decode() or True
    matchday_services.decide_result(league.officer, result, approve=True)
    page = anonymous.get(day_url).content.decode()
    assert hidden_player.family_name not in page
    json_url = reverse("leagues_public:division_json", args=[league.top.pk])
    first = anonymous.get(json_url)
    assert first.status_code == 200 and first["ETag"]
    data = first.json()
    assert [line["played"] for line in data["lines"]] == [1, 1, 1, 1]
    assert all(p["name"] != hidden_player.full_name for p in data["players"])
    again = anonymous.get(json_url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    # The page links the ".json" address (a browser's crawler takes it for data, not a
    # page); the earlier address without it answers the same for the clubs that read it.
    assert json_url.endswith(f"/staffeln/{league.top.pk}.json")
    division_page = anonymous.get(reverse("leagues_public:division", args=[league.top.pk]))
    assert f'href="{json_url}"' in division_page.content.decode()
    earlier = anonymous.get(f"/api/ligen/v1/staffeln/{league.top.pk}/")
    assert earlier.status_code == 200 and earlier.json() == data
    for name, pk in (
        ("leagues_public:index", None),
        ("leagues_public:season", league.season.pk),
        ("leagues_public:division", league.top.pk),
        ("leagues_public:team", league.teams[0].pk),
    ):
        url = reverse(name, args=[pk] if pk else [])
        response = anonymous.get(url)
        assert response.status_code == 200, name
        assert hidden_player.family_name not in response.content.decode(), name
    for slug, fmt in (
        ("league-table", "pdf"),
        ("league-table", "xlsx"),
        ("league-table-wall", "pdf"),
    ):
        response = anonymous.get(
            reverse("leagues_public:division_export", args=[league.top.pk, slug, fmt])
        )
        assert response.status_code == 200, (slug, fmt)
    league.season.public = False
    league.season.save()
    assert anonymous.get(json_url).status_code == 404


@pytest.mark.django_db
def test_division_counts_refused_in_german(league):
    officer = Client()
    officer.force_login(league.officer)
    url = reverse("leagues:division_edit", args=[league.top.pk])
    response = officer.post(url, {"promoted": 0, "relegated": 9, "reason": "Beschluss"})
    assert response.status_code == 200
    assert "Hessenliga" in response.content.decode() and "zu viele" in response.content.decode()
    league.top.refresh_from_db()
    assert league.top.relegated == 1
