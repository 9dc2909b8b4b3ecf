"""Seating a series: the draw (through the pure `tournaments.draw`), its check against
the event's rules, and swapping two seats by hand. Writes only seats and the series' draw
record, each in one transaction with its history."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from clubs.permissions import ORGANISER, require_role
from common.history import history_user, save_with_history
from tournaments import draw
from tournaments.models import Event, GroupMember, Participant, Seat, Series, Table
from tournaments.services import delete_seating, has_sheets, lock_series


def _draw_players(event: Event, participants: Sequence[Participant], ranks=None):
    """DrawPlayer for each participant: club, "pair:<id>"/"team:<id>" labels, rank."""
    labels: dict[int, list[str]] = defaultdict(list)
    for participant_id, kind, group_id in GroupMember.objects.filter(
        group__event=event
    ).values_list("participant_id", "kind", "group_id"):
        labels[participant_id].append(f"{kind}:{group_id}")
    ranks = ranks or {}
    return [
        draw.DrawPlayer(
            id=p.pk,
            club=p.club_id,
            groups=tuple(sorted(labels.get(p.pk, ()))),
            rank=ranks.get(p.pk),
        )
        for p in participants
    ]


def _previous_tables(series: Series) -> list[list[int]]:
    """The tables of the event's earlier series, as lists of participant ids."""
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, participant_id in Seat.objects.filter(
        series__event_id=series.event_id, series__number__lt=series.number
    ).values_list("table_id", "participant_id"):
        tables[table_id].append(participant_id)
    return list(tables.values())


def _options(event: Event, method: str) -> draw.DrawOptions:
    return draw.DrawOptions(
        method=method,
        avoid_same_club=event.avoid_same_club,
        avoid_repeat_opponents=event.avoid_repeat_opponents,
    )


def _violation_dicts(violations) -> list[dict[str, Any]]:
    return [
        {"code": v.code, "table": v.table, "players": list(v.players), "detail": v.detail}
        for v in violations
    ]


def players_of(series: Series) -> list[Participant]:
    """Who a draw of this series seats: checked-in participants not withdrawn before it."""
    return [
        p
        for p in Participant.objects.filter(event_id=series.event_id, checked_in=True)
        .select_related("player")
        .order_by("pk")
        if p.plays_in(series.number)
    ]


@transaction.atomic
def draw_series(
    actor,
    series: Series,
    *,
    seed: int | None = None,
    running_order: Sequence[int] | None = None,
) -> Series:
    """Draw (or re-draw, before play) the seating of a series.

    Series 1 is drawn by lot; later series as the event says (``later_series_seating``).
    A ranked draw seats by ``running_order`` (participant ids, best first; players missing
    from it come last, by lot); without a running order it is a draw by lot. Same seed and
    inputs give the same seating. Raises ValidationError when the draw cannot be made.
    """
    series = lock_series(series)
    event = series.event
    require_role(actor, event.club, ORGANISER)
    if series.status not in (Series.Status.PLANNED, Series.Status.SEATED):
        raise ValidationError(_("This series has started; its seating can no longer be drawn."))
    if has_sheets(series):
        raise ValidationError(_("Sheets exist for this series; its seating cannot be redrawn."))

    method = draw.LOT
    ranks = None
    ranked = series.number > 1 and event.later_series_seating == Event.Seating.RANKED
    if ranked and running_order is not None:
        method = draw.RANKED
        ranks = {}
        for pid in running_order:
            ranks.setdefault(pid, len(ranks) + 1)
    participants = players_of(series)
    players = _draw_players(event, participants, ranks)
    previous = _previous_tables(series) if event.avoid_repeat_opponents else []
    seed = draw.new_seed() if seed is None else int(seed)
    try:
        result = draw.draw(players, seed, _options(event, method), previous)
    except draw.DrawError as error:
        if error.code == draw.TOO_FEW_PLAYERS:
            raise ValidationError(
                _("A draw needs at least 3 players; %(count)d play in series %(number)d.")
                % {"count": len(players), "number": series.number},
                code=error.code,
            ) from error
        raise ValidationError(str(error), code=error.code) from error

    delete_seating(series, actor, _("new draw"))
    tables = Table.objects.bulk_create(
        [Table(series=series, number=n) for n in range(1, len(result.tables) + 1)]
    )
    seats = [
        Seat(table=table, series=series, position=position, participant_id=pid)
        for table, ids in zip(tables, result.tables, strict=True)
        for position, pid in enumerate(ids)
    ]
    bulk_create_with_history(
        seats, Seat, default_user=history_user(actor), default_change_reason=_("draw")
    )
    series.draw_seed = seed
    series.draw_method = method
    series.draw_violations = _violation_dicts(result.violations)
    series.drawn_at = timezone.now()
    series.drawn_by = history_user(actor)
    series.status = Series.Status.SEATED
    return save_with_history(series, actor, _("draw"))


def _seating(series: Series) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for table_number, participant_id in (
        Seat.objects.filter(series=series)
        .order_by("table__number", "position")
        .values_list("table__number", "participant_id")
    ):
        tables.setdefault(table_number, []).append(participant_id)
    return [tables[n] for n in sorted(tables)]


def check_seating(series: Series) -> list[dict[str, Any]]:
    """The constraints the stored seating of a series breaks (as stored by the draw)."""
    event = series.event
    tables = _seating(series)
    ids = [pid for table in tables for pid in table]
    participants = list(Participant.objects.filter(pk__in=ids).order_by("pk"))
    players = _draw_players(event, participants)
    previous = _previous_tables(series) if event.avoid_repeat_opponents else []
    method = series.draw_method or draw.LOT
    return _violation_dicts(draw.check(tables, players, _options(event, method), previous))


@transaction.atomic
def swap_seats(actor, series: Series, participant_a_id: int, participant_b_id: int) -> Series:
    """Swap two players' seats before the series starts; recorded in the seats' history."""
    series = lock_series(series)
    require_role(actor, series.event.club, ORGANISER)
    if series.status != Series.Status.SEATED or has_sheets(series):
        raise ValidationError(_("Seats can be swapped only before the series starts."))
    if participant_a_id == participant_b_id:
        raise ValidationError(_("Choose two different players."))
    seats = {
        s.participant_id: s
        for s in Seat.objects.filter(
            series=series, participant_id__in=[participant_a_id, participant_b_id]
        ).select_related("table", "participant__player")
    }
    if len(seats) != 2:
        raise ValidationError(_("Both players must be seated in this series."))
    a, b = seats[participant_a_id], seats[participant_b_id]
    (table_a, pos_a), (table_b, pos_b) = (a.table, a.position), (b.table, b.position)
    reason = _("swapped %(a)s and %(b)s") % {
        "a": a.participant.player.full_name,
        "b": b.participant.player.full_name,
    }
    # Seat 6 is never used (at most 5 players a table), so it is free for the move.
    a.table, a.position = table_b, 5
    a.skip_history_when_saving = True
    a.save(update_fields=["table", "position"])
    del a.skip_history_when_saving
    b.table, b.position = table_a, pos_a
    save_with_history(b, actor, reason)
    a.position = pos_b
    save_with_history(a, actor, reason)
    series.draw_violations = check_seating(series)
    return save_with_history(series, actor, reason)
