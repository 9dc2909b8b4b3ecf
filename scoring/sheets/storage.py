"""The stored rows of a score sheet: versions, hands and their derived values.

The only writer of ``Hand``, ``HandSeat`` and ``SeatTotal`` rows: saving a sheet, importing
an archive and generating demo events all store hands through `write_hands`, which derives
each sheet's seat totals from them (`refresh_seat_totals`), and a rule-set change
recomputes their derived values here (`recompute_event`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import connection, models
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from rules import (
    CardParseError,
    HandResult,
    ScoringError,
    SeatResult,
    check_hand,
    parse_hand_cards,
    score_hand,
)
from scoring.models import Hand, HandSeat, SeatTotal, Sheet, SheetVersion
from scoring.sheets.grid import GridCheck
from tournaments.models import Event


@dataclass
class RecomputeResult:
    event: Event
    sheets: int = 0
    hand_seats: int = 0
    changed: int = 0
    problems: int = 0  # problems stored hands have under the new rule set
    unscorable: int = 0  # hands score_hand cannot score (their points are kept)


def next_version(sheet: Sheet, actor, kind: str, grid: dict, reason: str = "") -> SheetVersion:
    """Count the sheet's version up, save the sheet and store the new version."""
    sheet.version += 1
    sheet.save()
    return SheetVersion.objects.create(
        sheet=sheet, number=sheet.version, kind=kind, created_by=actor, reason=reason, grid=grid
    )


def held_points(hand: HandResult, ruleset) -> list[int | None]:
    """The hand points each seat held, derived by the rules engine: counted from the cards
    when cards were written, else as typed (None: neither). Stored as HandSeat.held_points."""
    return [seat.points(ruleset) for seat in hand.seats]


def write_hands(rows, ruleset, *, sheets=(), new: bool = False) -> int:
    """Create the Hand and HandSeat rows of many hands at once: the one writer of both.

    ``rows`` holds ``(sheet, number, data, result, points, participants)`` per hand: the
    hand as written on the sheet (``data``, a grid hand), the rules engine's reading of it
    (``result``) and its points per seat. The derived values (points, held hand points)
    are stored as the rules engine gives them for ``ruleset``, and the seat totals of every
    sheet written to (and of ``sheets``) are derived again from its hands. ``new``: the
    sheets written to have no rows yet (nothing to delete first).
    """
    rows = list(rows)
    hands = Hand.objects.bulk_create(
        Hand(
            sheet=sheet,
            number=number,
            dealer=data["dealer"],
            winner=data["winner"],
            hand_romme=data["hand_romme"],
        )
        for sheet, number, data, _result, _points, _participants in rows
    )
    seats = []
    for hand, (_sheet, _number, data, result, points, participants) in zip(
        hands, rows, strict=True
    ):
        held = held_points(result, ruleset)
        for position, seat in enumerate(data["seats"]):
            seats.append(
                HandSeat(
                    hand=hand,
                    position=position,
                    participant_id=participants[position],
                    hand_points=seat["hand_points"],
                    cards=seat["cards"] or "",
                    melded=seat["melded"],
                    held_points=held[position],
                    points=points[position],
                )
            )
    HandSeat.objects.bulk_create(seats, batch_size=2000)
    refresh_seat_totals({row[0].pk for row in rows} | set(sheets), new=new and not sheets)
    return len(hands)


def refresh_seat_totals(sheet_ids, *, new: bool = False) -> None:
    """Derive the `SeatTotal` rows of these sheets from their stored hands (one aggregate):
    per seat the points, the hand points held in lost hands, hands won and hand Rommés.
    ``new``: the sheets have no seat totals yet."""
    sheet_ids = list(sheet_ids)
    if not sheet_ids:
        return
    if not new:
        SeatTotal.objects.filter(sheet_id__in=sheet_ids).delete()
    won = Q(hand__winner=F("position"))
    sums = (
        HandSeat.objects.filter(hand__sheet_id__in=sheet_ids)
        .values_list("hand__sheet_id", "position", "participant_id")
        .annotate(
            points=Sum("points"),
            lost=Coalesce(Sum("held_points", filter=~won), 0),
            won=Count("id", filter=won),
            rommes=Count("id", filter=won & Q(hand__hand_romme=True)),
        )
        .order_by()
    )
    # Summed and stored by the database in one statement: no rows travel to Python and back.
    select, params = sums.query.sql_with_params()
    fields = ("sheet", "position", "participant", "points", "lost_hand_points", "hands_won",
              "hand_rommes")  # fmt: skip
    quote = connection.ops.quote_name
    columns = ", ".join(quote(SeatTotal._meta.get_field(f).column) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(SeatTotal._meta.db_table)} ({columns}) {select}", params
        )


def store_hands(
    sheet: Sheet, check: GridCheck, participants: list[int], numbers, ruleset, *, new=False
) -> int:
    """Replace the sheet's hands by the hands ``numbers`` of the checked grid ``check``.
    ``new``: the sheet was created in this transaction (no rows to delete: two statements
    fewer while the hall's SQLite holds its write lock)."""
    if not new:
        Hand.objects.filter(sheet=sheet).delete()
    return write_hands(
        (
            (
                sheet,
                n,
                check.grid["hands"][n - 1],
                check.hands[n - 1],
                check.scores[n - 1],
                participants,
            )
            for n in numbers
        ),
        ruleset,
        new=new,
    )


def store_hand(sheet: Sheet, check: GridCheck, participants: list[int], number: int, ruleset):
    """Write hand ``number`` of the checked grid alone (a phone's new or corrected hand):
    a few rows instead of the whole sheet. Safe because a hand's derived values depend on
    that hand only and the other rows were written from the same content version; when the
    stored hands are not the grid's other hands (other numbers), all hands are rewritten.
    """
    count = len(check.grid["hands"])
    if sheet.pk is None:
        return store_hands(sheet, check, participants, range(1, count + 1), ruleset)
    stored = set(Hand.objects.filter(sheet=sheet).values_list("number", flat=True))
    if not 1 <= number <= count or stored - {number} != set(range(1, count + 1)) - {number}:
        return store_hands(sheet, check, participants, range(1, count + 1), ruleset)
    if number in stored:  # a correction; a new hand has no rows to delete
        Hand.objects.filter(sheet=sheet, number=number).delete()
    row = (sheet, number, check.grid["hands"][number - 1], check.hands[number - 1])
    return write_hands([(*row, check.scores[number - 1], participants)], ruleset)


def hand_result(hand: Hand, seats: list[HandSeat]) -> HandResult:
    results = []
    for seat in seats:
        cards = tuple(parse_hand_cards(seat.cards)) if seat.cards else None
        results.append(SeatResult(hand_points=seat.hand_points, cards=cards, melded=seat.melded))
    return HandResult(hand.dealer, hand.winner, tuple(results), hand.hand_romme)


def recompute_event(event: Event, actor, reason: str) -> RecomputeResult:
    """Recompute every derived value (HandSeat.points and held_points) of the event under
    its rule set (call inside a transaction; `change_ruleset` and the ``recompute_event``
    command do). Each sheet with hands gets a version of kind ``recompute``."""
    ruleset = event.ruleset
    result = RecomputeResult(event)
    rows = list(
        HandSeat.objects.filter(hand__sheet__table__series__event=event)
        .select_related("hand")
        .order_by("hand__sheet_id", "hand__number", "position")
    )
    by_hand: dict[int, list[HandSeat]] = defaultdict(list)
    hands: dict[int, Hand] = {}
    for row in rows:
        by_hand[row.hand_id].append(row)
        hands[row.hand_id] = row.hand
    changed = []
    for hand_id, seats in by_hand.items():
        hand = hands[hand_id]
        try:
            result_ = hand_result(hand, seats)
        except CardParseError:
            result.unscorable += 1
            continue
        result.problems += len(check_hand(result_, ruleset, len(seats), hand=hand.number))
        try:
            points = score_hand(result_, ruleset, len(seats))
        except ScoringError:
            result.unscorable += 1
            continue
        held = held_points(result_, ruleset)
        for seat, value, held_value in zip(seats, points, held, strict=True):
            if seat.points != value or seat.held_points != held_value:
                seat.points, seat.held_points = value, held_value
                changed.append(seat)
    HandSeat.objects.bulk_update(changed, ["points", "held_points"], batch_size=500)
    result.hand_seats, result.changed = len(rows), len(changed)
    if changed:
        refresh_seat_totals({seat.hand.sheet_id for seat in changed})

    content = (
        SheetVersion.objects.filter(sheet=OuterRef("pk"))
        .exclude(kind=SheetVersion.Kind.BLIND)
        .order_by("-number")
    )
    sheets = list(
        Sheet.objects.select_for_update(of=("self",))
        .filter(table__series__event=event)
        .annotate(
            content_grid=Subquery(content.values("grid")[:1], output_field=models.JSONField())
        )
    )
    versions = []
    for sheet in sheets:
        if sheet.content_grid is None:
            continue
        sheet.version += 1
        versions.append(
            SheetVersion(
                sheet=sheet,
                number=sheet.version,
                kind=SheetVersion.Kind.RECOMPUTE,
                created_by=actor,
                reason=reason,
                grid=sheet.content_grid,
            )
        )
    SheetVersion.objects.bulk_create(versions)
    Sheet.objects.bulk_update([v.sheet for v in versions], ["version"])
    result.sheets = len(versions)
    return result
