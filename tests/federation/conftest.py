"""A federation of two regions: club A in region A (Hessen), club B in region B (Thüringen),
both under one national association; officers and a viewer at each level."""

import datetime as dt

import pytest

from federation.models import Affiliation, Association, AssociationRole
from live.server.tokens import issue_token
from tests.factories import UserFactory
from tests.federation.submit_helpers import people

REASON = "Test"


@pytest.fixture
def national(db):
    return Association.objects.create(name="Deutscher Rommé-Verband", short_name="DRV",
                                      kind="national")  # fmt: skip


@pytest.fixture
def region_a(national):
    return Association.objects.create(
        name="Landesverband Hessen", short_name="LV HE", kind="regional", parent=national
    )


@pytest.fixture
def region_b(national):
    return Association.objects.create(
        name="Landesverband Thüringen", short_name="LV TH", kind="regional", parent=national
    )


@pytest.fixture
def affiliation_a(club_a, region_a):
    return Affiliation.objects.create(club=club_a, association=region_a, since=dt.date(2024, 1, 1))


@pytest.fixture
def affiliation_b(club_b, region_b):
    return Affiliation.objects.create(club=club_b, association=region_b, since=dt.date(2024, 1, 1))


def holder(association, role, username):
    user = UserFactory(username=username)
    AssociationRole.objects.create(user=user, association=association, role=role)
    return user


@pytest.fixture
def national_officer(national):
    return holder(national, "officer", "bundeswart")


@pytest.fixture
def officer_a(region_a):
    return holder(region_a, "officer", "wart_he")


@pytest.fixture
def officer_b(region_b):
    return holder(region_b, "officer", "wart_th")


@pytest.fixture
def viewer_region_a(region_a):
    return holder(region_a, "viewer", "leser_he")


@pytest.fixture
def players(club_a):
    """Club A's players of the submission tests (tests/federation/submit_helpers.people)."""
    return people(club_a)


@pytest.fixture
def token(club_a):
    """A club token of club A, as sent by the club's own installation."""
    return issue_token(club_a, label="Vereinsserver")[1]
