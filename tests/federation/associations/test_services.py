"""The writes: each checks the actor's role, refuses bad input in German, and leaves a
history entry with the acting user and the reason."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from federation.associations import services
from federation.models import Affiliation, Association, AssociationRole
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
DAY = dt.date(2025, 3, 1)


def _last(model, **filters):
    return model.history.filter(**filters).order_by("-history_date", "-history_id").first()


def test_only_a_superuser_creates_associations(superuser, national_officer):
    with pytest.raises(PermissionDenied):
        services.create_association(national_officer, name="X", short_name="X",
                                    kind="national", reason="neu")  # fmt: skip
    made = services.create_association(
        superuser, name="Deutscher Verband", short_name="DV", kind="national", reason="Gründung"
    )
    record = _last(Association, id=made.pk)
    assert record.history_user == superuser and record.history_change_reason == "Gründung"


def test_a_reason_is_required_and_short(superuser):
    with translation.override("de"), pytest.raises(ValidationError) as caught:
        services.create_association(superuser, name="A", short_name="A", kind="national",
                                    reason="  ")  # fmt: skip
    assert "Grund" in caught.value.message_dict["reason"][0]
    with pytest.raises(ValidationError):
        services.create_association(superuser, name="A", short_name="A", kind="national",
                                    reason="x" * 101)  # fmt: skip
    assert not Association.objects.exists()


def test_officers_rename_but_only_a_superuser_reshapes(region_a, officer_a, officer_b, national,
                                                       superuser):  # fmt: skip
    services.update_association(officer_a, region_a, name="LV Hessen e.V.", reason="Satzung")
    assert Association.objects.get(pk=region_a.pk).name == "LV Hessen e.V."
    with pytest.raises(PermissionDenied):
        services.update_association(officer_b, region_a, name="Fremd", reason="nein")
    with pytest.raises(PermissionDenied):
        services.update_association(officer_a, national, name="Oben", reason="nein")
    other = Association.objects.create(name="Österreich", short_name="ÖRV", kind="national")
    with pytest.raises(PermissionDenied):
        services.update_association(officer_a, region_a, parent=other, reason="Umzug")
    services.update_association(superuser, region_a, parent=other, reason="Umzug")
    assert Association.objects.get(pk=region_a.pk).parent_id == other.pk


def test_affiliate_move_and_end_with_history(club_a, region_a, region_b, national_officer):
    made = services.affiliate_club(national_officer, club_a, region_a, since=DAY,
                                   reason="Aufnahme")  # fmt: skip
    services.move_club(national_officer, made, region_b, since=DAY, reason="Umzug")
    assert Affiliation.objects.get(club=club_a).association == region_b
    services.end_affiliation(national_officer, Affiliation.objects.get(club=club_a),
                             reason="Austritt")  # fmt: skip
    assert not Affiliation.objects.filter(club=club_a).exists()
    records = list(Affiliation.history.filter(club_id=club_a.pk).order_by("history_date"))
    assert [(r.history_type, r.history_change_reason, r.history_user) for r in records] == [
        ("+", "Aufnahme", national_officer),
        ("~", "Umzug", national_officer),
        ("-", "Austritt", national_officer),
    ]


def test_a_regional_officer_acts_on_their_region_only(club_a, club_b, region_a, region_b,
                                                      officer_a, affiliation_b):  # fmt: skip
    services.affiliate_club(officer_a, club_a, region_a, since=DAY, reason="Aufnahme")
    with pytest.raises(PermissionDenied):
        services.move_club(officer_a, affiliation_b, region_a, since=DAY, reason="Abwerben")
    with pytest.raises(PermissionDenied):
        services.end_affiliation(officer_a, affiliation_b, reason="Raus")
    mine = Affiliation.objects.get(club=club_a)
    with pytest.raises(PermissionDenied):
        services.move_club(officer_a, mine, region_b, since=DAY, reason="Weg")
    assert Affiliation.objects.get(club=club_b).association == region_b


def test_a_club_is_in_one_association_and_never_a_national_one(
    club_a, national, region_b, affiliation_a, superuser
):
    with translation.override("de"), pytest.raises(ValidationError) as caught:
        services.affiliate_club(superuser, club_a, region_b, since=DAY, reason="doppelt")
    assert "gehört bereits zu" in caught.value.message_dict["club"][0]
    with pytest.raises(ValidationError):
        services.move_club(superuser, affiliation_a, national, since=DAY, reason="hoch")
    with pytest.raises(ValidationError):
        services.move_club(superuser, affiliation_a, affiliation_a.association, since=DAY,
                           reason="gleich")  # fmt: skip


def test_roles_below_but_never_above_or_beside(national, region_a, region_b, officer_a,
                                              national_officer):  # fmt: skip
    helper = UserFactory(username="helfer")
    role = services.grant_role(officer_a, region_a, helper, "viewer", reason="Mitlesen")
    record = _last(AssociationRole, id=role.pk)
    assert (record.history_user, record.history_change_reason) == (officer_a, "Mitlesen")
    for target in (national, region_b):
        with pytest.raises(PermissionDenied):
            services.grant_role(officer_a, target, helper, "officer", reason="mehr")
    # The national officer acts on every region.
    services.grant_role(national_officer, region_b, helper, "officer", reason="Vertretung")
    with pytest.raises(ValidationError):
        services.grant_role(officer_a, region_a, helper, "viewer", reason="nochmal")
    services.revoke_role(officer_a, role, reason="Ende")
    gone = _last(AssociationRole, id=role.pk)
    assert (gone.history_type, gone.history_change_reason) == ("-", "Ende")


def test_no_one_changes_their_own_role(region_a, officer_a):
    own = AssociationRole.objects.get(user=officer_a)
    with pytest.raises(ValidationError):
        services.grant_role(officer_a, region_a, officer_a, "viewer", reason="runter")
    with pytest.raises(ValidationError):
        services.revoke_role(officer_a, own, reason="weg")
    assert AssociationRole.objects.get(user=officer_a).role == "officer"


def test_a_viewer_and_a_club_organiser_change_nothing(club_b, region_a, viewer_region_a,
                                                     organiser_a):  # fmt: skip
    for actor in (viewer_region_a, organiser_a):
        with pytest.raises(PermissionDenied):
            services.affiliate_club(actor, club_b, region_a, since=DAY, reason="x")
        with pytest.raises(PermissionDenied):
            services.grant_role(actor, region_a, UserFactory(), "viewer", reason="x")
    assert not Affiliation.objects.exists()
