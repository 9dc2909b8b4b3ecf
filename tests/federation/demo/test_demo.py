"""`make run`'s demo data brings the demo federation, once."""

import pytest

from federation.demo.rankings import REQUESTED
from federation.demo.seed import NATIONAL
from federation.models import (
    Affiliation,
    Association,
    AssociationRole,
    Championship,
    EventVersion,
    Ranking,
    RankingStatus,
)
from scoring.demo.seed import seed_demo

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_federation_and_seeds_it_once():
    seed_demo()
    national = Association.objects.get(name=NATIONAL)
    regions = list(Association.objects.filter(parent=national))
    assert len(regions) == 2
    # the federation's two demo clubs, and the demo league's two more of the region
    assert Affiliation.objects.count() == 4
    officer = AssociationRole.objects.get(user__username="organiser")
    assert officer.role == "officer" and officer.association in regions
    record = national.history.first()
    assert record.history_change_reason == "Demodaten" and record.history_user.is_superuser
    seed_demo()
    assert Association.objects.count() == 3 and Affiliation.objects.count() == 4


def test_the_demo_federation_has_rankings_with_approved_events_and_a_request():
    seed_demo()
    regional = Ranking.objects.get(name="Landesrangliste Hessen")
    snapshot = regional.snapshots.order_by("-number").first()
    # Three tournaments approved: the demo tournament and the two of demo_rankings.
    assert EventVersion.objects.filter(status__ranking=regional, state="approved").count() == 3
    listed = [line for line in snapshot.lines if line["listed"]]
    assert listed and listed[0]["rank"] == 1 and listed[0]["events_counted"] >= 2
    assert RankingStatus.objects.get(event__name=REQUESTED[0]).state == "requested"
    championship = Championship.objects.get()
    assert championship.ranking.association.kind == "national"
    assert championship.wildcards.count() == 1
    seed_demo()
    assert Ranking.objects.count() == 2 and Championship.objects.count() == 1
