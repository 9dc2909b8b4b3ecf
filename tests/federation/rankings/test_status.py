"""Ranking status and versions (issue 27, point 3): request → grant → submit → approve, refusal,
re-submission during a review, problems blocking approval, and who may do what."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone, translation

from federation.models import EventVersion, RankingStatus
from federation.rankings import status_services as ss
from federation.rankings.versions import read_event
from scoring.models import Sheet
from tests.factories import EventFactory, SeriesFactory, user_with_role
from tests.federation.status_helpers import (
    FUTURE,
    make_ranking,
    played_event,
)
from tournaments.models import Participant, Series
from tournaments.results import bump_results_version


@pytest.fixture
def ranking_a(region_a, affiliation_a):
    return make_ranking(region_a, "Hessen-Rangliste")


@pytest.fixture
def ranking_national(national, affiliation_a):
    return make_ranking(national, "Deutsche Rangliste")


State = RankingStatus.State


def de(msgid, **params):
    """The German text of a problem (as versions.read_event writes it)."""
    with translation.override("de"):
        return translation.gettext(msgid) % params if params else translation.gettext(msgid)


@pytest.fixture
def event_a(club_a):
    return played_event(club_a)


@pytest.fixture
def granted(event_a, ranking_a, organiser_a, officer_a):
    status = ss.request_status(organiser_a, event_a, ranking_a, event_class="ranking")
    return ss.decide_status(officer_a, status, grant=True, reason="")


def test_whole_path_request_grant_submit_approve(
    event_a, ranking_a, organiser_a, officer_a, django_capture_on_commit_callbacks
):
    status = ss.request_status(organiser_a, event_a, ranking_a, event_class="ranking")
    assert status.state == State.REQUESTED
    status = ss.decide_status(officer_a, status, grant=True, reason="passt")
    assert status.state == State.GRANTED and status.decided_by == officer_a
    version = ss.submit_event(organiser_a, status)
    assert version.number == 1 and version.state == EventVersion.State.PENDING
    assert version.problems == [] and version.field_size == 8 and version.series_count == 2
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        version = ss.approve_version(officer_a, version, note="ok")
    assert len(callbacks) == 1  # the computation asked for once committed
    assert version.state == EventVersion.State.APPROVED and version.counted_from
    status.refresh_from_db()
    assert status.state == State.APPROVED
    # every step is in the history with its reason
    reasons = list(status.history.values_list("history_change_reason", flat=True))
    assert len(reasons) == 4 and all(reasons)
    assert version.history.filter(history_user=officer_a).exists()


def test_refusal_needs_a_reason_and_can_be_asked_again(event_a, ranking_a, organiser_a, officer_a):
    status = ss.request_status(organiser_a, event_a, ranking_a, event_class="ranking")
    with pytest.raises(ValidationError):
        ss.decide_status(officer_a, status, grant=False, reason="  ")
    status = ss.decide_status(officer_a, status, grant=False, reason="zu kleines Feld")
    assert status.state == State.REFUSED and status.reason == "zu kleines Feld"
    with pytest.raises(ValidationError):
        ss.submit_event(organiser_a, status)  # refused: nothing to submit
    again = ss.request_status(organiser_a, event_a, ranking_a, event_class="championship")
    assert again.pk == status.pk and again.state == State.REQUESTED


def test_request_twice_is_refused(event_a, ranking_a, organiser_a):
    ss.request_status(organiser_a, event_a, ranking_a, event_class="ranking")
    with pytest.raises(ValidationError):
        ss.request_status(organiser_a, event_a, ranking_a, event_class="ranking")


def test_national_ranking_may_be_asked(event_a, ranking_national, organiser_a, national_officer):
    status = ss.request_status(organiser_a, event_a, ranking_national, event_class="ranking")
    ss.decide_status(national_officer, status, grant=True, reason="")


def test_request_only_before_the_event_starts(club_a, ranking_a, organiser_a):
    past = played_event(club_a, start_date=timezone.localdate() - dt.timedelta(days=1))
    with pytest.raises(ValidationError):
        ss.request_status(organiser_a, past, ranking_a, event_class="ranking")
    # today, no series seated yet: still before the start
    today = EventFactory(club=club_a, start_date=timezone.localdate())
    SeriesFactory(event=today)
    assert ss.request_status(organiser_a, today, ranking_a, event_class="ranking")


def test_ranking_of_another_region_cannot_be_asked(event_a, region_b, organiser_a):
    other = make_ranking(region_b, "Thüringen")
    with pytest.raises(ValidationError):
        ss.request_status(organiser_a, event_a, other, event_class="ranking")


def test_organiser_of_another_club_is_refused(event_a, ranking_a, club_b, granted):
    stranger = user_with_role(club_b, "organiser", username="org_b")
    with pytest.raises(PermissionDenied):
        ss.request_status(stranger, event_a, ranking_a, event_class="ranking")
    with pytest.raises(PermissionDenied):
        ss.submit_event(stranger, granted)


def test_officer_of_another_region_is_refused(
    event_a, ranking_a, organiser_a, officer_b, officer_a
):
    status = ss.request_status(organiser_a, event_a, ranking_a, event_class="ranking")
    with pytest.raises(PermissionDenied):
        ss.decide_status(officer_b, status, grant=True, reason="")
    status = ss.decide_status(officer_a, status, grant=True, reason="")
    version = ss.submit_event(organiser_a, status)
    with pytest.raises(PermissionDenied):
        ss.approve_version(officer_b, version)
    with pytest.raises(PermissionDenied):
        ss.reject_version(officer_b, version, note="nein")
    version.refresh_from_db()
    assert version.state == EventVersion.State.PENDING


def test_event_without_status_cannot_be_submitted(event_a, ranking_a, organiser_a):
    status = ss.request_status(organiser_a, event_a, ranking_a, event_class="ranking")
    with translation.override("en"), pytest.raises(ValidationError, match="no ranking status"):
        ss.submit_event(organiser_a, status)  # requested, not granted
    assert not EventVersion.objects.exists()


def test_resubmission_during_review_restarts_it(granted, organiser_a, officer_a, event_a):
    first = ss.submit_event(organiser_a, granted)
    with pytest.raises(ValidationError):  # nothing changed since
        ss.submit_event(organiser_a, granted)
    bump_results_version(event_a.pk)
    second = ss.submit_event(organiser_a, granted)
    first.refresh_from_db()
    assert first.state == EventVersion.State.SUPERSEDED and second.number == 2
    with pytest.raises(ValidationError):
        ss.approve_version(officer_a, first)
    ss.approve_version(officer_a, second)


def test_problems_block_approval(club_a, ranking_a, organiser_a, officer_a):
    event = played_event(club_a, series=2, confirmed_series=1, entered_tables=1)
    status = ss.request_status(organiser_a, event, ranking_a, event_class="ranking")
    ss.decide_status(officer_a, status, grant=True, reason="")
    version = ss.submit_event(organiser_a, status)
    assert de("Series %(series)d is not complete.", series=2) in version.problems
    assert (
        de(
            "Series %(series)d, table %(table)d: the score sheet is not confirmed.",
            series=2,
            table=1,
        )
        in version.problems
    )
    with translation.override("en"), pytest.raises(ValidationError, match="problems remain"):
        ss.approve_version(officer_a, version)
    ss.reject_version(officer_a, version, note="erst fertig spielen")
    status.refresh_from_db()
    assert status.state == State.GRANTED


def test_disputed_sheet_is_named(event_a, granted, organiser_a):
    sheet = Sheet.objects.filter(table__series__event=event_a, table__series__number=2).first()
    Sheet.objects.filter(pk=sheet.pk).update(status=Sheet.Status.DISPUTED)
    version = ss.submit_event(organiser_a, granted)
    text = de("Series %(series)d, table %(table)d: the score sheet is disputed.", series=2,
              table=sheet.table.number)  # fmt: skip
    assert text in version.problems


def test_correction_after_approval_is_a_new_version(granted, organiser_a, officer_a, event_a):
    first = ss.approve_version(officer_a, ss.submit_event(organiser_a, granted))
    bump_results_version(event_a.pk)
    second = ss.submit_event(organiser_a, granted)
    first.refresh_from_db()
    assert first.state == EventVersion.State.APPROVED  # counts on while the review runs
    ss.approve_version(officer_a, second)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.state == EventVersion.State.SUPERSEDED
    assert first.counted_until == second.counted_from


def test_read_event_places_field_and_flags(event_a):
    participant = Participant.objects.filter(event=event_a).first()
    Participant.objects.filter(pk=participant.pk).update(disqualified=True, withdrawn_from_series=2)
    read = read_event(event_a)
    assert read.field_size == 8 and read.series_count == 2 and not read.problems
    places = [r["place"] for r in read.results]
    assert places[0] == 1 and places == sorted(places)
    for before, after in zip(read.results, read.results[1:], strict=False):
        # a shared place only for equal scores
        assert before["place"] < after["place"] or before["score"] == after["score"]
    assert all(r["hands"] > 0 for r in read.results)
    mine = next(r for r in read.results if r["player"] == participant.player_id)
    assert mine["disqualified"] and mine["withdrawn"]


def test_read_event_unpublished_and_empty(club_a):
    event = played_event(club_a)
    Series.objects.filter(event=event, number=1).update(published=False)
    assert de("Series %(series)d is not published.", series=1) in read_event(event).problems
    empty = EventFactory(club=club_a, start_date=FUTURE)
    assert read_event(empty).problems == [de("The event has no series.")]
