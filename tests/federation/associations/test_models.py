"""The tree's rules: two levels, a national association at the top, clubs in regional ones."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from federation.models import Affiliation, Association, AssociationRole
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _refused(instance, field=None):
    with pytest.raises(ValidationError) as caught:
        instance.full_clean()
    if field:
        assert field in caught.value.message_dict, caught.value.message_dict
    return caught.value


def test_a_national_association_has_no_parent(national):
    other = Association(name="Österreich", short_name="ÖRV", kind="national", parent=national)
    _refused(other, "parent")


def test_a_regional_association_needs_a_national_parent(national, region_a):
    _refused(Association(name="Ohne", short_name="O", kind="regional"), "parent")
    below_region = Association(name="Bezirk", short_name="BZ", kind="regional", parent=region_a)
    _refused(below_region, "parent")
    Association(name="Bayern", short_name="LV BY", kind="regional", parent=national).full_clean()


def test_no_association_is_its_own_parent_and_no_cycle(national, region_a):
    region_a.parent = region_a
    _refused(region_a, "parent")
    # The national association placed below its own region would close a cycle.
    national.kind, national.parent = "regional", region_a
    error = _refused(national)
    assert "parent" in error.message_dict or "kind" in error.message_dict


def test_the_database_refuses_a_national_one_with_a_parent(national):
    with pytest.raises(IntegrityError), transaction.atomic():
        Association.objects.create(name="X", short_name="X", kind="national", parent=national)


def test_kind_cannot_change_under_children_or_clubs(national, region_a, affiliation_a):
    national.kind, national.parent = "regional", None
    _refused(national)
    region_a.kind, region_a.parent = "national", None
    _refused(region_a, "kind")


def test_a_club_joins_a_regional_association_only_and_only_one(club_a, national, region_a,
                                                                region_b):  # fmt: skip
    _refused(Affiliation(club=club_a, association=national, since=dt.date(2025, 1, 1)),
             "association")  # fmt: skip
    Affiliation.objects.create(club=club_a, association=region_a, since=dt.date(2025, 1, 1))
    second = Affiliation(club=club_a, association=region_b, since=dt.date(2025, 1, 1))
    _refused(second, "club")
    with pytest.raises(IntegrityError), transaction.atomic():
        second.save()


def test_one_role_per_user_and_association_in_german(region_a):
    user = UserFactory(username="doppelt")
    AssociationRole.objects.create(user=user, association=region_a, role="viewer")
    with translation.override("de"):
        error = _refused(AssociationRole(user=user, association=region_a, role="officer"))
        assert "bereits" in " ".join(error.messages)
        bad = _refused(AssociationRole(user=UserFactory(), association=region_a, role="boss"))
        assert "associationrole_role_valid" not in " ".join(bad.messages)


def test_labels_are_german():
    with translation.override("de"):
        assert str(Association.Kind.NATIONAL.label) == "Bundesverband"
        assert str(Association.Kind.REGIONAL.label) == "Landesverband"
        assert str(AssociationRole.Role.OFFICER.label) == "Ranglistenwart"
        assert str(AssociationRole.Role.VIEWER.label) == "Betrachter"
