"""A regional ranking officer in Chromium (de-DE), desktop and phone: the navigation leads
to "Verbände", the region admits a club with a reason, the "Verlauf" shows who, when and why,
and no page is wider than the screen. Screenshots go to test-artifacts/."""

import pytest

from federation.models import Affiliation, Association, AssociationRole
from tests.browser.test_german_director import SIZES, _login, _shot
from tests.factories import ClubFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", SIZES)
def test_an_officer_admits_a_club_in_german(live_server, browser, size):
    national = Association.objects.create(
        name="Deutscher Rommé-Verband", short_name="DRV", kind="national"
    )
    region = Association.objects.create(
        name="Landesverband Hessen", short_name="LV HE", kind="regional", parent=national
    )
    club = ClubFactory(name="1. Rommé- und Kartenspielfreunde Kreuz Bube Fulda-Petersberg e. V.")
    officer = UserFactory(username="landeswart")
    AssociationRole.objects.create(user=officer, association=region, role="officer")
    context, page = _login(browser, live_server, size, "landeswart")
    page.click("nav a:has-text('Verbände')")
    page.wait_for_load_state()
    assert "Landesverband Hessen" in page.locator("main").inner_text()
    _shot(page, "federation-list", size)
    page.click("main a:has-text('Landesverband Hessen')")
    page.wait_for_load_state()
    page.select_option("select[name=club]", str(club.pk))
    page.fill("input[name=reason]", "Aufnahmeantrag vom 3. März")
    page.click("form:has(select[name=club]) button[type=submit]")
    page.wait_for_load_state()
    assert "gehört jetzt zu" in page.locator(".messages").inner_text()
    assert Affiliation.objects.get(club=club).association == region
    _shot(page, "federation-region", size)
    page.click("a:has-text('Verlauf')")
    page.wait_for_load_state()
    text = page.locator("main").inner_text()
    assert "Aufnahmeantrag vom 3. März" in text and "landeswart" in text
    _shot(page, "federation-history", size)
    context.close()


def test_the_review_tables_on_a_phone_are_regions_named_by_their_headings(live_server, browser):
    """Two tables too wide for the phone scroll inside themselves; each is a keyboard-
    reachable region named by its own heading (not both by the page's title: axe's
    landmark-unique)."""
    from django.utils import timezone

    from federation.models import RankingStatus
    from tests.factories import EventFactory
    from tests.federation.status_helpers import approved_version, make_ranking

    national = Association.objects.create(
        name="Deutscher Rommé-Verband", short_name="DRV", kind="national"
    )
    ranking = make_ranking(national, "Deutsche Rangliste der Einzelspielerinnen und Einzelspieler")
    club = ClubFactory(name="Rommé-Freunde Fulda-Petersberg", short_name="RF Fulda-Petersberg")
    long_name = "Großer Herbstpokal der Rommé- und Kartenspielfreunde Fulda-Petersberg"
    RankingStatus.objects.create(event=EventFactory(club=club, name=long_name), ranking=ranking,
                                 state="requested", requested_at=timezone.now())  # fmt: skip
    version = approved_version(ranking, EventFactory(club=club, name=long_name + " II"), [])
    version.state = "pending"
    version.save(update_fields=["state"])
    officer = UserFactory(username="bundeswart")
    AssociationRole.objects.create(user=officer, association=national, role="officer")
    context, page = _login(browser, live_server, "phone", "bundeswart")
    page.goto(live_server.url + "/federation/review/")
    page.wait_for_load_state()
    regions = page.locator("table[role=region]")
    labels = [regions.nth(i).get_attribute("aria-label") for i in range(regions.count())]
    assert labels == ["Anträge auf Ranglistenstatus", "Einreichungen zur Prüfung"], labels
    assert all(regions.nth(i).get_attribute("tabindex") == "0" for i in range(regions.count()))
    _shot(page, "federation-review", "phone")
    context.close()
