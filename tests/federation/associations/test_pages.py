"""The federation pages in German: the tree, an association with its clubs and roles, the
history with who, when and why; the navigation link; a fixed number of queries."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from federation.associations import history, selectors, services
from federation.associations.permissions import forget_cached_roles
from federation.models import Affiliation, Association
from tests.factories import ClubFactory, UserFactory, user_with_role

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


def test_the_pages_speak_german(client, national_officer, region_a, affiliation_a, club_a):
    services.grant_role(national_officer, region_a, UserFactory(username="mitleser"), "viewer",
                        reason="Presse")  # fmt: skip
    client.force_login(national_officer)
    listing = client.get(reverse("federation:association_list"), **DE).content.decode()
    assert "Verbände" in listing and "Bundesverband" in listing and "Landesverband" in listing
    assert "Ranglistenwart" in listing  # the user's own role
    for name in ("federation:ranking_list", "federation:review_queue",
                 "federation_submit:matching_list"):  # fmt: skip
        assert f'href="{reverse(name)}"' in listing, name  # the officer's ways on from here
    detail = client.get(region_a.get_absolute_url(), **DE).content.decode()
    assert club_a.name in detail and "Verein aufnehmen" in detail and "Betrachter" in detail
    assert "Einem Benutzer eine Rolle geben" in detail and 'name="reason"' in detail
    verlauf = client.get(reverse("federation:association_history", args=[region_a.pk]), **DE)
    text = verlauf.content.decode()
    assert "Verlauf" in text and "Presse" in text and "bundeswart" in text
    aff = client.get(reverse("federation:affiliation_detail", args=[affiliation_a.pk]), **DE)
    assert "In einen anderen Landesverband verschieben" in aff.content.decode()


def test_every_column_of_the_clubs_table_has_a_heading(
    client, national_officer, region_a, affiliation_a
):
    """Screen readers name a cell by its column's heading; axe flags an empty one."""
    client.force_login(national_officer)
    detail = client.get(region_a.get_absolute_url(), **DE).content.decode()
    headings = [re.sub(r"<[^>]+>", "", th).strip()
                for th in re.findall(r"<th\b[^>]*>(.*?)</th>", detail, re.S)]  # fmt: skip
    assert "Aktionen" in headings and all(headings), headings


def test_a_refused_form_says_why_in_german(client, officer_a, region_a, affiliation_a, club_a):
    client.force_login(officer_a)
    response = client.post(
        reverse("federation:affiliate", args=[region_a.pk]),
        {"club": club_a.pk, "since": "2025-01-01", "reason": "nochmal"},
        **DE,
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'class="error-summary"' in html
    assert "gehört bereits zu" in html
    response = client.post(
        reverse("federation:role_grant", args=[region_a.pk]),
        {"username": "niemand", "role": "viewer", "reason": "x"},
        **DE,
    )
    assert "Es gibt keinen Benutzer" in response.content.decode()


def test_history_shows_a_move_in_both_regions(national_officer, club_a, region_a, region_b):
    made = services.affiliate_club(national_officer, club_a, region_a, since=dt.date(2025, 1, 1),
                                   reason="Aufnahme")  # fmt: skip
    services.move_club(national_officer, made, region_b, since=dt.date(2025, 6, 1),
                       reason="Umzug nach Erfurt")  # fmt: skip
    for region in (region_a, region_b):
        entries = history.association_history(region)
        moved = [e for e in entries if e.reason == "Umzug nach Erfurt"]
        assert len(moved) == 1 and moved[0].who == "bundeswart"
        assert (region_a.name, region_b.name) in [(old, new) for _l, old, new in moved[0].changes]


def test_the_navigation_links_to_the_federation_for_role_holders_only(
    client,
    region_a,
    officer_a,
    organiser_a,
    superuser,
    national_officer,
    django_capture_on_commit_callbacks,
):
    link = reverse("federation:association_list")
    for user, shown in ((officer_a, True), (superuser, True), (organiser_a, False)):
        client.force_login(user)
        assert (f'href="{link}"' in client.get("/", **DE).content.decode()) is shown, user
    # A role granted while the user is logged in shows the link on the next page.
    client.force_login(organiser_a)
    with django_capture_on_commit_callbacks(execute=True):
        services.grant_role(national_officer, region_a, organiser_a, "viewer", reason="neu")
    assert f'href="{link}"' in client.get("/", **DE).content.decode()


def test_an_ordinary_page_asks_nothing_more_for_the_link(client, region_a, officer_a):
    client.force_login(officer_a)
    client.get("/")
    with CaptureQueriesContext(connection) as captured:
        client.get(reverse("clubs:club_list"))
    assert not [q for q in captured.captured_queries if "federation_" in q["sql"]]


def _grow(national, regions, clubs_each, officer):
    for r in range(regions):
        region = Association.objects.create(name=f"LV {national.pk}-{r}", short_name=f"L{r}x",
                                            kind="regional", parent=national)  # fmt: skip
        forget_cached_roles(officer)  # a new region below the officer's
        for _c in range(clubs_each):
            services.affiliate_club(officer, ClubFactory(), region, since=dt.date(2025, 1, 1),
                                    reason="Aufnahme")  # fmt: skip
        user_with_role(ClubFactory(), "viewer")


@pytest.mark.parametrize("size", [1, 4])
def test_reads_run_a_fixed_number_of_queries(size, national, national_officer,
                                              django_assert_max_num_queries):  # fmt: skip
    _grow(national, size, size * 2, national_officer)
    region = Association.objects.filter(kind="regional").first()
    national_officer.__dict__.pop("_association_ranks_cache", None)
    with django_assert_max_num_queries(4):
        rows = selectors.association_tree(national_officer)
        assert len(rows) == size + 1 and rows[0].clubs == size * size * 2
    with django_assert_max_num_queries(6):
        page = selectors.association_detail(national_officer, national)
        assert len(list(page.affiliations)) == size * size * 2
    with django_assert_max_num_queries(6):
        assert len(history.association_history(region)) > size
    assert Affiliation.objects.count() == size * size * 2
