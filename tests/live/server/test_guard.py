"""The owner's guard (issue 28, item 3): on the server, an event a laptop owns is read-only;
every write that raises its results version is refused with a German message naming the
owner, and rolled back. The live apply itself (applying_live) passes; names never are
refused; events that no laptop sends are not hindered."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation

from live.models import LiveToken, ReceivedEvent
from live.server.services import applying_live, is_applying_live
from scoring.models import Sheet, SheetVersion
from scoring.sheets.services import confirm_sheet, save_sheet
from scoring.standings.services import set_series_published
from tests.factories import (
    EventFactory,
    MembershipFactory,
    ParticipantFactory,
    SeriesFactory,
    seated_table,
)
from tests.sheets.conftest import random_grid
from tournaments import seating
from tournaments.models import Event, Seat, Series
from tournaments.results import bump_for_names, bump_results_version
from tournaments.services import update_event

pytestmark = pytest.mark.django_db

OWNER_TEXT = "wird live vom Laptop im Saal „Saal 1“ (Stand"


def _event(club, scorer, organiser, name="Live-Cup"):
    event = EventFactory(club=club, rounds_per_series=1, name=name)
    people = [
        ParticipantFactory(event=event, player=MembershipFactory(club=club).player, club=club)
        for _ in range(8)
    ]
    series = SeriesFactory(event=event, number=1, planned_rounds=1, published=False)
    series.status = "in_play"
    series.save()
    tables = [seated_table(series, people[:4], 1), seated_table(series, people[4:], 2)]
    grid = random_grid(hands=4, seed=3)
    save_sheet(scorer, tables[0], grid, expected_version=0, submit=True)
    confirm_sheet(organiser, tables[0], grid, expected_version=1)
    return event, series, tables, people, grid


@pytest.fixture
def received(club_a, scorer_a, organiser_a):
    """A server's copy of a laptop's event (as live.server.apply leaves it), owned by the laptop."""
    event, series, tables, people, grid = _event(club_a, scorer_a, organiser_a)
    token = LiveToken.objects.create(
        club=club_a, event=event, label="Saal 1", token_hash="0" * 64, prefix="abcdefgh"
    )
    copy = ReceivedEvent.objects.create(
        event=event, origin="f" * 32, origin_event=7, token=token, last_seq=12,
        last_push_at=timezone.now(),
    )  # fmt: skip
    return {"copy": copy, "event": event, "series": series, "tables": tables, "people": people,
            "grid": grid}  # fmt: skip


def _refused(call):
    with translation.override("de"), pytest.raises(PermissionDenied) as refusal:
        call()
    message = str(refusal.value)
    assert OWNER_TEXT in message and "Änderungen nur dort" in message, message
    assert "Übernehmen" in message
    return message


def _state(event):
    event = Event.objects.get(pk=event.pk)
    sheets = list(SheetVersion.objects.filter(sheet__table__series__event=event).values_list())
    seats = list(Seat.objects.filter(table__series__event=event).values_list())
    published = list(Series.objects.filter(event=event).values_list("published", flat=True))
    return event.results_version, event.name, sheets, seats, published


def test_a_directors_correction_is_refused(received, organiser_a):
    before = _state(received["event"])
    grid = random_grid(hands=4, seed=9)
    _refused(
        lambda: save_sheet(
            organiser_a, received["tables"][0], grid, expected_version=2, submit=True,
            reason="Tippfehler",
        )
    )  # fmt: skip
    assert _state(received["event"]) == before
    assert Sheet.objects.get(table=received["tables"][0]).status == Sheet.Status.CONFIRMED


def test_a_publish_and_an_edit_are_refused(received, organiser_a):
    before = _state(received["event"])
    _refused(lambda: set_series_published(organiser_a, received["series"], True))
    _refused(lambda: update_event(organiser_a, received["event"], name="Umbenannt"))
    assert _state(received["event"]) == before


def test_a_seating_change_is_refused(received, organiser_a):
    # Seating writes move no public figure; they announce themselves
    # (tournaments.results.announce_change in lock_series), so the guard sees them.
    before = _state(received["event"])
    first, fifth = received["people"][0], received["people"][4]
    _refused(lambda: seating.swap_seats(organiser_a, received["series"], first.pk, fifth.pk))
    assert _state(received["event"]) == before


def test_an_entered_sheet_and_a_registration_are_refused(received, organiser_a, member_a):
    from scoring.sheets.services import save_sheet
    from tournaments.services import register_participant, set_checked_in

    before = _state(received["event"])
    table = received["series"].tables.order_by("number").first()
    _refused(lambda: save_sheet(organiser_a, table, {"hands": []}, expected_version=0))
    _refused(lambda: set_checked_in(organiser_a, received["people"][0], False))
    _refused(lambda: register_participant(organiser_a, received["event"], member_a))
    assert _state(received["event"]) == before


def test_the_refusal_reaches_the_director_as_a_403_page(received, organiser_a, client):
    client.force_login(organiser_a)
    url = reverse("standings:series_publish", args=[received["series"].pk])
    response = client.post(url, {"published": "1"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 403
    assert "Änderungen nur dort" in response.content.decode()
    assert not Series.objects.get(pk=received["series"].pk).published


def test_the_live_apply_passes_and_names_are_never_refused(received, member_a):
    event = received["event"]
    version = Event.objects.get(pk=event.pk).results_version
    assert not is_applying_live()
    with transaction.atomic(), applying_live():
        assert is_applying_live()
        bump_results_version(event.pk)
    assert not is_applying_live()
    player = received["people"][0].player
    bump_for_names(None, player_ids=[player.pk])
    assert Event.objects.get(pk=event.pk).results_version == version + 2


def test_the_guard_leaves_other_events_alone(received, club_a, scorer_a, organiser_a):
    event, series, _tables, _people, _grid = _event(club_a, scorer_a, organiser_a, "Vereinsabend")
    set_series_published(organiser_a, series, True)
    update_event(organiser_a, event, name="Vereinsabend II")
    assert Event.objects.get(pk=event.pk).name == "Vereinsabend II"


def test_after_the_take_over_the_server_may_write(received, organiser_a):
    from live.server.services import take_over

    take_over(organiser_a, received["copy"], "Laptop defekt")
    set_series_published(organiser_a, received["series"], True)
    assert Series.objects.get(pk=received["series"].pk).published
