"""The demo data (`make run`): the demo tournament comes with entry fees, payments and a
prize plan, so a new user opens a filled prize list; seeding twice changes nothing."""

import io

import pytest
from django.core.management import call_command
from django.utils import translation

from prizes.models import EntryPayment, PrizePlan
from prizes.plan.selectors import prize_list
from scoring.demo.seed import TOURNAMENT
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_the_demo_tournament_has_a_filled_prize_list():
    call_command("seed_demo", stdout=io.StringIO())
    event = Event.objects.get(name=TOURNAMENT)
    plan = PrizePlan.objects.get(event=event)
    paid = EntryPayment.objects.filter(participant__event=event).exclude(status="open").count()
    assert paid == event.participants.count() - 2
    with translation.override("de"):
        listing = prize_list(event)
    assert listing.collected > 0 and listing.paid > 0 and len(listing.rows) >= 6
    assert {"Gesamtwertung", "Serie 1", "Tandems", "Mannschaften"} <= {
        r.standing for r in listing.rows
    }
    call_command("seed_demo", stdout=io.StringIO())
    assert PrizePlan.history.filter(event=event).count() == 1 and plan.pk
