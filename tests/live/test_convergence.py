"""Issue 28 item 5: after any sequence of changes on the laptop, sent as parts (all of
them or only the changed ones, some batches lost and sent again, some delivered twice),
the server's event archive equals the laptop's, field by field, and so do its results."""

import contextlib
import copy
import random
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.permissions import ORGANISER
from live.server.apply import apply_batch, create_event
from live.shared.parts import event_parts
from prizes.models import EntryFee
from scoring.models import Sheet
from scoring.sheets.services import SheetInvalid, confirm_sheet, save_sheet
from tests.factories import ParticipantFactory, PlayerFactory, user_with_role
from tests.live.server.test_apply import (
    assert_same,
    batch,
    changed_parts,
    laptop_event,
    make_token,
)
from tournaments.models import Category, CategoryChoice, Group, Participant, Seat, Series, Table

pytestmark = pytest.mark.django_db


class Laptop:
    """The director's changes, as the laptop's services and registry make them."""

    def __init__(self, event):
        self.event = event
        self.leader = user_with_role(event.club, ORGANISER, username="leiter", password=None)
        self.helper = user_with_role(event.club, ORGANISER, username="helfer", password=None)
        self.new_players = 0

    def _sheets(self, status):
        return list(
            Sheet.objects.filter(table__series__event=self.event, status=status)
            .select_related("table")
            .order_by("table__series__number", "table__number")
        )

    def confirm(self, k):
        entered = self._sheets(Sheet.Status.ENTERED)
        if entered:
            sheet = entered[k % len(entered)]
            actor = self.helper if sheet.entered_by_id == self.leader.pk else self.leader
            grid = sheet.versions.order_by("-number").first().grid
            confirm_sheet(actor, sheet.table, grid, expected_version=sheet.version)

    def correct(self, k):
        confirmed = self._sheets(Sheet.Status.CONFIRMED)
        if confirmed:
            sheet = confirmed[k % len(confirmed)]
            grid = copy.deepcopy(sheet.versions.order_by("-number").first().grid)
            hand = grid["hands"][0]
            loser = (hand["winner"] + 1) % len(hand["seats"])
            seat = hand["seats"][loser]
            seat["hand_points"], seat["cards"] = (seat["hand_points"] or 10) % 60 + 1, None
            # The rules may refuse this correction (a loser's minimum): then nothing changed.
            with contextlib.suppress(SheetInvalid):
                save_sheet(self.leader, sheet.table, grid, expected_version=sheet.version,
                           reason="Korrektur")  # fmt: skip

    def publish(self, k):
        series = list(Series.objects.filter(event=self.event).order_by("number"))
        chosen = series[k % len(series)]
        Series.objects.filter(pk=chosen.pk).update(published=not chosen.published)

    def withdraw(self, k):
        people = list(Participant.objects.filter(event=self.event).order_by("pk"))
        chosen = people[k % len(people)]
        later = None if chosen.withdrawn_from_series else 9
        Participant.objects.filter(pk=chosen.pk).update(withdrawn_from_series=later)

    def seat(self, k):
        """A new series, seated by lot (tables of 3 to 5)."""
        last = Series.objects.filter(event=self.event).order_by("-number").first()
        if last.number >= 7:
            return
        series = Series.objects.create(
            event=self.event, number=last.number + 1, planned_rounds=1, status="seated",
            draw_method="lot", draw_seed=k, published=bool(k % 2),
        )  # fmt: skip
        people = list(Participant.objects.filter(event=self.event).order_by("pk"))
        random.Random(k).shuffle(people)
        sizes = [4] * (len(people) // 4)
        for extra in range(len(people) % 4):
            sizes[extra % len(sizes)] += 1
        start = 0
        for number, size in enumerate(sizes, start=1):
            table = Table.objects.create(series=series, number=number)
            for position, person in enumerate(people[start : start + size]):
                Seat.objects.create(table=table, series=series, position=position,
                                    participant=person)  # fmt: skip
            start += size

    def unseat(self, k):
        """The newest series again (a draw made twice), if nothing was played in it."""
        last = Series.objects.filter(event=self.event).order_by("-number").first()
        if last.number > 4 and not Sheet.objects.filter(table__series=last).exists():
            last.delete()

    def register(self, k):
        self.new_players += 1
        player = PlayerFactory(player_number=f"N{self.new_players:03d}", birth_year=1950 + k)
        ParticipantFactory(event=self.event, player=player, club=None)

    def remove(self, k):
        unseated = Participant.objects.filter(event=self.event, seats__isnull=True)
        chosen = unseated.order_by("pk").first()
        if chosen is not None:
            chosen.delete()

    def category(self, k):
        found = Category.objects.filter(event=self.event, name="Damen").first()
        if found is not None:
            found.delete()
            return
        category = Category.objects.create(event=self.event, kind="women", name="Damen")
        people = list(Participant.objects.filter(event=self.event).order_by("pk"))
        CategoryChoice.objects.create(
            category=category, participant=people[k % len(people)], included=True
        )

    def fee(self, k):
        EntryFee.objects.update_or_create(
            event=self.event, category=None, defaults={"amount": Decimal(k % 20) + Decimal("0.5")}
        )

    def venue(self, k):
        type(self.event).objects.filter(pk=self.event.pk).update(venue=f"Saal {k}")

    def rename_pair(self, k):
        pair = Group.objects.filter(event=self.event, kind="pair").order_by("pk").first()
        Group.objects.filter(pk=pair.pk).update(name=f"Paar {k}")


CHANGES = [name for name in vars(Laptop) if not name.startswith("_")]
SENDS = ["changed", "all", "dropped", "twice"]

steps = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(CHANGES), st.integers(0, 50)),
        st.tuples(st.just("send"), st.sampled_from(SENDS)),
    ),
    max_size=10,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_the_server_converges_to_the_laptop(steps):
    rollback = transaction.savepoint()
    try:
        _run(steps)
    finally:
        transaction.savepoint_rollback(rollback)


def _run(steps):
    event = laptop_event(players=13, series=4)
    laptop = Laptop(event)
    received = create_event(make_token(event.club), batch(event_parts(event), event_id=event.pk))
    acked = event_parts(event)  # what the server acknowledged
    for kind, arg in steps:
        if kind != "send":
            getattr(laptop, kind)(arg)
            continue
        now = event_parts(event)
        parts, removed = changed_parts(acked, now)
        if arg == "all":
            parts = now
        if arg == "dropped":  # lost on the way: nothing acknowledged, sent again later
            continue
        apply_batch(received, batch(parts, removed, event_id=event.pk))
        if arg == "twice":
            apply_batch(received, batch(parts, removed, event_id=event.pk))
        acked = now
    parts, removed = changed_parts(acked, event_parts(event))
    apply_batch(received, batch(parts, removed, event_id=event.pk))
    assert_same(event, received.event)


def test_every_change_converges_in_one_run():
    """Each change once, sent after each: a plain walk through all of them."""
    _run([step for name in CHANGES for step in ((name, 3), ("send", "changed"))])
