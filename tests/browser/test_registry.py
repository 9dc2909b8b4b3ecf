"""A user logs in with a real browser and filters the player list."""

import pytest

from clubs.models import ClubRole
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_log_in_and_filter_the_player_list(live_server, page):
    kassel = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    fulda = ClubFactory(name="Kreuz Bube Fulda", short_name="KBF")
    MembershipFactory(club=kassel, player__given_name="Anna", player__family_name="Müller")
    MembershipFactory(club=kassel, player__given_name="Bernd", player__family_name="Becker")
    MembershipFactory(club=fulda, player__given_name="Clara", player__family_name="Müller")
    user = UserFactory(username="leiterin")
    ClubRole.objects.create(user=user, club=kassel, role="organiser")

    page.goto(f"{live_server.url}/players/")
    assert "/login/" in page.url
    page.fill("input[name=username]", "leiterin")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url("**/players/")
    assert page.locator("h1").inner_text() == "Spieler"
    rows = page.locator("table.data-table tbody tr")
    assert rows.count() == 3

    page.fill("input[name=name]", "müller")
    page.click("form.filter-bar button[type=submit]")
    page.wait_for_url("**name=*")
    assert rows.count() == 2
    assert all("Müller" in text for text in rows.all_inner_texts())

    page.select_option("select[name=club]", label="Kreuz Bube Fulda")
    page.click("form.filter-bar button[type=submit]")
    page.wait_for_load_state()
    assert rows.count() == 1
    assert "Clara" in rows.first.inner_text()

    # Sorting by a column header keeps the filter.
    page.click("th >> text=Vorname")
    page.wait_for_load_state()
    assert rows.count() == 1 and "club=" in page.url
