"""Events from other installations (issue 27, point 4): an arrival is stored as a
`Submission` in state "received" (`store`, in the request), read by the worker
(`federation.submissions.jobs`: the archive's checks, then `take`), its players are matched
(`federation.submissions.matching`), and once nothing is open it is taken in: the first
time as a new event through the archive import, a re-send of the same (origin, event) by
replacing the content of that same event (its row and pk stay, so its ranking status and
history stay with it). Then every ranking status of the event that takes a version gets one
for review (`federation.rankings.status_services.submit_version`). A refusal found by the
worker is kept (`refuse`) and changes nothing of the event.

Replacing reuses the live apply's writer (`live.server.apply_rows.Writer`): it makes a stored
event equal to a checked archive document, touching only what differs. The archive's
participants are paired with the event's by player number; one no longer in the archive
is removed, a new one added. A live-replicated event (`live.models.ReceivedEvent` of the
same origin and event) is not copied again: its live copy is the event submitted.

One transaction per call; the club token is checked by the caller
(`federation.submissions.api`), the officer's role here. Everything is in the models'
history with user and reason."""

from __future__ import annotations

from types import SimpleNamespace

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from clubs.models import Club, Player
from common.history import save_with_history
from federation.associations.permissions import can_manage
from federation.associations.services import clean_reason
from federation.rankings import versions
from federation.rankings.models import EventVersion, RankingStatus
from federation.rankings.status_services import SUBMITTABLE, submit_version
from federation.submissions import checks, matching
from federation.submissions.models import PlayerMatch, Submission
from live.models import LiveToken, ReceivedEvent
from live.server.apply import check, current_document
from live.server.apply_errors import ApplyError
from live.server.apply_rows import Refs, Writer
from scoring.archive.load import import_event
from scoring.archive.validate import ArchiveError, validate
from tournaments.models import Event, Participant
from tournaments.results import announce_arrival

State = Submission.State
MESSAGE_MAX = 300


def reason() -> str:
    return _("Submitted from another installation")


def _message(text: str) -> str:
    return text[:MESSAGE_MAX]


# Stored in the request, shown on the status URL until the worker has read the archive.
RECEIVED_MESSAGE = gettext_noop("Received; the federation's server is reading the archive.")


@transaction.atomic
def store(
    token: LiveToken | None,
    club,
    data: dict,
    *,
    origin: str,
    origin_event: int,
    source: str = Submission.Source.API,
    actor=None,
) -> Submission:
    """The request's part: the arrival (``data`` passed `check_sender`) stored as
    "received" with its archive; the worker reads it (`federation.submissions.jobs`). No lock:
    a request never waits for a take-in of the same club."""
    submission = Submission(
        club=club,
        token=token,
        source=source,
        origin=origin,
        origin_event=origin_event,
        data=data,
        state=State.RECEIVED,
        message=_message(_(RECEIVED_MESSAGE)),
        received_by=actor if actor is not None and actor.is_authenticated else None,
    )
    save_with_history(submission, actor, reason(), clean=False)
    return submission


def newer_arrival(submission: Submission) -> bool:
    """A later arrival of the same event is there (waiting, matching or taken in): it
    replaces this one, which is not read at all."""
    return Submission.objects.filter(
        origin=submission.origin,
        origin_event=submission.origin_event,
        pk__gt=submission.pk,
        state__in=(State.RECEIVED, State.MATCHING, State.IMPORTED),
    ).exists()


def _locked(pk: int, *, data: bool = True) -> Submission | None:
    """The submission, its club's row locked first (as every take-in locks it)."""
    club_id = Submission.objects.filter(pk=pk).values_list("club_id", flat=True).first()
    if club_id is None:
        return None
    Club.objects.select_for_update().filter(pk=club_id).first()
    related = ("club", "token__created_by", "received_by")
    rows = Submission.objects.select_for_update(of=("self",)).select_related(*related)
    return (rows if data else rows.defer("data")).get(pk=pk)


@transaction.atomic
def skip_replaced(pk: int) -> bool:
    """Mark a waiting arrival replaced when a later one of its event is there; whether
    there is nothing (more) to read."""
    submission = _locked(pk)
    if submission is None or submission.state != State.RECEIVED:
        return True
    if not newer_arrival(submission):
        return False
    _replaced(submission)
    return True


def _replaced(submission: Submission) -> Submission:
    submission.state, submission.data = State.REPLACED, {}
    submission.message = _message(_("Replaced by a newer arrival of the same event."))
    save_with_history(submission, None, reason(), clean=False)
    return submission


@transaction.atomic
def refuse(pk: int, message: str) -> Submission | None:
    """The worker's refusal of a waiting arrival: kept with the German reason, its archive
    dropped; nothing of the event was changed (the take-in's transaction rolled back)."""
    submission = Submission.objects.select_for_update().filter(pk=pk).first()
    if submission is None or submission.state != State.RECEIVED:
        return submission
    submission.state, submission.data = State.REFUSED, {}
    submission.message = _message(message)
    save_with_history(submission, submission.received_by, reason(), clean=False)
    return submission


@transaction.atomic
def take(pk: int, plans: dict | None = None, data: dict | None = None) -> Submission | None:
    """The worker's part once the archive (``data``, as stored: not read again when given)
    passed `check_archive` (``plans``): match the players and take the arrival in when
    none is open. Raises PermissionDenied (a token bound to another event) or
    ValidationError (German message); nothing is kept then."""
    submission = _locked(pk, data=data is None)
    if submission is None or submission.state != State.RECEIVED:
        return submission
    if data is not None:
        submission.data = data
    if newer_arrival(submission):
        return _replaced(submission)
    actor, data = submission.received_by, submission.data
    received = checks.received_copy(submission.origin, submission.origin_event)
    if received is not None:  # an archive sent for an event held here as a live copy
        submission.source = Submission.Source.LIVE
        return _take_live(submission, received, actor)
    target = _target(submission, data)
    checks.check_token_event(submission.token, target)
    try:
        found = matching.find_problems(data)
    except matching.IdenticalTwice as error:
        raise ValidationError(str(error)) from None
    _retire_waiting(submission)
    open_rows = _match_rows(submission, found, actor)
    if open_rows:
        submission.state = State.MATCHING
        submission.message = _message(
            ngettext(
                "%(count)d player waits for the ranking officer's matching.",
                "%(count)d players wait for the ranking officer's matching.",
                open_rows,
            )
            % {"count": open_rows}
        )
        save_with_history(submission, actor, reason(), clean=False)
        return submission
    return _take_in(submission, actor, plans)


def _target(submission: Submission, data: dict) -> Event | None:
    earlier = checks.earlier_event(submission.origin, submission.origin_event)
    return earlier or checks.prepared_event(submission.club, data)


def _serialise(club) -> None:
    """One arrival or take-in of a club at a time: two first arrivals of one event at once
    would otherwise both create it (the club's row is the lock)."""
    Club.objects.select_for_update().filter(pk=club.pk).first()


def _retire_waiting(submission: Submission) -> None:
    """Older arrivals of the same event still waiting (to be read, or for matching) are
    replaced by this one."""
    older = Submission.objects.filter(
        origin=submission.origin,
        origin_event=submission.origin_event,
        pk__lt=submission.pk,
        state__in=(State.RECEIVED, State.MATCHING),
    )
    for row in older:
        _replaced(row)


def _match_rows(submission: Submission, found, actor) -> int:
    """PlayerMatch rows for the problems; a player the officer decided for an earlier
    arrival from the same installation is decided the same way again (and says so)."""
    earlier = {}
    if found:
        for row in PlayerMatch.objects.filter(
            submission__origin=submission.origin,
            state__in=(PlayerMatch.State.MATCHED, PlayerMatch.State.CREATED),
            player__isnull=False,
        ).order_by("decided_at"):
            earlier[(row.player_number, row.given_name, row.family_name, row.birth_year)] = row
    open_rows = 0
    for item in found:
        row = PlayerMatch(
            submission=submission,
            player_number=item.player_number,
            given_name=item.given_name,
            family_name=item.family_name,
            birth_year=item.birth_year,
            club_short_name=item.club_short_name,
            problem=item.problem,
        )
        before = earlier.get(
            (item.player_number, item.given_name, item.family_name, item.birth_year)
        )
        if before is not None and item.problem != PlayerMatch.Problem.DUPLICATE:
            row.state, row.player_id = PlayerMatch.State.MATCHED, before.player_id
            row.decided_by_id, row.decided_at = before.decided_by_id, timezone.now()
            save_with_history(row, actor, _("Matched as for an earlier arrival"), clean=False)
            continue
        save_with_history(row, actor, reason(), clean=False)
        open_rows += 1
    return open_rows


@transaction.atomic
def receive_live(token, club, *, origin: str, origin_event: int, actor=None) -> Submission:
    """A live-replicated event named for submission: its live copy is the event. In the
    request: no archive to check, only the versions to read (docs/federation.md)."""
    _serialise(club)
    received = checks.received_copy(origin, origin_event)
    if received is None:
        raise ValidationError(
            _("This server holds no live copy of that event; send it with its archive.")
        )
    submission = Submission(
        club=club,
        token=token,
        source=Submission.Source.LIVE,
        origin=origin,
        origin_event=origin_event,
        received_by=actor if actor is not None and actor.is_authenticated else None,
    )
    return _take_live(submission, received, actor)


def _take_live(submission: Submission, received: ReceivedEvent, actor) -> Submission:
    if received.event.club_id != submission.club_id:
        raise PermissionDenied(_("This token belongs to another club's event."))
    checks.check_token_event(submission.token, received.event)
    submission.event = received.event
    save_with_history(submission, actor, reason(), clean=False)
    _retire_waiting(submission)
    return _finish(submission, received.event, actor)


# ----- taking it in --------------------------------------------------------------------------


def _take_in(submission: Submission, actor, plans: dict | None = None) -> Submission:
    matches = list(submission.matches.select_related("player"))
    try:
        # In place: the archive is dropped once taken in, and a refusal drops it too.
        document = matching.resolve_document(submission.data, matches, in_place=True)
        # The arrival's checks hold for the rewritten players (a 400-player event's sheets
        # take seconds to check); a later decision by the officer checks again.
        plans = validate(document) if plans is None else plans
    except matching.Unresolved as error:
        raise ValidationError(str(error)) from None
    except ArchiveError as error:
        raise ValidationError(
            _("The archive cannot be taken in – at %(path)s: %(message)s")
            % {"path": error.path, "message": error.message}
        ) from None
    target = _target(submission, document)
    history_actor = actor or (submission.token.created_by if submission.token_id else None)
    try:
        with transaction.atomic():
            if target is None:
                event = import_event(document, actor=history_actor, plans=plans).event
            else:
                event = target
                replace_content(event, document, history_actor, submission.origin, plans)
    except ArchiveError as error:
        raise ValidationError(
            _("The archive cannot be taken in – at %(path)s: %(message)s")
            % {"path": error.path, "message": error.message}
        ) from None
    except ApplyError as error:
        raise ValidationError(
            _("The event cannot be replaced – at %(path)s: %(message)s")
            % {"path": error.path, "message": error.message}
        ) from None
    return _finish(submission, event, actor)


def replace_content(event: Event, document: dict, actor, origin: str, plans=None) -> bool:
    """Make ``event`` equal to ``document`` (checked, players resolved), keeping its row:
    participants are paired by player number. Returns whether anything changed."""
    new_refs = {p["player_number"]: p["ref"] for p in document["participants"]}
    top = max(new_refs.values(), default=0)
    mapping = {}
    rows = Participant.objects.filter(event=event).order_by("pk")
    for pk, number in rows.values_list("pk", "player__player_number"):
        if number in new_refs:
            mapping[new_refs.pop(number)] = pk
        else:  # not in the archive any more: a ref of its own, so the writer removes it
            top += 1
            mapping[top] = pk
    refs = Refs({})
    refs.set_participants(mapping)
    # The event's row only (the season is an outer join, which PostgreSQL cannot lock).
    locked = Event.objects.select_for_update(of=("self",)).select_related("club", "season")
    return _write(locked.get(pk=event.pk), refs, document, actor, origin, plans)


def _write(event: Event, refs: Refs, document: dict, actor, origin: str, plans) -> bool:
    current = current_document(event, refs)
    if plans is None:
        plans = check(document, all_sheets=True, touched=set())
    else:  # the writer names sheets by series and table number
        series = document["series"]
        plans = {
            (series[si]["number"], series[si]["tables"][ti]["number"]): plan
            for (si, ti), plan in plans.items()
        }
    ruleset_changed = document["event"].get("ruleset") != current["event"].get("ruleset")
    writer = Writer(
        event, SimpleNamespace(origin=origin), refs, current, document, plans, actor, reason()
    )
    changed = writer.run(ruleset_changed=ruleset_changed)
    if changed:
        writer.bump()
    return changed


def _finish(submission: Submission, event: Event, actor) -> Submission:
    """Mark the arrival taken in, the earlier ones of the event replaced, and submit a
    version under every ranking status that takes one."""
    earlier = Submission.objects.filter(
        origin=submission.origin, origin_event=submission.origin_event, state=State.IMPORTED
    ).exclude(pk=submission.pk)
    for row in earlier:
        row.state = State.REPLACED
        row.message = _message(_("Replaced by a newer arrival of the same event."))
        save_with_history(row, actor, reason(), clean=False)
    submission.event, submission.state, submission.data = event, State.IMPORTED, {}
    sender = actor or (submission.token.created_by if submission.token_id else None)
    announce_arrival(event.pk, sender)  # a league's match day waits for it (leagues)
    # The versions are the uploader's (no user for a club token), not the officer's whose
    # last matching decision takes the arrival in: the four-eyes rule reads who sent them.
    numbers = submit_versions(event, submission.source, actor, sender=submission.received_by)
    if numbers:
        text = _("Taken in as “%(event)s”; submitted for review: %(rankings)s.") % {
            "event": event.name,
            "rankings": ", ".join(numbers),
        }
    else:
        text = _(
            "Taken in as “%(event)s”; the event has no granted ranking status here, so "
            "nothing was submitted for review."
        ) % {"event": event.name}
    submission.message = _message(text)
    save_with_history(submission, actor, reason(), clean=False)
    return submission


def submit_versions(event: Event, source: str, actor, *, sender=None) -> list[str]:
    """A version of the event's results for review under each status that takes one
    (a version still waiting is superseded: its review restarts on this one), sent by
    `sender` (the uploader; None for a club token)."""
    statuses = RankingStatus.objects.filter(event=event, state__in=SUBMITTABLE).select_related(
        "ranking"
    )
    done = []
    read = None
    for status in statuses:
        read = read or versions.read_event(event)
        version = submit_version(
            actor,
            status,
            read.results,
            source if source in EventVersion.Source.values else EventVersion.Source.API,
            field_size=read.field_size,
            series_count=read.series_count,
            results_version=read.results_version,
            problems=read.problems,
            checked=True,
            sender=sender,
        )
        done.append(f"{status.ranking.name} (v{version.number})")
    return done


# ----- the officer's matching ----------------------------------------------------------------


def may_match(user, submission: Submission) -> bool:
    """Superusers, and officers of the region the submission's club belongs to."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    affiliation = getattr(submission.club, "affiliation", None)
    return affiliation is not None and can_manage(user, affiliation.association_id)


def _open_row(actor, pk) -> PlayerMatch:
    row = (
        PlayerMatch.objects.select_for_update(of=("self",))
        .select_related("submission__club")
        .filter(pk=pk)
        .first()
    )
    if row is None:
        raise ValidationError(_("This player is no longer in the matching list."))
    if not may_match(actor, row.submission):
        raise PermissionDenied(_("Only the ranking officer of the club's region may match."))
    # A decided row may be decided again while its submission waits (a wrong match).
    if row.submission.state != State.MATCHING:
        raise ValidationError(_("This submission was taken in already."))
    return row


def _decided(row: PlayerMatch, actor, state: str, player: Player, why: str) -> Submission | None:
    row.state, row.player = state, player
    row.decided_by, row.decided_at = actor, timezone.now()
    save_with_history(row, actor, why, clean=False)
    _serialise(row.submission.club)
    submission = Submission.objects.select_for_update().get(pk=row.submission_id)
    if submission.matches.filter(state=PlayerMatch.State.OPEN).exists():
        return None
    return _take_in(submission, actor)


@transaction.atomic
def match_player(actor, row: PlayerMatch, player: Player, *, reason_text: str):
    """The officer says: this player of the submission is ``player`` here. When it was the
    last open one, the submission is taken in (returned); else None."""
    row = _open_row(actor, row.pk)
    why = clean_reason(reason_text)
    return _decided(row, actor, PlayerMatch.State.MATCHED, player, why)


@transaction.atomic
def create_player(actor, row: PlayerMatch, *, player_number: str, reason_text: str):
    """The officer says: a person new here; created with the archive's name and birth year
    under ``player_number`` (the archive's, unless another player here holds it)."""
    row = _open_row(actor, row.pk)
    why = clean_reason(reason_text)
    number = (player_number or "").strip()
    if not number:
        raise ValidationError(_("The player number may not be empty."))
    if Player.objects.filter(player_number=number).exists():
        raise ValidationError(
            _("Player number %(number)s belongs to another player here; choose another one.")
            % {"number": number}
        )
    player = Player(
        given_name=row.given_name,
        family_name=row.family_name,
        birth_year=row.birth_year,
        player_number=number,
    )
    save_with_history(player, actor, why)
    matching.join_club(player, row, actor, why)
    return _decided(row, actor, PlayerMatch.State.CREATED, player, why)
