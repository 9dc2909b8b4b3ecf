"""The hand-over (issue 28, item 4): the event page's box for the club's directors, the
take-over with a confirmation and a reason (audited), the laptop's pushes refused after it
with "übernommen am … von …", and "live aus dem Saal, Stand …" on the public pages."""

import pytest
from django.urls import reverse
from django.utils import timezone

from live.models import ReceivedEvent
from live.server.services import clock
from tests.factories import user_with_role
from tests.live.server.test_tokens_api import ORIGIN, batch, fake, post  # noqa: F401  (fixtures)
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def pushed(client, fake, club_a, organiser_a):  # noqa: F811
    from live.server import tokens

    _token, raw = tokens.make_token(organiser_a, club_a, label="Saal 1")
    assert post(client, batch(1, 4), raw).status_code == 200
    received = ReceivedEvent.objects.select_related("event").get()
    return received, raw


def test_the_event_page_offers_the_take_over_to_directors_only(client, pushed, organiser_a):
    received, _raw = pushed
    url = reverse("tournaments:event_detail", args=[received.event_id])
    client.force_login(organiser_a)
    page = client.get(url, **DE).content.decode()
    stand = clock(received.last_push_at if received.last_push_at else timezone.now())
    assert "Live aus dem Saal" in page and f"Stand {stand}" in page
    assert reverse("live:take_over", args=[received.event_id]) in page
    viewer = user_with_role(received.event.club, "viewer", username="zuschauer")
    client.force_login(viewer)
    page = client.get(url, **DE).content.decode()
    assert "Live aus dem Saal" in page
    assert reverse("live:take_over", args=[received.event_id]) not in page
    assert client.get(reverse("live:take_over", args=[received.event_id])).status_code == 403


def test_take_over_asks_first_then_refuses_the_laptop(client, pushed, organiser_a):
    received, raw = pushed
    url = reverse("live:take_over", args=[received.event_id])
    client.force_login(organiser_a)
    page = client.get(url, **DE)
    assert page.status_code == 200 and "Laptop im Saal „Saal 1“" in page.content.decode()
    unconfirmed = client.post(url, {"reason": "Laptop defekt"}, **DE)
    assert unconfirmed.status_code == 400
    no_reason = client.post(url, {"reason": " ", "confirm": "on"}, **DE)
    assert no_reason.status_code == 400
    assert ReceivedEvent.objects.get().owner == "laptop"
    version = Event.objects.get(pk=received.event_id).results_version
    done = client.post(url, {"reason": "Laptop defekt", "confirm": "on"}, **DE)
    assert done.status_code == 302
    received.refresh_from_db()
    assert received.owner == "server" and received.taken_over_by == organiser_a
    newest = received.history.first()
    assert newest.owner == "server" and newest.history_change_reason == "Laptop defekt"
    assert newest.history_user == organiser_a
    assert Event.objects.get(pk=received.event_id).results_version == version + 1
    # The old laptop's next push: refused, naming when and by whom.
    refused = post(client, batch(5, 6, parts=[]), raw)
    assert refused.status_code == 409
    answer = refused.json()
    assert answer["code"] == "taken_over" and answer["error"].startswith("Übernommen am ")
    assert "von org_a" in answer["error"] and answer["taken_over_at"] and answer["by"] == "org_a"
    # Also a batch it had sent already: the server no longer answers for the laptop.
    assert post(client, batch(1, 4), raw).status_code == 409
    assert ReceivedEvent.objects.get().last_seq == 4
    status = client.get(
        reverse("live:status"), {"origin": ORIGIN, "event": 7}, HTTP_AUTHORIZATION=f"Bearer {raw}"
    )
    assert status.json()["owner"] == "server" and status.json()["last_seq"] == 4
    # Twice is refused with the same words; the page says who took it over.
    again = client.post(url, {"reason": "nochmal", "confirm": "on"}, **DE)
    assert again.status_code == 400 and "Übernommen am" in again.content.decode()


def test_the_public_page_and_display_say_live_from_the_hall(client, pushed, organiser_a):
    received, _raw = pushed
    stand = f"live aus dem Saal, Stand {clock(received.last_push_at)}"
    for name in ("standings:public", "standings:display"):
        page = client.get(reverse(name, args=[received.event_id]), **DE)
        assert page.status_code == 200, name
        assert stand in page.content.decode(), name
    from live.server.services import take_over

    take_over(organiser_a, received, "Laptop defekt")
    for name in ("standings:public", "standings:display"):
        page = client.get(reverse(name, args=[received.event_id]), **DE)
        assert "live aus dem Saal" not in page.content.decode(), name


def test_an_event_not_received_shows_nothing_of_it(client, organiser_a, club_a):
    from tests.factories import EventFactory

    event = EventFactory(club=club_a)
    client.force_login(organiser_a)
    page = client.get(reverse("tournaments:event_detail", args=[event.pk]), **DE)
    assert "Live aus dem Saal" not in page.content.decode()
    assert client.get(reverse("live:take_over", args=[event.pk])).status_code == 404


def test_the_real_apply_through_the_endpoint(client):
    """The laptop's event cut into parts (live.shared.parts), sent to the endpoint with a real
    token, applied by live.server.apply: an equal event on the server; a later change follows;
    bad content is refused with its path and nothing changes; the server's copy stays
    read-only."""
    from django.core.cache import cache

    from live.server import tokens
    from live.shared.parts import event_parts
    from scoring.standings.services import set_series_published
    from tests.live.server import test_apply as helpers
    from tournaments.models import Series

    cache.clear()
    laptop = helpers.laptop_event()
    owner = user_with_role(laptop.club, "organiser", username="leitung_hdk")
    _token, raw = tokens.make_token(owner, laptop.club, label="Saal 1")
    before = event_parts(laptop)
    first = helpers.batch(before, event_id=laptop.pk)
    response = post(client, first, raw)
    assert response.status_code == 200, response.content
    assert response.json() == {"last_seq": 1}
    received = ReceivedEvent.objects.select_related("event").get()
    helpers.assert_same(laptop, received.event)

    # A change on the laptop: series 1 unpublished there; its parts go as change 2.
    series = Series.objects.get(event=laptop, number=1)
    set_series_published(owner, series, not series.published)
    parts, removed = helpers.changed_parts(before, event_parts(laptop))
    assert parts
    second = helpers.batch(parts, removed, event_id=laptop.pk) | {"from_seq": 2, "to_seq": 2}
    assert post(client, second, raw).json() == {"last_seq": 2}
    helpers.assert_same(laptop, received.event)

    # Bad content in a part: 400 with where it is, nothing stored.
    key = next(k for k in parts if k.startswith("series:"))
    bad = helpers.batch({key: {"number": "eins"}}, event_id=laptop.pk) | {
        "from_seq": 3, "to_seq": 3
    }  # fmt: skip
    version = Event.objects.get(pk=received.event_id).results_version
    refused = post(client, bad, raw)
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "invalid" and refused.json()["path"]
    assert ReceivedEvent.objects.get().last_seq == 2
    assert Event.objects.get(pk=received.event_id).results_version == version

    # The server's copy: a director's publish there is refused.
    copy = Series.objects.get(event=received.event, number=1)
    client.force_login(owner)
    url = reverse("standings:series_publish", args=[copy.pk])
    answer = client.post(url, {"published": "" if copy.published else "1"}, **DE)
    assert answer.status_code == 403 and "Änderungen nur dort" in answer.content.decode()
    helpers.assert_same(laptop, received.event)


def test_a_reason_fits_the_historys_column(client, pushed, organiser_a):
    """The history keeps the reason in 100 characters (a longer one failed on PostgreSQL)."""
    received, _raw = pushed
    url = reverse("live:take_over", args=[received.event_id])
    client.force_login(organiser_a)
    too_long = client.post(url, {"reason": "x" * 101, "confirm": "on"}, **DE)
    assert too_long.status_code == 400 and ReceivedEvent.objects.get().owner == "laptop"
    done = client.post(url, {"reason": "y" * 100, "confirm": "on"}, **DE)
    assert done.status_code == 302
    assert received.history.first().history_change_reason == "y" * 100
