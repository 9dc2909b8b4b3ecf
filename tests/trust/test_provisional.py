"""Unconfirmed values are seen only by the person who entered them and the event's
directors, the organisers of its club (issue 11, item 3a). Table 2 of the ``world`` event
holds an entered sheet; its totals are the secrets here."""

import pytest
from django.urls import reverse

from scoring import visibility
from scoring.exports.rendering import render_export
from tests.exports.conftest import pdf_text
from tests.factories import user_with_role
from tests.trust.conftest import shown

pytestmark = pytest.mark.django_db


def _api(client, event, query="?provisional=1"):
    return client.get(reverse("standings:api", args=[event.pk]) + query)


def _page(client, event, query="?provisional=1"):
    return client.get(reverse("standings:event", args=[event.pk]) + query).content.decode()


def test_directors_are_the_organisers_of_the_events_club(world, organiser_a, scorer_a,
                                                         viewer_a, superuser, club_b):  # fmt: skip
    event = world["event"]
    assert visibility.is_director(organiser_a, event)
    assert visibility.is_director(superuser, event)
    assert not visibility.is_director(scorer_a, event)
    assert not visibility.is_director(viewer_a, event)
    assert not visibility.is_director(user_with_role(club_b, "organiser", username="b"), event)


def test_the_organiser_sees_provisional_standings(client, world, organiser_a):
    client.force_login(organiser_a)
    data = _api(client, world["event"]).json()
    assert data["provisional"] is True
    totals = [str(abs(r["total"])) for r in data["rows"] if r["provisional"]]
    assert sorted(totals) == sorted(world["entered"])
    assert shown(_page(client, world["event"]), world["entered"]) == world["entered"]


def test_the_scorer_who_entered_sees_the_sheet_but_no_provisional_standings(
    client, world, scorer_a
):
    client.force_login(scorer_a)
    response = _api(client, world["event"])
    assert response.status_code == 403
    # Without provisional: confirmed (unpublished) results, but no entered values.
    data = _api(client, world["event"], "").json()
    assert data["provisional"] is False and data["rows"]
    assert not any(r["provisional"] for r in data["rows"])
    assert not shown(_page(client, world["event"]), world["hidden"])
    assert "Include unconfirmed sheets" not in _page(client, world["event"], "")
    # The sheet this scorer entered is theirs to see.
    series = world["series"]
    sheet = client.get(reverse("scoring:sheet_entry", args=[series.pk, 2]))
    assert sheet.status_code == 200


def test_another_scorer_and_a_viewer_see_no_unconfirmed_values(client, world, club_a, viewer_a):
    other = user_with_role(club_a, "scorer", username="scorer_other")
    for user in (other, viewer_a):
        client.force_login(user)
        assert _api(client, world["event"]).status_code == 403
        assert not shown(_page(client, world["event"]), world["hidden"])
    # A viewer may not open an unconfirmed sheet at all.
    series = world["series"]
    assert client.get(reverse("scoring:sheet_entry", args=[series.pk, 2])).status_code == 403


def test_exports_and_the_hall_display_never_show_unconfirmed_values(client, world, organiser_a):
    event, series = world["event"], world["series"]
    series.published = True
    series.save()
    client.force_login(organiser_a)
    display = client.get(reverse("standings:display", args=[event.pk])).content.decode()
    assert shown(display, world["confirmed"]) == world["confirmed"]
    assert not shown(display, world["hidden"])
    public = client.get(reverse("standings:public", args=[event.pk])).content.decode()
    assert not shown(public, world["hidden"])
    for slug in ("standings", "event-workbook"):
        text = pdf_text(render_export(slug, event, "pdf")[0])
        assert not shown(text, world["hidden"]), slug
        assert shown(text, world["confirmed"]), slug
