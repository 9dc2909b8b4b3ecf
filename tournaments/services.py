"""Every write to events, participants, pairs and teams, series and seating.

One transaction each; each checks that the actor is an organiser of the event's club
(superusers pass) and records the acting user in the history. Views call these only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import Club, Player
from clubs.permissions import ORGANISER, require_role
from common.history import delete_with_history, history_user, save_with_history
from rules import PRESETS, RuleSetError, ruleset_from
from tournaments import draw
from tournaments.models import Event, Group, GroupMember, Participant, Season, Seat, Series, Table
from tournaments.results import announce_change, bump_results_version

RULESET_FIELDS = ("ruleset_slug", "ruleset_overrides")


# Rule sets


def ruleset_problem_message(problem) -> str:
    """A German or English message for one rules problem of a rule set."""
    params = problem.params
    messages = {
        "ruleset.bad-value": _("Must be at least %(min)s.") if "min" in params else None,
        "ruleset.bad-type": _("Enter a whole number."),
        "ruleset.negative-first-meld": _("The first-meld minimum cannot be negative."),
        "ruleset.negative-jokers": _("The number of jokers cannot be negative."),
        "ruleset.no-packs": _("A rule set plays with at least one pack."),
        "ruleset.unknown-preset": _("There is no rule set of this name."),
        "ruleset.unknown-field": _("A rule set has no setting “%(field)s”."),
        "ruleset.deal-exceeds-deck": _(
            "%(dealt)s cards dealt to %(players)s players exceed the deck of %(deck_size)s."
        ),
    }
    message = messages.get(problem.code) or _("This value is not allowed in the rule set.")
    try:
        return message % params
    except (KeyError, TypeError, ValueError):
        return message


def ruleset_errors(error: RuleSetError) -> dict[str, list[str]]:
    """RuleSetError problems by the name of the setting they concern ("" for none)."""
    found: dict[str, list[str]] = defaultdict(list)
    for problem in error.problems:
        found[str(problem.params.get("field", ""))].append(ruleset_problem_message(problem))
    return dict(found)


def checked_ruleset(slug: str, overrides: dict[str, Any] | None):
    """The rule set of a preset with overrides, or ValidationError keyed by setting name
    (the preset under "ruleset_slug", problems without a setting under NON_FIELD_ERRORS)."""
    if slug not in PRESETS:
        raise ValidationError({"ruleset_slug": _("There is no rule set of this name.")})
    try:
        return ruleset_from(slug, overrides or {})
    except RuleSetError as error:
        raise ValidationError(
            {(field or "__all__"): messages for field, messages in ruleset_errors(error).items()}
        ) from error


# Seasons


@transaction.atomic
def create_season(actor, club: Club, *, name: str, start_date, end_date) -> Season:
    require_role(actor, club, ORGANISER)
    return save_with_history(
        Season(club=club, name=name, start_date=start_date, end_date=end_date), actor
    )


@transaction.atomic
def update_season(actor, season: Season, **fields) -> Season:
    require_role(actor, season.club, ORGANISER)
    fields.pop("club", None)
    for name, value in fields.items():
        setattr(season, name, value)
    return save_with_history(season, actor)


# Events


def _check_season(season: Season | None, club: Club) -> None:
    if season is not None and season.club_id != club.pk:
        raise ValidationError({"season": _("The season must belong to the organising club.")})


@transaction.atomic
def create_event(
    actor,
    club: Club,
    *,
    name: str,
    start_date,
    ruleset_slug: str = "german-minus",
    ruleset_overrides: dict[str, Any] | None = None,
    **fields,
) -> Event:
    """Create an event of ``club``; the overrides are stored as only what differs from the
    preset. Other keyword arguments are Event fields (kind, season, end_date, venue, ...)."""
    require_role(actor, club, ORGANISER)
    _check_season(fields.get("season"), club)
    ruleset = checked_ruleset(ruleset_slug, ruleset_overrides)
    event = Event(
        club=club,
        name=name,
        start_date=start_date,
        ruleset_slug=ruleset_slug,
        ruleset_overrides=ruleset.overrides(),
        created_by=history_user(actor),
        **fields,
    )
    return save_with_history(event, actor)


@transaction.atomic
def update_event(actor, event: Event, **fields) -> Event:
    """Change an event's facts. The rule set can be changed here only while the event has
    no series; after that, scoring.sheets.services.change_ruleset recomputes the results."""
    require_role(actor, event.club, ORGANISER)
    if "club" in fields and fields.pop("club").pk != event.club_id:
        raise ValidationError(_("The organising club of an event cannot be changed."))
    if any(name in fields for name in RULESET_FIELDS):
        slug = fields.pop("ruleset_slug", event.ruleset_slug)
        overrides = fields.pop("ruleset_overrides", event.ruleset_overrides)
        ruleset = checked_ruleset(slug, overrides)
        # Compare with the stored values: a ModelForm may have changed the instance already.
        stored = Event.objects.filter(pk=event.pk).values(*RULESET_FIELDS).get()
        changed = (slug, ruleset.overrides()) != (
            stored["ruleset_slug"],
            stored["ruleset_overrides"],
        )
        if changed:
            if event.series.exists():
                raise ValidationError(
                    _("The event has series; change its rule set on the rule-set page.")
                )
            event.ruleset_slug, event.ruleset_overrides = slug, ruleset.overrides()
            event.__dict__.pop("ruleset", None)
    _check_season(fields.get("season", event.season), event.club)
    for name, value in fields.items():
        setattr(event, name, value)
    event = save_with_history(event, actor)
    bump_results_version(event.pk)  # name, venue and dates head the public page
    return event


# Participants


@transaction.atomic
def register_participant(actor, event: Event, player: Player, *, checked_in=False) -> Participant:
    """Register a player of the registry; their current club is kept with the entry."""
    require_role(actor, event.club, ORGANISER)
    if Participant.objects.filter(event=event, player=player).exists():
        raise ValidationError(
            _("%(name)s is already registered for this event.") % {"name": player.full_name}
        )
    club_id = Player.objects.with_current_club().values_list("current_club_id", flat=True)
    participant = Participant(
        event=event,
        player=player,
        club_id=club_id.get(pk=player.pk),
        checked_in=checked_in,
    )
    participant = save_with_history(participant, actor)
    announce_change(event.pk)  # the field changed (live results send it)
    return participant


@transaction.atomic
def register_new_player(
    actor,
    event: Event,
    *,
    given_name: str,
    family_name: str,
    player_number: str = "",
    birth_year: int | None = None,
    club: Club | None = None,
    checked_in: bool = True,
    allow_lookalike: bool = False,
) -> Participant:
    """A player who is not in the registry yet: create them there (see
    clubs.services.create_player_on_the_spot) and register them. Raises
    clubs.services.DuplicatePlayer for a likely duplicate unless ``allow_lookalike``."""
    require_role(actor, event.club, ORGANISER)
    player = club_services.create_player_on_the_spot(
        actor,
        event.club,
        given_name=given_name,
        family_name=family_name,
        player_number=player_number,
        birth_year=birth_year,
        club=club,
        allow_lookalike=allow_lookalike,
    )
    return register_participant(actor, event, player, checked_in=checked_in)


@transaction.atomic
def set_checked_in(actor, participant: Participant, checked_in: bool) -> Participant:
    require_role(actor, participant.event.club, ORGANISER)
    participant.checked_in = checked_in
    participant = save_with_history(participant, actor)
    announce_change(participant.event_id)
    return participant


@transaction.atomic
def withdraw_participant(actor, participant: Participant, from_series: int) -> Participant:
    """The player plays no series from ``from_series`` on (the first series not played)."""
    require_role(actor, participant.event.club, ORGANISER)
    if from_series < 1:
        raise ValidationError(_("Series numbers start at 1."))
    seated_in = Seat.objects.filter(
        participant=participant, series__number__gte=from_series
    ).exclude(series__status=Series.Status.SEATED)
    if seated_in.exists():
        raise ValidationError(
            _("%(name)s has already played from series %(number)d on.")
            % {"name": participant.player.full_name, "number": from_series}
        )
    participant.withdrawn_from_series = from_series
    participant = save_with_history(participant, actor)
    bump_results_version(participant.event_id)
    return participant


@transaction.atomic
def undo_withdrawal(actor, participant: Participant) -> Participant:
    require_role(actor, participant.event.club, ORGANISER)
    participant.withdrawn_from_series = None
    participant = save_with_history(participant, actor)
    bump_results_version(participant.event_id)
    return participant


@transaction.atomic
def remove_participant(actor, participant: Participant) -> None:
    """Remove a registration made by mistake; refused once the player has been seated."""
    require_role(actor, participant.event.club, ORGANISER)
    if participant.seats.exists():
        raise ValidationError(
            _("%(name)s has been seated; withdraw the player instead.")
            % {"name": participant.player.full_name}
        )
    announce_change(participant.event_id)
    delete_with_history(participant, actor)


# Pairs and teams


@transaction.atomic
def create_group(
    actor, event: Event, *, kind: str, name: str, members: Sequence[Participant]
) -> Group:
    """Register a pair (2 players) or a team (4 players) with all its members at once."""
    require_role(actor, event.club, ORGANISER)
    if kind not in Group.Kind.values:
        raise ValidationError({"kind": _("Choose a pair or a team.")})
    kind = Group.Kind(kind)
    ids = [m.pk for m in members]
    if len(set(ids)) != len(ids):
        raise ValidationError(_("A player can be chosen only once."))
    size = Group.SIZE[kind]
    if len(ids) != size:
        raise ValidationError(
            _("A %(kind)s has exactly %(size)d players; %(count)d were chosen.")
            % {"kind": kind.label, "size": size, "count": len(ids)}
        )
    found = list(Participant.objects.filter(pk__in=ids, event=event).select_related("player"))
    if len(found) != size:
        raise ValidationError(_("Every member must be a participant of this event."))
    taken = (
        GroupMember.objects.filter(participant_id__in=ids, kind=kind)
        .select_related("participant__player", "group")
        .order_by("participant_id")
    )
    problems = [
        _("%(name)s already belongs to the %(kind)s “%(group)s”.")
        % {"name": m.participant.player.full_name, "kind": kind.label, "group": m.group.name}
        for m in taken
    ]
    if problems:
        raise ValidationError(problems)
    if Group.objects.filter(event=event, kind=kind, name=name).exists():
        raise ValidationError({"name": _("This name is already used in this event.")})
    group = save_with_history(Group(event=event, kind=kind, name=name), actor)
    try:
        with transaction.atomic():
            GroupMember.objects.bulk_create(
                [GroupMember(group=group, participant_id=pk, kind=kind) for pk in ids]
            )
    except IntegrityError as error:  # a concurrent registration won the race
        raise ValidationError(
            _("A member joined another %(kind)s meanwhile.") % {"kind": kind.label}
        ) from error
    bump_results_version(event.pk)  # the pair and team standings
    return group


@transaction.atomic
def delete_group(actor, group: Group) -> None:
    require_role(actor, group.event.club, ORGANISER)
    delete_with_history(group, actor)
    bump_results_version(group.event_id)  # the pair and team standings


# Series


@transaction.atomic
def create_series(
    actor, event: Event, *, planned_rounds: int | None = None, day: int = 1
) -> Series:
    """Add the next series (numbered after the last one) to an event."""
    require_role(actor, event.club, ORGANISER)
    Event.objects.select_for_update().filter(pk=event.pk).first()
    last = event.series.aggregate(last=Max("number"))["last"] or 0
    series = Series(
        event=event,
        number=last + 1,
        planned_rounds=planned_rounds or event.rounds_per_series,
        day=day or 1,
    )
    series = save_with_history(series, actor)
    announce_change(event.pk)
    return series


def create_playoff_series(actor, event: Event, seats: Sequence[int], playoff_of: dict) -> Series:
    """A seated playoff series after the last one: one table, ``seats`` in order.

    ``scoring.standings.services.create_playoff`` decides who plays off; this writes the rows.
    """
    if len(seats) > draw.MAX_SEATS:
        raise ValidationError(
            _("A playoff table seats at most %(max)d players; %(count)d are tied.")
            % {"max": draw.MAX_SEATS, "count": len(seats)}
        )
    last = Series.objects.filter(event=event).aggregate(n=Max("number"), day=Max("day"))
    series = Series(
        event=event,
        number=(last["n"] or 0) + 1,
        day=last["day"] or 1,
        planned_rounds=1,
        status=Series.Status.SEATED,
        kind=Series.Kind.PLAYOFF,
        playoff_of=playoff_of,
    )
    save_with_history(series, actor, _("Playoff"))
    table = Table.objects.create(series=series, number=1)
    for position, pid in enumerate(seats):
        seat = Seat(table=table, series=series, position=position, participant_id=pid)
        save_with_history(seat, actor, clean=False)
    bump_results_version(event.pk)
    return series


def has_sheets(series: Series) -> bool:
    return Table.objects.filter(series=series, sheet__isnull=False).exists()


@transaction.atomic
def delete_series(actor, series: Series) -> None:
    """Remove a series that has not started; only the last one, so numbers stay dense."""
    require_role(actor, series.event.club, ORGANISER)
    if series.status not in (Series.Status.PLANNED, Series.Status.SEATED) or has_sheets(series):
        raise ValidationError(_("A series that has started cannot be removed."))
    if Series.objects.filter(event_id=series.event_id, number__gt=series.number).exists():
        raise ValidationError(_("Only the last series can be removed."))
    delete_seating(series, actor)
    delete_with_history(series, actor)
    bump_results_version(series.event_id)


def lock_series(series: Series) -> Series:
    """The series' row, locked for a write (draw, swap, start, complete): the change is
    announced here, so live results number it and a laptop's event refuses it."""
    series = Series.objects.select_for_update().select_related("event__club").get(pk=series.pk)
    announce_change(series.event_id)
    return series


def delete_seating(series: Series, actor, reason: str = "") -> None:
    """Remove the seating: one "-" history record per seat (who, when, why), in one INSERT.

    Deleting seat by seat cost two queries per seat (800 for a 400-player redraw), which
    PostgreSQL, with a round trip per query, paid ten times over.
    """
    seats = list(Seat.objects.filter(series=series))
    if seats:
        historical = Seat.history.model
        names = [field.attname for field in Seat._meta.concrete_fields]
        now, user = timezone.now(), history_user(actor)
        historical.objects.bulk_create(
            historical(
                **{name: getattr(seat, name) for name in names},
                history_date=now,
                history_type="-",
                history_user=user,
                history_change_reason=reason or None,
            )
            for seat in seats
        )
        # The history is written above; no per-row signals (nothing else refers to a seat).
        Seat.objects.filter(pk__in=[seat.pk for seat in seats])._raw_delete(Seat.objects.db)
    Table.objects.filter(series=series).delete()


@transaction.atomic
def start_series(actor, series: Series) -> Series:
    series = lock_series(series)
    require_role(actor, series.event.club, ORGANISER)
    if series.status != Series.Status.SEATED:
        raise ValidationError(_("Only a seated series can start."))
    if not Seat.objects.filter(series=series).exists():
        raise ValidationError(_("The series has no seating yet; draw it first."))
    series.status = Series.Status.IN_PLAY
    return save_with_history(series, actor)


class OpenTables(ValidationError):
    """Tables of a series without a confirmed sheet (``numbers``): completing the series would
    close their table links, publishing it would show their players without it."""

    def __init__(self, numbers: list[int]):
        super().__init__(_("Not every sheet of the series is confirmed."))
        self.numbers = numbers


@transaction.atomic
def complete_series(actor, series: Series, *, ask_if_open: bool = False) -> Series:
    """End a series in play: its table links close. ``ask_if_open``: raise OpenTables,
    and change nothing, while a table's sheet is not confirmed (the page asks once more:
    phones still entering there would be shut out)."""
    series = lock_series(series)
    require_role(actor, series.event.club, ORGANISER)
    if series.status != Series.Status.IN_PLAY:
        raise ValidationError(_("Only a series in play can be completed."))
    if ask_if_open:
        # (scoring.models.Sheet by its reverse name: this app sits below scoring.)
        open_tables = series.tables.exclude(sheet__status="confirmed").order_by("number")
        if numbers := list(open_tables.values_list("number", flat=True)):
            raise OpenTables(numbers)
    series.status = Series.Status.COMPLETE
    return save_with_history(series, actor)
