"""Every write the standings make: tie-break chain, prize lines, publishing, playoffs, season
ranking settings. One transaction each, the role checked here, the history user set."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, require_role
from common.history import history_user, save_with_history
from rules.standings import core, metrics
from scoring.models import Sheet
from scoring.standings import selectors, series_tables
from tournaments import services
from tournaments.models import Event, Participant, Season, Series
from tournaments.results import bump_results_version
from tournaments.services import OpenTables


def has_results(event: Event) -> bool:
    """A sheet of the event has been entered (disputed) or confirmed."""
    return Sheet.objects.filter(
        table__series__event=event,
        status__in=[Sheet.Status.ENTERED, Sheet.Status.DISPUTED, Sheet.Status.CONFIRMED],
    ).exists()


@transaction.atomic
def change_tie_break(actor, event: Event, chain: Sequence[str], reason: str) -> Event:
    """Set the event's tie-break chain (validated by ``scoring.standings.normalize_chain``).

    Organiser role. Once results exist a reason is required; it is recorded in the event's
    history with the acting user.
    """
    require_role(actor, event.club, ORGANISER)
    try:
        normalized = list(metrics.normalize_chain(c for c in chain if c))
    except ValueError as error:
        raise ValidationError({"chain": str(error)}) from error
    reason = (reason or "").strip()
    if has_results(event) and not reason:
        raise ValidationError(
            {"reason": _("Results exist: changing the tie-break chain needs a reason.")}
        )
    event = Event.objects.select_for_update().get(pk=event.pk)
    if normalized == list(event.tie_break_chain or []):
        return event
    event.tie_break_chain = normalized
    event = save_with_history(
        event, actor, reason or _("Tie-break chain set"), ["tie_break_chain"], clean=False
    )
    bump_results_version(event.pk)
    return event


@transaction.atomic
def set_prize_lines(actor, event: Event, lines: Iterable[int], reason: str = "") -> Event:
    """Places 1..L of each line win a prize or qualify; ties across them are played off."""
    require_role(actor, event.club, ORGANISER)
    try:
        cleaned = sorted({int(x) for x in lines})
    except (TypeError, ValueError) as error:
        raise ValidationError({"prize_lines": _("Enter whole numbers.")}) from error
    if not cleaned or cleaned[0] < 1:
        raise ValidationError({"prize_lines": _("Enter at least one place, 1 or more.")})
    event = Event.objects.select_for_update().get(pk=event.pk)
    event.prize_lines = cleaned
    event = save_with_history(
        event, actor, (reason or "").strip() or _("Prize lines set"), ["prize_lines"], clean=False
    )
    bump_results_version(event.pk)
    return event


@transaction.atomic
def update_tie_break(
    actor, event: Event, chain: Sequence[str], lines: Iterable[int] | None, reason: str
) -> Event:
    """The tie-break page's save: the chain and the prize lines in one transaction, so a
    refused prize line leaves the chain as it was."""
    event = change_tie_break(actor, event, chain, reason)
    if lines is not None and list(lines) != list(event.prize_lines or []):
        event = set_prize_lines(actor, event, lines, reason)
    return event


@transaction.atomic
def set_series_published(
    actor, series: Series, published: bool, *, ask_if_open: bool = False
) -> Series:
    """Publish a series (it then counts on the public page, display and API) or take it back.

    ``ask_if_open``: raise :class:`OpenTables`, and publish nothing, if a table of the series
    has no confirmed sheet (the page asks the director once more: its players would stand
    on the public pages without this series)."""
    require_role(actor, series.event.club, ORGANISER)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.published != published:
        series.published = published
        save_with_history(series, actor, update_fields=["published"], clean=False)
        bump_results_version(series.event_id)  # (a write refused elsewhere is refused here)
        if published and ask_if_open and (numbers := series_tables.unconfirmed_tables(series)):
            raise OpenTables(numbers)  # (rolls the publishing back)
    return series


@transaction.atomic
def create_playoff(actor, event: Event, tied_participant_ids: Iterable[int]) -> Series:
    """A playoff series of exactly the tied players: one table, a round per dealer.

    The players must be a tie on a prize line of the current (confirmed) overall individual
    standing, as ``scoring.standings.ties_on_lines`` finds it. The series is numbered after
    the last one, seated (seats in canonical order, ``playoff_table``) and entered on the
    sheet entry page like any other series; its confirmed totals decide the order among
    these players and change no total. Organiser role.
    """
    require_role(actor, event.club, ORGANISER)
    ids = sorted({int(i) for i in tied_participant_ids})
    event = Event.objects.select_for_update().get(pk=event.pk)
    standing = selectors.event_standing(event, only_published=False)
    tie = next((t for t in standing.ties if sorted(r.key for r in t) == ids), None)
    if tie is None:
        raise ValidationError(_("These players are not tied on a prize line."))
    open_playoff = (
        Series.objects.filter(event=event, kind=Series.Kind.PLAYOFF)
        .exclude(tables__sheet__status=Sheet.Status.CONFIRMED)
        .filter(tables__seats__participant_id__in=ids)
        .exists()
    )
    if open_playoff:
        raise ValidationError(_("A playoff of these players is still open; enter its sheet."))
    participants = Participant.objects.filter(event=event, pk__in=ids)
    if participants.count() != len(ids):
        raise ValidationError(_("Every player of a playoff must be a participant of the event."))
    seats = core.playoff_table(
        [core.Row(rank=r.rank, entry=metrics.Entry(r.key, r.total), values={}, reason=None)
         for r in tie]
    )  # fmt: skip
    first_place = next(i for i, r in enumerate(standing.rows, 1) if r.key == tie[0].key)
    lines = [line for line in (event.prize_lines or [1]) if first_place <= line]
    return services.create_playoff_series(
        actor,
        event,
        seats,
        playoff_of={
            "line": min(lines) if lines else None,
            "first_place": first_place,
            "participants": seats,
            "total": tie[0].total,
        },
    )


@transaction.atomic
def update_season_ranking(
    actor,
    season: Season,
    *,
    ranking_mode: str,
    minimum_series: int,
    drop_start: int,
    drop_every: int,
    drop_maximum: int,
) -> Season:
    """The season's ranking settings (total or average, minimum series, drop rule)."""
    require_role(actor, season.club, ORGANISER)
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.ranking_mode = ranking_mode
    season.minimum_series = minimum_series
    season.drop_start = drop_start
    season.drop_every = drop_every
    season.drop_maximum = drop_maximum
    season._history_user = history_user(actor)
    season.full_clean()
    season.save()
    return season
