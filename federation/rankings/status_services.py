"""The ranking status of an event and the versions of its results (issue 27, point 3): the
club's organiser asks for status before the event starts, the ranking's officer grants or
refuses it; after the event the organiser submits it, the officer approves or rejects the
version. One transaction each, the actor's role checked here, every change in the history
(django-simple-history, with the reason). Four eyes: whoever asked for a status does not
decide on it, whoever submitted a version does not review it (`own_request`,
`own_submission`). Only approved versions count; an approval or a rejection asks for the
ranking to be computed again once committed (`compute`)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, has_role, require_role
from common.history import save_with_history
from federation.associations.models import Affiliation
from federation.associations.permissions import can_manage, require_manage
from federation.associations.services import clean_reason
from federation.rankings import compute, versions
from federation.rankings.models import EventVersion, Ranking, RankingStatus
from tournaments.models import Event, Series

State = RankingStatus.State
# A status in these states takes a (new) version of the event's results.
SUBMITTABLE = (State.GRANTED, State.SUBMITTED, State.APPROVED)
NOTE_MAX = 300
# `submit_version`'s default sender: the actor.
ACTOR = object()


def rankings_for_club(club_id: int):
    """The rankings a club's event may ask status under: its region's and the national
    association's above it (two queries)."""
    affiliation = Affiliation.objects.filter(club_id=club_id).select_related("association").first()
    if affiliation is None:
        return Ranking.objects.none()
    region = affiliation.association
    ids = [region.pk] + ([region.parent_id] if region.parent_id else [])
    return Ranking.objects.filter(association_id__in=ids).select_related("association")


def event_started(event: Event) -> bool:
    """The event has begun: its first day has come and a series is seated or played."""
    if event.start_date > timezone.localdate():
        return False
    return Series.objects.filter(event=event).exclude(status=Series.Status.PLANNED).exists()


# Four eyes


def own_request(user, status: RankingStatus) -> bool:
    """The user asked for this status and so may not grant or refuse it. A superuser may:
    an installation with one administrator must not leave its requests undecided."""
    return (
        not user.is_superuser
        and status.requested_by_id is not None
        and status.requested_by_id == user.pk
    )


def own_submission(user, version: EventVersion) -> bool:
    """The user submitted (or uploaded) this version and so may not approve or reject it;
    superusers may, as for `own_request`."""
    return (
        not user.is_superuser
        and version.submitted_by_id is not None
        and version.submitted_by_id == user.pk
    )


def _refuse_own_request(actor, status: RankingStatus) -> None:
    if own_request(actor, status):
        raise PermissionDenied(
            _(
                "You asked for this ranking status yourself, so you may not decide on it: "
                "another ranking officer of “%(association)s” or an administrator decides."
            )
            % {"association": status.ranking.association.name}
        )


def _refuse_own_submission(actor, version: EventVersion) -> None:
    if own_submission(actor, version):
        raise PermissionDenied(
            _(
                "You submitted this version yourself, so you may not review it: another "
                "ranking officer of “%(association)s” or an administrator approves or "
                "rejects it."
            )
            % {"association": version.status.ranking.association.name}
        )


# Status


@transaction.atomic
def request_status(actor, event: Event, ranking: Ranking, *, event_class: str, reason: str = ""):
    """The organiser of the event's club asks for status under a ranking of the club's
    association (or its national parent), before the event starts. A refused or withdrawn
    request may be asked again."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    require_role(actor, event.club, ORGANISER)
    if not rankings_for_club(event.club_id).filter(pk=ranking.pk).exists():
        raise ValidationError({"ranking": _("Your club's association does not keep this ranking.")})
    if event_class not in RankingStatus.EventClass.values:
        raise ValidationError({"event_class": _("Choose ranking tournament or championship.")})
    if event_started(event):
        raise ValidationError(
            _("Ranking status is asked for before the event starts; this one has begun.")
        )
    reason = (reason or "").strip()[:NOTE_MAX]
    status = RankingStatus.objects.select_for_update().filter(event=event, ranking=ranking).first()
    if status is not None and status.state not in (State.REFUSED, State.WITHDRAWN):
        raise ValidationError(
            _("This event already has the status “%(state)s” under this ranking.")
            % {"state": status.get_state_display()}
        )
    status = status or RankingStatus(event=event, ranking=ranking)
    status.event_class = event_class
    status.state = State.REQUESTED
    status.requested_by = actor
    status.decided_by, status.decided_at = None, None
    status.reason = reason
    return save_with_history(status, actor, _("Ranking status requested"))


def _status(pk) -> RankingStatus:
    return (
        RankingStatus.objects.select_for_update()
        .select_related("event", "ranking__association")
        .get(pk=pk)
    )


@transaction.atomic
def decide_status(actor, status: RankingStatus, *, grant: bool, reason: str):
    """The ranking's officer grants or refuses a request (a refusal gives its reason); not
    the one who asked for it (`own_request`)."""
    status = _status(status.pk)
    require_manage(actor, status.ranking.association)
    _refuse_own_request(actor, status)
    if status.state != State.REQUESTED:
        raise ValidationError(
            _("Only a request can be granted or refused; this status is “%(state)s”.")
            % {"state": status.get_state_display()}
        )
    reason = (reason or "").strip()
    if not grant and not reason:
        raise ValidationError({"reason": _("Say why the request is refused.")})
    if len(reason) > NOTE_MAX:
        raise ValidationError(
            {"reason": _("The reason may have at most %(max)d characters.") % {"max": NOTE_MAX}}
        )
    status.state = State.GRANTED if grant else State.REFUSED
    status.decided_by, status.decided_at = actor, timezone.now()
    status.reason = reason
    return save_with_history(
        status, actor, _("Ranking status granted") if grant else _("Ranking status refused")
    )


@transaction.atomic
def withdraw_status(actor, status: RankingStatus, *, reason: str):
    """The organiser withdraws a request or a granted status that has counted nothing yet."""
    status = _status(status.pk)
    if not (
        has_role(actor, status.event.club, ORGANISER)
        or can_manage(actor, status.ranking.association)
    ):
        raise PermissionDenied(_("Only the club's organisers or the ranking officer may do this."))
    reason = clean_reason(reason)
    if status.state not in (State.REQUESTED, State.GRANTED):
        raise ValidationError(
            _("Only a request or a granted status without results can be withdrawn.")
        )
    status.state = State.WITHDRAWN
    status.reason = reason
    return save_with_history(status, actor, reason)


# Versions


@transaction.atomic
def submit_version(
    actor,
    status: RankingStatus,
    results: list[dict],
    source: str,
    *,
    field_size: int,
    series_count: int,
    results_version: int = 0,
    problems: list[str] | None = None,
    checked: bool = False,
    sender=ACTOR,
) -> EventVersion:
    """A new version of the event's results for review. A version still waiting is
    superseded (its review restarts on this one); an approved one counts on until this one
    is approved. `actor` must be an organiser of the event's club or the ranking's officer,
    unless `checked` (a caller that checked a club token for the event's club itself).
    `sender` is recorded as the submitter when it is not the actor: the four-eyes rule reads
    it, and an officer whose matching decision takes in a club's arrival did not send it."""
    status = _status(status.pk)
    if not checked and not (
        has_role(actor, status.event.club, ORGANISER)
        or can_manage(actor, status.ranking.association)
    ):
        raise PermissionDenied(_("Only the club's organisers or the ranking officer may do this."))
    if source not in EventVersion.Source.values:
        raise ValidationError(_("Unknown source of a version."))
    if status.state not in SUBMITTABLE:
        raise ValidationError(
            _("This event has no ranking status under “%(ranking)s” to submit it for.")
            % {"ranking": status.ranking.name}
        )
    waiting = EventVersion.objects.select_for_update().filter(
        status=status, state=EventVersion.State.PENDING
    )
    sender = actor if sender is ACTOR else sender
    user = sender if sender is not None and sender.is_authenticated else None
    for old in waiting:
        old.state = EventVersion.State.SUPERSEDED
        old.review_note = _("Replaced by a newer submission before the review.")
        save_with_history(old, actor, _("Superseded by a new submission"))
    number = (EventVersion.objects.filter(status=status).aggregate(n=Max("number"))["n"] or 0) + 1
    version = EventVersion(
        status=status,
        number=number,
        source=source,
        results_version=results_version,
        field_size=field_size,
        series_count=series_count,
        results=results,
        problems=list(problems or []),
        submitted_by=user,
    )
    save_with_history(version, actor, _("Submitted for review"))
    status.state = State.SUBMITTED
    save_with_history(status, actor, _("Submitted for review"))
    return version


@transaction.atomic
def submit_event(actor, status: RankingStatus) -> EventVersion:
    """An event played here submitted by its club's organiser: its results read now
    (`versions.read_event`). An approved event comes back only when corrected since."""
    status = _status(status.pk)
    require_role(actor, status.event.club, ORGANISER)
    if status.state not in SUBMITTABLE:
        raise ValidationError(
            _("This event has no ranking status under “%(ranking)s” to submit it for.")
            % {"ranking": status.ranking.name}
        )
    read = versions.read_event(status.event)
    latest = status.versions.order_by("-number").first()
    if (
        latest is not None
        and latest.state in (EventVersion.State.APPROVED, EventVersion.State.PENDING)
        and latest.source == EventVersion.Source.HERE
        and latest.results_version == read.results_version
    ):
        raise ValidationError(
            _("The results have not changed since version %(number)d was submitted.")
            % {"number": latest.number}
        )
    return submit_version(
        actor,
        status,
        read.results,
        EventVersion.Source.HERE,
        field_size=read.field_size,
        series_count=read.series_count,
        results_version=read.results_version,
        problems=read.problems,
    )


def _version(pk) -> EventVersion:
    return (
        EventVersion.objects.select_for_update()
        .select_related("status__event", "status__ranking__association")
        .get(pk=pk)
    )


@transaction.atomic
def approve_version(actor, version: EventVersion, *, note: str = "") -> EventVersion:
    """The officer approves a waiting version without problems: it counts from now, the
    version approved before it until now. Not the one who submitted it (`own_submission`)."""
    version = _version(version.pk)
    status = RankingStatus.objects.select_for_update().get(pk=version.status_id)
    require_manage(actor, version.status.ranking.association)
    _refuse_own_submission(actor, version)
    if version.state != EventVersion.State.PENDING:
        raise ValidationError(
            _("Version %(number)d is not waiting for review.") % {"number": version.number}
        )
    if version.problems:
        raise ValidationError(
            _("Version %(number)d cannot be approved while problems remain.")
            % {"number": version.number}
        )
    note = _note(note, required=False)
    now = timezone.now()
    for old in EventVersion.objects.select_for_update().filter(
        status=status, state=EventVersion.State.APPROVED
    ):
        old.state = EventVersion.State.SUPERSEDED
        old.counted_until = now
        save_with_history(
            old, actor, _("Superseded by version %(number)d") % {"number": version.number}
        )
    version.state = EventVersion.State.APPROVED
    version.reviewed_by, version.reviewed_at = actor, now
    version.review_note = note
    version.counted_from = now
    save_with_history(version, actor, _("Approved"))
    status.state = State.APPROVED
    save_with_history(status, actor, _("Approved"))
    compute.schedule_recompute(status.ranking_id, "approval")
    return version


@transaction.atomic
def reject_version(actor, version: EventVersion, *, note: str) -> EventVersion:
    """The officer rejects a waiting version with a note; an approved one keeps counting.
    Not the one who submitted it: they submit a new version instead."""
    version = _version(version.pk)
    status = RankingStatus.objects.select_for_update().get(pk=version.status_id)
    require_manage(actor, version.status.ranking.association)
    _refuse_own_submission(actor, version)
    if version.state != EventVersion.State.PENDING:
        raise ValidationError(
            _("Version %(number)d is not waiting for review.") % {"number": version.number}
        )
    note = _note(note, required=True)
    version.state = EventVersion.State.REJECTED
    version.reviewed_by, version.reviewed_at = actor, timezone.now()
    version.review_note = note
    save_with_history(version, actor, _("Rejected"))
    approved = status.versions.filter(state=EventVersion.State.APPROVED).exists()
    status.state = State.APPROVED if approved else State.GRANTED
    save_with_history(status, actor, _("Rejected"))
    compute.schedule_recompute(status.ranking_id, "rejection")
    return version


def _note(note: str, *, required: bool) -> str:
    note = (note or "").strip()
    if required and not note:
        raise ValidationError({"note": _("Say why the version is rejected.")})
    if len(note) > NOTE_MAX:
        raise ValidationError(
            {"note": _("The note may have at most %(max)d characters.") % {"max": NOTE_MAX}}
        )
    return note
