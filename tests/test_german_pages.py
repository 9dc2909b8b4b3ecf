"""German pages a director meets: ISO date inputs, charts that parse, an error summary at
the top of a refused form, current and former members of a club."""

import datetime as dt
import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from clubs.models import Membership
from tests.factories import MembershipFactory, PlayerFactory
from tests.standings.db.conftest import generated

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


def _date_inputs(html):
    return re.findall(r'<input type="date"[^>]*>', html)


def test_date_inputs_carry_iso_values_in_german(client, organiser_a, club_a):
    client.force_login(organiser_a)
    player = MembershipFactory(club=club_a).player
    pages = [
        reverse("clubs:player_create", args=[club_a.pk]),
        reverse("clubs:player_detail", args=[player.pk]),
        reverse("tournaments:event_create"),
    ]
    seen = 0
    for url in pages:
        html = client.get(url, **DE).content.decode()
        for tag in _date_inputs(html):
            value = re.search(r'value="([^"]*)"', tag)
            if value:
                dt.date.fromisoformat(value.group(1))  # "22.11.2026" would raise
                seen += 1
    assert seen >= 3


def test_results_chart_parses_in_german(client, club_a, viewer_a):
    event = generated(club_a, 8, series=3, rounds=1)
    client.force_login(viewer_a)
    player_id = event.participants.first().player_id
    html = client.get(reverse("standings:player", args=[player_id]), **DE).content.decode()
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    root = ET.fromstring(svg.replace("&nbsp;", " "))
    numbers = [root.get("viewBox")]
    for el in root.iter():
        for name in ("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "points"):
            if el.get(name) is not None:
                numbers.append(el.get(name))
    assert len(numbers) > 5
    for value in numbers:
        assert "," not in value.replace(" ", "") or re.fullmatch(
            r"(-?[\d.]+,-?[\d.]+ ?)+", value
        ), value
        for part in re.split(r"[ ,]", value.strip()):
            float(part)


def test_refused_form_shows_a_summary_at_the_top_and_keeps_the_values(client, organiser_a, club_a):
    client.force_login(organiser_a)
    response = client.post(
        reverse("clubs:player_create", args=[club_a.pk]),
        {"given_name": "Hanna", "family_name": "", "player_number": "X-1", "member_from": ""},
        **DE,
    )
    html = response.content.decode()
    assert response.status_code == 200
    summary = html.index('class="error-summary"')
    assert summary < html.index('name="given_name"')
    assert 'href="#id_family_name"' in html
    assert 'value="Hanna"' in html and 'value="X-1"' in html


def test_club_page_lists_current_and_former_members(client, viewer_a, club_a, club_b):
    today = dt.date.today()
    current = MembershipFactory(club=club_a, valid_from=dt.date(2020, 1, 1)).player
    gone = PlayerFactory(family_name="Weggezogen")
    Membership.objects.create(
        player=gone, club=club_a, valid_from=dt.date(2019, 1, 1), valid_until=dt.date(2022, 6, 30)
    )
    Membership.objects.create(player=gone, club=club_b, valid_from=dt.date(2022, 7, 1))
    client.force_login(viewer_a)
    response = client.get(reverse("clubs:club_detail", args=[club_a.pk]), **DE)
    html = response.content.decode()
    members = [r.record.pk for r in response.context["table"].rows]
    assert members == [current.pk]
    assert [m.player_id for m in response.context["former"]] == [gone.pk]
    assert "Ehemalige Mitglieder" in html and "30.06.2022" in html
    assert today.year > 2022


def _check_constraints():
    from django.apps import apps
    from django.db.models import CheckConstraint

    for model in apps.get_models():
        if model._meta.app_label in {"clubs", "tournaments", "scoring"}:
            for constraint in model._meta.constraints:
                if isinstance(constraint, CheckConstraint):
                    yield model, constraint


def test_every_check_constraint_speaks_german_not_its_name():
    from django.db.models import CheckConstraint
    from django.utils import translation

    default = CheckConstraint.default_violation_error_message
    checked = 0
    with translation.override("de"):
        for model, constraint in _check_constraints():
            message = str(constraint.get_violation_error_message())
            label = f"{model.__name__}.{constraint.name}"
            assert constraint.violation_error_message != default, f"{label}: no message"
            assert constraint.name not in message, label
            checked += 1
    assert checked >= 14


def test_a_constraint_refusal_names_the_field_in_german(client, organiser_a, club_a):
    client.force_login(organiser_a)
    response = client.post(
        reverse("tournaments:event_create"),
        {
            "club": club_a.pk,
            "name": "Adventsturnier",
            "kind": "tournament",
            "start_date": "2026-12-05",
            "ruleset_slug": "german-minus",
            "rounds_per_series": "0",
            "later_series_seating": "running_total",
        },
        **DE,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "event_at_least_one_round" not in html
    assert "Bedingung" not in html
    assert 'href="#id_rounds_per_series"' in html
    assert "größer oder gleich 1" in html
