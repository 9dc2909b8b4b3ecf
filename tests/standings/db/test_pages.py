"""Standings pages, the public page, the display, the JSON API, the player and season pages."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.standings import selectors
from tournaments.models import Series
from tournaments.results import bump_results_version

from .conftest import director, generated

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club_a):
    """Two series; series 2 is confirmed but not published."""
    event = generated(club_a, 12, series=2, rounds=1, pairs=2, teams=1)
    Series.objects.filter(event=event, number=2).update(published=False)
    return event


def _published_totals(event):
    return {
        r.participant_id: r.total for r in selectors.event_standing(event, only_published=True).rows
    }


def test_public_page_and_api_never_show_unpublished_series(client, event):
    page = client.get(reverse("standings:public", args=[event.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Series 2" not in text and "S2" not in text
    published = _published_totals(event)
    everything = {
        r.participant_id: r.total
        for r in selectors.event_standing(event, only_published=False).rows
    }
    assert published != everything
    data = client.get(reverse("standings:api", args=[event.pk])).json()
    assert data["series_counted"] == [1]
    assert {r["player"]["participant_id"]: r["total"] for r in data["rows"]} == published
    assert client.get(reverse("standings:api", args=[event.pk]) + "?series=2").status_code == 404
    assert (
        client.get(reverse("standings:api", args=[event.pk]) + "?provisional=1").status_code == 403
    )
    display = client.get(reverse("standings:display", args=[event.pk]))
    assert display.status_code == 200
    assert "display.js" in display.content.decode()
    # Unpublished entirely: nothing on the public pages.
    # (a raw write: services raise the results version themselves, here it is done by hand)
    with transaction.atomic():
        Series.objects.filter(event=event).update(published=False)
        bump_results_version(event.pk)
    assert client.get(reverse("standings:api", args=[event.pk])).json()["rows"] == []
    assert (
        "No series has been published yet."
        in client.get(
            reverse("standings:public", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
    )


def test_json_api_shape(client, event, club_a):
    url = reverse("standings:api", args=[event.pk])
    data = client.get(url + "?competition=individual&series=1").json()
    assert set(data) == {
        "event", "competition", "series", "series_counted", "provisional", "chain", "lots_seed",
        "rows", "ties", "incomplete_series",
    }  # fmt: skip
    assert data["ties"]["policy"] == "chain"
    assert data["series"] == 1 and data["competition"] == "individual"
    row = data["rows"][0]
    assert set(row) == {
        "rank", "total", "tie_break", "provisional", "disqualified", "reason", "player",
    }  # fmt: skip
    assert row["disqualified"] is False
    assert set(row["player"]) == {"id", "participant_id", "name", "club"}
    assert row["rank"] == 1 and row["provisional"] is False
    assert "hands_won" in row["tie_break"] and "total" not in row["tie_break"]
    pairs = client.get(url + "?competition=pair").json()
    assert len(pairs["rows"]) == 2
    assert set(pairs["rows"][0]["group"]) == {"id", "name", "members"}
    assert len(pairs["rows"][0]["group"]["members"]) == 2
    assert client.get(url + "?competition=nope").status_code == 400
    # The director sees unpublished series and may ask for provisional data.
    client.force_login(director(club_a))
    mine = client.get(url + "?provisional=1").json()
    assert mine["series_counted"] == [1, 2]


def test_standings_page_for_the_director(client, event, club_a):
    client.force_login(director(club_a))
    url = reverse("standings:event", args=[event.pk])
    for query in (
        "",
        "?competition=pair",
        "?competition=team&scope=series&n=2",
        "?scope=day&n=1",
        "?provisional=1",
        f"?club={club_a.pk}",
        "?sort=-total",
    ):
        page = client.get(url + query, HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 200, query
    text = page.content.decode()
    assert "Publish" in text and "Ahead because" in text
    series2 = Series.objects.get(event=event, number=2)
    client.post(reverse("standings:series_publish", args=[series2.pk]), {"published": "1"})
    series2.refresh_from_db()
    assert series2.published


def test_publishing_a_series_with_open_tables_asks_once_more(client, event, club_a, viewer_a):
    """Its players without a confirmed sheet would stand on the public pages without it."""
    from scoring.models import Sheet

    series2 = Series.objects.get(event=event, number=2)
    open_numbers = sorted(series2.tables.values_list("number", flat=True))[1:3]
    Sheet.objects.filter(table__series=series2, table__number=open_numbers[0]).update(
        status="entered"
    )
    Sheet.objects.filter(table__series=series2, table__number=open_numbers[1]).delete()
    url = reverse("standings:series_publish", args=[series2.pk])
    back = reverse("standings:event", args=[event.pk])
    client.force_login(viewer_a)
    assert client.post(url, {"published": "1"}).status_code == 403  # (nothing told)
    client.force_login(director(club_a))
    page = client.post(url, {"published": "1", "next": back}, HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert page.status_code == 200 and "Serie 2 veröffentlichen?" in text
    tables = ", ".join(str(n) for n in open_numbers)
    assert f"An den Tischen {tables} sind die Spiellisten noch nicht bestätigt" in text
    assert 'name="open_tables" value="ok"' in text and f'href="{back}"' in text
    series2.refresh_from_db()
    assert not series2.published
    response = client.post(url, {"published": "1", "open_tables": "ok", "next": back})
    assert response.status_code == 302 and response["Location"] == back
    series2.refresh_from_db()
    assert series2.published
    # Taking it back, and a series whose every sheet is confirmed, ask nothing.
    assert client.post(url, {"published": "0"}).status_code == 302
    series1 = Series.objects.get(event=event, number=1)
    Series.objects.filter(pk=series1.pk).update(published=False)
    one = reverse("standings:series_publish", args=[series1.pk])
    assert client.post(one, {"published": "1"}).status_code == 302
    series1.refresh_from_db()
    assert series1.published


def test_a_series_published_with_open_tables_is_marked_not_final_everywhere(client, event, club_a):
    """The public page, the display, the JSON and the director's page say which series
    still has tables without points, and how many; none of them once every sheet counts."""
    from scoring.models import Sheet

    series2 = Series.objects.get(event=event, number=2)
    tables = series2.tables.count()
    first, second = sorted(series2.tables.values_list("number", flat=True))[1:3]
    Sheet.objects.filter(table__series=series2, table__number=first).update(status="entered")
    Sheet.objects.filter(table__series=series2, table__number=second).update(status="draft")
    boss = director(club_a)
    client.force_login(boss)
    publish = reverse("standings:series_publish", args=[series2.pk])
    assert client.post(publish, {"published": "1", "open_tables": "ok"}).status_code == 302
    client.logout()
    de = {"HTTP_ACCEPT_LANGUAGE": "de"}
    text = client.get(reverse("standings:public", args=[event.pk]), **de).content.decode()
    assert "Noch nicht endgültig:" in text
    assert (
        f"Serie 2: An 2 von {tables} Tischen sind die Spiellisten noch nicht bestätigt; "
        "wer dort spielt, hat für diese Serie noch keine Punkte." in text
    )
    assert "Serie 1:" not in text
    display = client.get(reverse("standings:display", args=[event.pk]), **de).content.decode()
    assert f"vorläufig: S2: 2 von {tables} Tischen offen" in display
    data = client.get(reverse("standings:api", args=[event.pk])).json()
    assert data["incomplete_series"] == [{"number": 2, "open_tables": 2, "tables": tables}]
    one = client.get(reverse("standings:api", args=[event.pk]) + "?series=1").json()
    assert one["incomplete_series"] == []
    # The director's provisional view counts the entered sheet: one table has none.
    client.force_login(boss)
    page = client.get(reverse("standings:event", args=[event.pk]) + "?provisional=1", **de)
    assert (
        f"Serie 2: An 1 von {tables} Tischen ist noch keine Spielliste erfasst"
        in page.content.decode()
    )
    # Every sheet confirmed again: no note anywhere.
    Sheet.objects.filter(table__series=series2).update(status="confirmed")
    with transaction.atomic():
        bump_results_version(event.pk)
    client.logout()
    text = client.get(reverse("standings:public", args=[event.pk]), **de).content.decode()
    assert "Noch nicht endgültig" not in text
    display = client.get(reverse("standings:display", args=[event.pk]), **de).content.decode()
    assert "vorläufig" not in display
    assert client.get(reverse("standings:api", args=[event.pk])).json()["incomplete_series"] == []


def test_standings_page_needs_login(client, event):
    page = client.get(reverse("standings:event", args=[event.pk]))
    assert page.status_code == 302


def test_tie_break_page(client, event, club_a):
    client.force_login(director(club_a))
    url = reverse("standings:tie_break", args=[event.pk])
    assert client.get(url).status_code == 200
    page = client.post(
        url, {"step_1": "hand_rommes", "step_2": "lots", "reason": "", "prize_lines": "1"}
    )
    assert page.status_code == 200  # results exist: a reason is needed
    page = client.post(
        url, {"step_1": "hand_rommes", "step_2": "lots", "reason": "Vote", "prize_lines": "1, 3"}
    )
    assert page.status_code == 302
    event.refresh_from_db()
    assert event.tie_break_chain == ["total", "hand_rommes", "lots"]
    assert event.prize_lines == [1, 3]
    assert "Vote" in client.get(url).content.decode()


def test_a_refused_prize_line_leaves_the_chain_as_it_was(client, event, club_a):
    # One service, one transaction: the chain is not saved when the prize lines are refused.
    client.force_login(director(club_a))
    before = list(event.tie_break_chain)
    history = event.history.count()
    url = reverse("standings:tie_break", args=[event.pk])
    page = client.post(
        url, {"step_1": "hand_rommes", "step_2": "lots", "reason": "Vote", "prize_lines": "0"}
    )
    assert page.status_code == 200
    assert page.context["form"].errors["prize_lines"]
    event.refresh_from_db()
    assert event.tie_break_chain == before
    assert event.history.count() == history


def test_tie_break_page_describes_each_metric_in_german(client, event, club_a):
    client.force_login(director(club_a))
    page = client.get(reverse("standings:tie_break", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert "Mehr gewonnene Spiele (zuerst Rommé gemacht) sind besser." in text
    assert "More hands won (went out first) is better." not in text


def test_player_page_with_chart(client, event, club_a, viewer_a):
    client.force_login(viewer_a)
    participant = event.participants.first()
    page = client.get(reverse("standings:player", args=[participant.player_id]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "<svg" in text and "<polyline" in text
    results = page.context["results"]
    assert [r.number for r in results] == [1]  # the viewer does not see unpublished series
    client.force_login(director(club_a))
    page = client.get(reverse("standings:player", args=[participant.player_id]))
    assert [r.number for r in page.context["results"]] == [1, 2]


def _count(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_queries_do_not_grow_with_the_field(client, club_a, club_b):
    small = generated(club_a, 40, series=2, rounds=1, pairs=10, teams=5, seed=1)
    large = generated(club_b, 400, series=2, rounds=1, pairs=100, teams=50, seed=2)
    boss = director(club_a)
    from clubs.models import ClubRole

    ClubRole.objects.create(user=boss, club=club_b, role="organiser")
    client.force_login(boss)
    for name, query in (
        ("standings:event", ""),
        ("standings:event", "?competition=pair"),
        ("standings:event", "?competition=team&scope=series&n=1"),
        ("standings:public", ""),
        ("standings:api", ""),
        ("standings:api", "?competition=team"),
        ("standings:display", ""),
    ):
        counts = [_count(client, reverse(name, args=[e.pk]) + query) for e in (small, large)]
        # Warm-up effects (e.g. drawing the lots seed) are out of the way after one call.
        counts = [_count(client, reverse(name, args=[e.pk]) + query) for e in (small, large)]
        assert counts[0] == counts[1], (name, query, counts)
        if name == "standings:event":
            assert counts[0] <= 10, (query, counts)


def test_season_page(client, club_a):
    import datetime as dt

    from bench.rigs.datasets import _players
    from scoring.demo.generate import Plan, generate_event
    from tournaments.models import Season

    season = Season.objects.create(
        club=club_a, name="S", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 12, 31)
    )
    members = _players(8, [club_a], "SP")
    for evening in range(2):
        generate_event(
            Plan(name=f"A{evening}", club=club_a, players=members, series=1, rounds=1,
                 kind="club_evening", season=season, seed=evening)
        )  # fmt: skip
    organiser = director(club_a)
    client.force_login(organiser)
    url = reverse("standings:season", args=[season.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {"ranking_mode": "average", "minimum_series": 2, "drop_start": 2, "drop_every": 1,
         "drop_maximum": 1},
    )  # fmt: skip
    assert response.status_code == 302
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.context["standing"].lines[0].dropped  # one of two results dropped
    assert "Dropped results" in page.content.decode()
    # "Find my line" matches player numbers here too.
    for member in members:
        assert f'data-numbers="{member.player_number}"' in page.content.decode()


def test_find_my_line_carries_player_numbers_but_the_json_does_not(client, event):
    """A player finds their line by the number on the seating list; a pair's line by either
    member's number. The JSON API stays without numbers."""
    from tournaments.models import GroupMember

    url = reverse("standings:public", args=[event.pk])
    page = client.get(url).content.decode()
    for participant in event.participants.select_related("player"):
        assert f'data-numbers="{participant.player.player_number}"' in page
    pairs = client.get(url, {"competition": "pairs"}).content.decode()
    member = GroupMember.objects.filter(group__event=event, kind="pair").first()
    number = member.participant.player.player_number
    assert any(number in line for line in pairs.split("data-numbers=")[1:])
    api = client.get(reverse("standings:api", args=[event.pk])).content.decode()
    assert number not in api
