"""Events: created with a preset and overrides, edited, seasons."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from tests.factories import SeriesFactory
from tournaments import services
from tournaments.models import Event, Season

pytestmark = pytest.mark.django_db


def event_data(club, **extra):
    data = {
        "club": club.pk,
        "name": "Frühjahrsturnier",
        "kind": "tournament",
        "start_date": "2026-04-11",
        "ruleset_slug": "german-minus",
        "rounds_per_series": 5,
        "later_series_seating": "ranked",
    }
    data.update(extra)
    return data


def test_event_is_created_with_a_preset_and_only_the_differing_overrides(
    client, club_a, organiser_a
):
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:event_create"),
        # 30 is the preset's joker value: not stored; the others differ.
        event_data(
            club_a,
            joker_points="30",
            first_meld_minimum="30",
            hand_romme_multiplier="2",
            stock_may_run_out="yes",
        ),
    )
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    assert event.club == club_a and event.created_by == organiser_a
    assert event.ruleset_overrides == {
        "first_meld_minimum": 30,
        "hand_romme_multiplier": 2,
        "stock_may_run_out": True,
    }
    assert event.ruleset.first_meld_minimum == 30 and event.ruleset.joker_points == 30
    assert event.history.get().history_user == organiser_a


def test_an_event_without_overrides_stores_none(client, club_a, organiser_a):
    client.force_login(organiser_a)
    client.post(reverse("tournaments:event_create"), event_data(club_a, ruleset_slug="skat-style"))
    event = Event.objects.get()
    assert event.ruleset_slug == "skat-style" and event.ruleset_overrides == {}


@pytest.mark.parametrize(
    ("field", "value", "text"),
    [
        ("joker_points", "-5", "at least 0"),
        ("hand_romme_multiplier", "0", "at least 1"),
        ("first_meld_minimum", "-1", "first-meld minimum cannot be negative"),
    ],
)
def test_invalid_overrides_are_form_errors_naming_the_field(
    client, club_a, organiser_a, field, value, text
):
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:event_create"),
        event_data(club_a, **{field: value}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == [field]
    assert text in form.errors[field][0]
    assert not Event.objects.exists()


def test_service_refuses_invalid_overrides_too(club_a, organiser_a):
    with pytest.raises(ValidationError) as caught:
        services.create_event(
            organiser_a,
            club_a,
            name="X",
            start_date=dt.date(2026, 1, 1),
            ruleset_overrides={"joker_points": -1},
        )
    assert "joker_points" in caught.value.message_dict


def test_create_form_offers_only_clubs_where_the_user_is_organiser(
    client, club_a, club_b, organiser_a
):
    client.force_login(organiser_a)
    form = client.get(reverse("tournaments:event_create")).context["form"]
    assert list(form.fields["club"].queryset) == [club_a]
    response = client.post(reverse("tournaments:event_create"), event_data(club_b))
    assert response.status_code == 200 and "club" in response.context["form"].errors
    assert not Event.objects.exists()


def test_season_must_belong_to_the_club(club_a, club_b, organiser_a, superuser):
    season_b = services.create_season(
        superuser,
        club_b,
        name="2026",
        start_date=dt.date(2026, 1, 1),
        end_date=dt.date(2026, 12, 31),
    )
    with pytest.raises(ValidationError):
        services.create_event(
            organiser_a, club_a, name="X", start_date=dt.date(2026, 1, 1), season=season_b
        )


def test_edit_form_drops_rule_set_fields_once_the_event_has_series(client, event_a, organiser_a):
    client.force_login(organiser_a)
    url = reverse("tournaments:event_edit", args=[event_a.pk])
    assert "ruleset_slug" in client.get(url).context["form"].fields
    SeriesFactory(event=event_a)
    form = client.get(url).context["form"]
    assert "ruleset_slug" not in form.fields and "joker_points" not in form.fields
    with pytest.raises(ValidationError):
        services.update_event(organiser_a, event_a, ruleset_slug="skat-style")


def test_edit_keeps_the_rule_set_and_changes_facts(client, event_a, organiser_a):
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:event_edit", args=[event_a.pk]),
        {
            "name": "Neuer Name",
            "kind": "club_evening",
            "start_date": "2026-03-14",
            "ruleset_slug": "german-minus",
            "joker_points": "20",
            "rounds_per_series": 4,
            "later_series_seating": "lot",
        },
    )
    assert response.status_code == 302
    event_a.refresh_from_db()
    assert event_a.name == "Neuer Name" and event_a.ruleset_overrides == {"joker_points": 20}


def test_seasons_are_created_by_organisers_only(client, club_a, organiser_a, viewer_a):
    url = reverse("tournaments:season_create", args=[club_a.pk])
    data = {"name": "2026", "start_date": "2026-01-01", "end_date": "2026-12-31"}
    client.force_login(viewer_a)
    assert client.post(url, data).status_code == 403
    client.force_login(organiser_a)
    assert client.post(url, data).status_code == 302
    season = Season.objects.get()
    assert season.club == club_a
    page = client.get(reverse("tournaments:season_list")).content.decode()
    assert "2026" in page
    with pytest.raises(PermissionDenied):
        services.update_season(viewer_a, season, name="x")
