"""Hostile values get a 400/404 or a German form error, never a 500 and never half done."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubs.models import Membership
from tests.factories import MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db

HUGE = "9" * 25
SAMPLE = {"export_scope": "series", "export_format": "xlsx", "slug": "x", "str": "x"}


def routes(patterns=None, prefix=""):
    """Every route of the project except the admin's, as a path template."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = str(entry.pattern)
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin" or route.startswith("^"):
                continue
            yield from routes(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            yield prefix + route


def with_values(route: str, number: str) -> str:
    def value(match):
        kind = match.group(1)
        return number if kind == "int" else SAMPLE.get(kind, "x")

    return "/" + re.sub(r"<(\w+):\w+>", value, route)


INT_ROUTES = [r for r in routes() if "<int:" in r]


@pytest.fixture
def superuser_client(client):
    client.force_login(get_user_model().objects.create_superuser("root", password="x-1234567"))
    client.raise_request_exception = False
    return client


def test_there_are_many_routes_with_ids():
    assert len(INT_ROUTES) > 30


@pytest.mark.parametrize("route", INT_ROUTES)
def test_25_digit_ids_are_404(superuser_client, route):
    url = with_values(route, HUGE)
    assert superuser_client.get(url).status_code == 404, url
    assert superuser_client.post(url, {"x": "1"}).status_code in (404, 405), url


def test_huge_numbers_in_a_sheet_are_form_errors(client, seated_series, scorer_a):
    client.force_login(scorer_a)
    client.raise_request_exception = False
    url = reverse("scoring:sheet_entry", args=[seated_series.pk, 1])
    data = {"expected_version": "0", "action": "save", "first_dealer": "0"}
    data.update({"cell-1-1": HUGE, "cell-1-2": "0", "cell-1-3": "12", "cell-1-4": "9" * 5000})
    data.update({"melded-1-1": str(2**31), "melded-1-3": "-" + "9" * 5000})
    data[f"cell-{HUGE}-1"] = "5"
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400  # the page again, with its problems listed
    page = response.content.decode()
    assert "ist zu groß für Augen" in page
    assert "der ausgelegte Wert „2147483648“ ist zu groß" in page


@pytest.mark.parametrize(
    "target", ["javascript:alert(1)", "https://evil.example/", "//evil.example/x"]
)
def test_next_never_leaves_the_site(client, seated_series, organiser_a, target):
    client.force_login(organiser_a)
    url = reverse("standings:series_publish", args=[seated_series.pk])
    # (Its tables have no sheets: the page asks first, its links on the site too.)
    asked = client.post(url, {"published": "1", "next": target}).content.decode()
    assert "open_tables" in asked and "evil" not in asked and "javascript" not in asked
    response = client.post(url, {"published": "1", "next": target, "open_tables": "ok"})
    assert response.status_code == 302
    assert response["Location"] == reverse("standings:event", args=[seated_series.event_id])
    for name in ("series_start", "series_complete"):
        response = client.post(
            reverse(f"tournaments:{name}", args=[seated_series.pk]), {"next": target}
        )
        assert response.status_code == 302
        assert "evil" not in response["Location"] and "javascript" not in response["Location"]


def test_next_on_the_site_is_followed(client, seated_series, organiser_a):
    client.force_login(organiser_a)
    url = reverse("standings:series_publish", args=[seated_series.pk])
    asked = client.post(url, {"published": "1", "next": "/players/"}).content.decode()
    assert 'href="/players/"' in asked and 'value="/players/"' in asked
    response = client.post(url, {"published": "1", "next": "/players/", "open_tables": "ok"})
    assert response["Location"] == "/players/"


@pytest.mark.parametrize("login_next", ["javascript:alert(1)", "https://evil.example/"])
def test_login_next_stays_on_the_site(client, login_next):
    get_user_model().objects.create_user("berta", password="richtig-geheim-42")
    response = client.post(
        reverse("login") + f"?next={login_next}",
        {"username": "berta", "password": "richtig-geheim-42", "next": login_next},
    )
    assert response.status_code == 302 and "evil" not in response["Location"]
    assert not response["Location"].startswith("javascript")


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f"])
def test_control_characters_in_forms_are_refused(client, organiser_a, club_a, char):
    client.force_login(organiser_a)
    url = reverse("clubs:player_create", args=[club_a.pk])
    data = {"given_name": f"An{char}na", "family_name": "Abel", "player_number": "77"}
    data["member_from"] = "2024-01-01"
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert "Steuerzeichen" in response.content.decode()
    assert not PlayerFactory._meta.model.objects.filter(player_number="77").exists()


def test_control_characters_in_a_search_are_refused(client, organiser_a):
    client.force_login(organiser_a)
    response = client.get(reverse("clubs:player_list"), {"q": "a\x00b"})
    assert response.status_code == 400


def test_tabs_and_line_breaks_are_fine(client, organiser_a):
    client.force_login(organiser_a)
    assert client.get(reverse("clubs:player_list"), {"q": "a\tb\r\n"}).status_code == 200


def test_year_9999_membership_is_a_form_error(client, organiser_a, club_a):
    client.force_login(organiser_a)
    player = PlayerFactory()
    MembershipFactory(player=player, club=club_a)
    membership = Membership.objects.get(player=player)
    response = client.post(
        reverse("clubs:membership_end", args=[membership.pk]),
        {"valid_until": "9999-12-31"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code in (200, 302)
    membership.refresh_from_db()
    assert membership.valid_until is None


def test_absurd_dates_and_birth_years_are_refused_with_german_messages(client, organiser_a, club_a):
    client.force_login(organiser_a)
    url = reverse("clubs:player_create", args=[club_a.pk])
    data = {"given_name": "Anna", "family_name": "Abel", "player_number": "78"}
    response = client.post(
        url, {**data, "birth_year": "1820", "member_from": "9999-01-01"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Geburtsjahr zwischen 1900" in page
    assert "Datum zwischen 01.01.1900" in page
    assert not PlayerFactory._meta.model.objects.filter(player_number="78").exists()
