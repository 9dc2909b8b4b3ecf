"""Helpers for the standings DB layer: stored hands with chosen points, generated events."""

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def make_event(club, *, players=4, chain=("total",), prize_lines=(1,), **fields):
    """An event of ``club`` with ``players`` participants (names P1..Pn)."""
    from tests.factories import EventFactory, ParticipantFactory

    event = EventFactory(
        club=club, tie_break_chain=list(chain), prize_lines=list(prize_lines), **fields
    )
    people = [
        ParticipantFactory(
            event=event, player__given_name="P", player__family_name=str(i + 1), club=club
        )
        for i in range(players)
    ]
    return event, people


def add_series(event, participants, hands, *, number=None, status="confirmed", day=1,
               published=True, kind="regular", table_number=1):  # fmt: skip
    """A series with one table of ``participants`` and a sheet of ``hands``.

    Each hand is ``(winner, hand_romme, [(hand_points, points), ...])`` in seat order.
    """
    from tests.factories import seated_table
    from tournaments.models import Series

    if number is None:
        number = (
            event.series.order_by("-number").values_list("number", flat=True).first() or 0
        ) + 1
    series = Series.objects.create(
        event=event, number=number, planned_rounds=1, day=day, published=published, kind=kind,
        status=Series.Status.COMPLETE,
    )  # fmt: skip
    table = seated_table(series, participants, table_number)
    store_sheet(table, hands, status=status)
    return series


def store_sheet(table, hands, *, status="confirmed"):
    from django.contrib.auth import get_user_model

    from scoring.models import Hand, HandSeat, Sheet
    from scoring.sheets.storage import refresh_seat_totals

    User = get_user_model()
    entered, _ = User.objects.get_or_create(username="helper_entered")
    confirmed, _ = User.objects.get_or_create(username="helper_confirmed")
    sheet = Sheet.objects.create(
        table=table,
        status=status,
        version=1,
        entered_by=entered,
        confirmed_by=confirmed if status == "confirmed" else None,
    )
    ids = list(table.seats.order_by("position").values_list("participant_id", flat=True))
    for n, (winner, romme, seats) in enumerate(hands, start=1):
        hand = Hand.objects.create(
            sheet=sheet, number=n, dealer=(n - 1) % len(ids), winner=winner, hand_romme=romme
        )
        HandSeat.objects.bulk_create(
            HandSeat(
                hand=hand,
                position=k,
                participant_id=ids[k],
                hand_points=hp,
                held_points=hp,
                points=pts,
            )
            for k, (hp, pts) in enumerate(seats)
        )
    # these rows are written by hand (arbitrary points); their totals come the one way
    refresh_seat_totals([sheet.pk])
    return sheet


def generated(club, players, *, series=2, rounds=1, pairs=0, teams=0, seed=7, **plan):
    """A full event from scoring.demo.generate with ``players`` new players of ``club``."""
    from bench.rigs.datasets import _players
    from scoring.demo.generate import Plan, generate_event

    people = _players(players, [club], f"G{seed}-{players}-")
    return generate_event(
        Plan(name=f"Gen {players}", club=club, players=people, series=series, rounds=rounds,
             pairs=pairs, teams=teams, seed=seed, **plan)
    )  # fmt: skip


def director(club, username="director"):
    from tests.factories import user_with_role

    return user_with_role(club, "organiser", username=username)
