"""`make run`'s demo data brings the demo federation, once."""

import pytest

from federation.demo import NATIONAL
from federation.models import Affiliation, Association, AssociationRole
from scoring.demo.seed import seed_demo

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_federation_and_seeds_it_once():
    seed_demo()
    national = Association.objects.get(name=NATIONAL)
    regions = list(Association.objects.filter(parent=national))
    assert len(regions) == 2
    assert Affiliation.objects.count() == 2
    officer = AssociationRole.objects.get(user__username="organiser")
    assert officer.role == "officer" and officer.association in regions
    record = national.history.first()
    assert record.history_change_reason == "Demodaten" and record.history_user.is_superuser
    seed_demo()
    assert Association.objects.count() == 3 and Affiliation.objects.count() == 2
