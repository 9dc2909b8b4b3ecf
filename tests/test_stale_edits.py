"""Two people edit one thing at once: the second save is refused instead of writing the
values its page showed back over the first one's (common.forms.RefusesStaleEdits). A field
only the other changed takes the stored value, a field both changed keeps what was typed,
each marked in German; saving again writes it."""

import pytest
from django.core import signing
from django.test import Client

from common.forms import _SEEN_SALT
from tests.factories import ClubFactory, EventFactory, user_with_role
from tests.page_forms import form_values as _form
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_organisers():
    club = ClubFactory(name="Herz Dame Kassel")
    event = EventFactory(club=club, name="Kasseler Open", venue="")
    clients = []
    for name in ("leitung", "kasse"):
        client = Client(HTTP_ACCEPT_LANGUAGE="de")
        client.force_login(user_with_role(club, "organiser", username=name))
        clients.append(client)
    return event, clients


def _shown(form: dict) -> dict:
    return signing.loads(form["seen_state"], salt=_SEEN_SALT)


def test_the_second_save_of_an_event_is_refused_and_keeps_both(two_organisers):
    event, (first, second) = two_organisers
    url = f"/events/{event.pk}/edit/"
    mine, theirs = _form(first.get(url)), _form(second.get(url))
    # Both pages showed the same values (the signature's timestamp may differ by a second).
    assert mine["seen_state"] and _shown(mine) == _shown(theirs)

    saved = first.post(url, {**mine, "venue": "Bürgerhaus Wehlheiden"})
    assert saved.status_code == 302
    # The second page still shows the old venue; its user changes the name and blind mode.
    refused = second.post(url, {**theirs, "name": "Kasseler Open 2026", "blind_confirmation": "on"})
    assert refused.status_code == 200
    html = refused.content.decode()
    assert "<h1>Kasseler Open</h1>" in html  # the heading is the stored name, not the typed
    assert "Inzwischen hat jemand anderes hier gespeichert" in html
    assert "Inzwischen geändert auf „Bürgerhaus Wehlheiden“; übernommen." in html
    event.refresh_from_db()
    assert (event.venue, event.name, event.blind_confirmation) == (
        "Bürgerhaus Wehlheiden",
        "Kasseler Open",
        False,
    )
    # The refused page holds the other's venue and this user's name: saving it keeps both.
    again = _form(refused)
    assert again["venue"] == "Bürgerhaus Wehlheiden" and again["name"] == "Kasseler Open 2026"
    assert second.post(url, again).status_code == 302
    event.refresh_from_db()
    assert (event.venue, event.name, event.blind_confirmation) == (
        "Bürgerhaus Wehlheiden",
        "Kasseler Open 2026",
        True,
    )


def test_a_field_both_changed_keeps_what_the_second_typed_and_says_what_is_stored(
    two_organisers,
):
    event, (first, second) = two_organisers
    url = f"/events/{event.pk}/edit/"
    mine, theirs = _form(first.get(url)), _form(second.get(url))
    assert first.post(url, {**mine, "venue": "Stadthalle"}).status_code == 302
    refused = second.post(url, {**theirs, "venue": "Vereinsheim"})
    html = refused.content.decode()
    assert "Inzwischen geändert auf „Stadthalle“; Ihre Eingabe steht weiter hier." in html
    assert _form(refused)["venue"] == "Vereinsheim"
    assert Event.objects.get(pk=event.pk).venue == "Stadthalle"


def test_a_page_without_the_seen_values_saves_as_before(two_organisers):
    event, (first, _second) = two_organisers
    url = f"/events/{event.pk}/edit/"
    data = _form(first.get(url))
    del data["seen_state"]
    assert first.post(url, {**data, "venue": "Stadthalle"}).status_code == 302
    assert Event.objects.get(pk=event.pk).venue == "Stadthalle"


@pytest.mark.parametrize(
    ("path", "field", "value"),
    [
        ("/clubs/{club}/edit/", "town", "Fulda"),
        ("/seasons/{season}/edit/", "name", "Saison 2027"),
    ],
)
def test_every_edit_page_carries_the_check(path, field, value):
    from tournaments import services

    club = ClubFactory(name="Herz Dame Kassel", town="Kassel")
    organiser = user_with_role(club, "organiser", username="a")
    season = services.create_season(
        organiser, club, name="2026", start_date="2026-01-01", end_date="2026-12-31"
    )
    url = path.format(club=club.pk, season=season.pk)
    first, second = Client(HTTP_ACCEPT_LANGUAGE="de"), Client(HTTP_ACCEPT_LANGUAGE="de")
    first.force_login(organiser)
    second.force_login(user_with_role(club, "organiser", username="b"))
    mine, theirs = _form(first.get(url)), _form(second.get(url))
    assert "seen_state" in mine
    assert first.post(url, {**mine, field: value}).status_code == 302
    refused = second.post(url, theirs)
    assert refused.status_code == 200
    assert "Inzwischen hat jemand anderes hier gespeichert" in refused.content.decode()
