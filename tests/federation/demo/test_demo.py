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


def test_the_demo_keeps_four_eyes():
    from django.contrib.auth import get_user_model

    from federation.rankings.status_services import own_request

    seed_demo()
    organiser = get_user_model().objects.get(username="organiser")
    admin = get_user_model().objects.get(username="admin")
    # the demo organiser, Hessen's officer, decides Fulda's events, never his own club's
    assert RankingStatus.objects.filter(decided_by=organiser).exists()
    assert not RankingStatus.objects.filter(requested_by=organiser, decided_by=organiser).exists()
    assert EventVersion.objects.filter(reviewed_by=organiser).exists()
    assert not EventVersion.objects.filter(submitted_by=organiser, reviewed_by=organiser).exists()
    # his request for the winter tournament waits for the administrator
    waiting = RankingStatus.objects.get(event__name=REQUESTED[0])
    assert waiting.requested_by == organiser and own_request(organiser, waiting)
    assert not own_request(admin, waiting)
