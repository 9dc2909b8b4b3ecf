"""Reads of entry fees and payments; each runs a fixed number of queries, however large the
event (fees, category members, participants with their payments).

What a participant owes: the lowest fee of a category the participant belongs to that has
its own fee (youth), else the event's general fee, else nothing. Withdrawn and disqualified
participants still owe, or have paid, what they did: the list marks them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from prizes.models import EntryFee, EntryPayment
from tournaments.categories import category_members
from tournaments.models import Event, Participant

ZERO = Decimal("0.00")
Status = EntryPayment.Status


@dataclass(frozen=True)
class FeeSchedule:
    general: Decimal | None
    by_category: dict[int, Decimal]

    def due(self, category_ids=()) -> Decimal:
        own = [self.by_category[c] for c in category_ids if c in self.by_category]
        if own:
            return min(own)
        return self.general if self.general is not None else ZERO


def fee_schedule(event: Event) -> FeeSchedule:
    """The event's fees (1 query)."""
    general, by_category = None, {}
    for category_id, amount in EntryFee.objects.filter(event=event).values_list(
        "category_id", "amount"
    ):
        if category_id is None:
            general = amount
        else:
            by_category[category_id] = amount
    return FeeSchedule(general, by_category)


def _categories_of(event: Event, schedule: FeeSchedule) -> dict[int, list[int]]:
    """Participant id -> ids of the categories with an own fee that they belong to."""
    if not schedule.by_category:
        return {}
    out: dict[int, list[int]] = {}
    for category_id, members in category_members(event).items():
        if category_id in schedule.by_category:
            for pk in members:
                out.setdefault(pk, []).append(category_id)
    return out


def fees_due(event: Event) -> dict[int, Decimal]:
    """Participant id -> the fee due now."""
    schedule = fee_schedule(event)
    categories = _categories_of(event, schedule)
    ids = Participant.objects.filter(event=event).values_list("pk", flat=True)
    return {pk: schedule.due(categories.get(pk, ())) for pk in ids}


def fee_due(participant: Participant) -> Decimal:
    """The fee one participant owes now."""
    return fees_due(participant.event).get(participant.pk, ZERO)


def owes(row) -> bool:
    """Not paid and something due: where no fee is set (or it is 0), nobody owes."""
    return row.status == Status.OPEN and row.due > 0


@dataclass
class PaymentRow:
    participant_id: int
    name: str
    sort_key: str
    player_number: str
    club: str
    due: Decimal
    status: str
    status_label: str
    amount: Decimal
    note: str
    recorded_by: str
    recorded_at: dt.datetime | None
    checked_in: bool
    withdrawn_from_series: int | None
    disqualified: bool

    @property
    def paid(self) -> bool:
        return self.status in (Status.CASH, Status.TRANSFER)

    @property
    def owes(self) -> bool:
        return owes(self)

    @property
    def difference(self) -> Decimal:
        """What a payer still owes (+) or is owed (−) after a fee change; 0 otherwise."""
        return self.due - self.amount if self.paid else ZERO


def payment_rows(event: Event) -> list[PaymentRow]:
    """Every participant with what they owe and what was recorded, in name order."""
    schedule = fee_schedule(event)
    categories = _categories_of(event, schedule)
    people = (
        Participant.objects.filter(event=event)
        .select_related("player", "club", "entry_payment__recorded_by")
        .order_by("player__sort_key", "pk")
    )
    rows = []
    for p in people:
        payment = getattr(p, "entry_payment", None)
        status = payment.status if payment else Status.OPEN
        rows.append(
            PaymentRow(
                participant_id=p.pk,
                name=str(p.player),
                sort_key=p.player.sort_key,
                player_number=p.player.player_number,
                club=p.club.short_name if p.club else "",
                due=schedule.due(categories.get(p.pk, ())),
                status=status,
                status_label=str(Status(status).label),
                amount=payment.amount if payment else ZERO,
                note=payment.note if payment else "",
                recorded_by=(
                    payment.recorded_by.get_username() if payment and payment.recorded_by else ""
                ),
                recorded_at=payment.recorded_at if payment else None,
                checked_in=p.checked_in,
                withdrawn_from_series=p.withdrawn_from_series,
                disqualified=p.disqualified,
            )
        )
    return rows


def unpaid(event: Event) -> list[PaymentRow]:
    """The participants who owe their fee (neither paid nor waived, and some is due)."""
    return [row for row in payment_rows(event) if row.owes]


@dataclass(frozen=True)
class CashSummary:
    collected: Decimal  # cash + transfer: the pot of the prize plan
    cash: Decimal
    transfer: Decimal
    waived: Decimal
    owed: Decimal  # what the open ones owe now
    cash_count: int
    transfer_count: int
    waived_count: int
    open_count: int

    @property
    def paid_count(self) -> int:
        return self.cash_count + self.transfer_count


def summarise(rows: list[PaymentRow]) -> CashSummary:
    sums = dict.fromkeys(Status.values, ZERO)
    counts = dict.fromkeys(Status.values, 0)
    for row in rows:
        if row.status != Status.OPEN or owes(row):  # (nothing due: nobody is open)
            counts[row.status] += 1
        sums[row.status] += row.due if row.status == Status.OPEN else row.amount
    return CashSummary(
        collected=sums[Status.CASH] + sums[Status.TRANSFER],
        cash=sums[Status.CASH],
        transfer=sums[Status.TRANSFER],
        waived=sums[Status.WAIVED],
        owed=sums[Status.OPEN],
        cash_count=counts[Status.CASH],
        transfer_count=counts[Status.TRANSFER],
        waived_count=counts[Status.WAIVED],
        open_count=counts[Status.OPEN],
    )


@dataclass(frozen=True)
class _Owed:
    status: str
    due: Decimal
    amount: Decimal


def cash_summary(event: Event) -> CashSummary:
    """Collected (cash + transfer: the pot), waived and owed, with counts: the sums of
    `payment_rows` from the three columns they need (the prize list reads it for every
    render; names, clubs and who recorded a payment are not needed there)."""
    schedule = fee_schedule(event)
    categories = _categories_of(event, schedule)
    people = (
        Participant.objects.filter(event=event)
        .order_by()
        .values_list("pk", "entry_payment__status", "entry_payment__amount")
    )
    return summarise(
        [
            _Owed(status or Status.OPEN, schedule.due(categories.get(pk, ())), amount or ZERO)
            for pk, status, amount in people
        ]
    )
