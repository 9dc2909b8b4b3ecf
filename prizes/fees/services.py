"""Every write to entry fees and payments (Startgeld).

One transaction each; each checks that the actor is an organiser of the event's club
(superusers pass) and records the acting user in the history. A fee change never rewrites
a recorded payment: the payment keeps the amount that was due when it was taken, and the
change reports who paid a different amount and by how much (`FeeChange.messages`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.permissions import ORGANISER, require_role
from common.history import delete_with_history, save_with_history
from common.money import format_euro
from prizes.fees import selectors
from prizes.models import EntryFee, EntryPayment, PrizePlan
from tournaments.models import Category, Event, Participant
from tournaments.results import announce_change, bump_results_version

# An entry fee above this is a typo (a missing comma), not a fee.
MAX_FEE = Decimal("1000.00")
NOTE_LENGTH = EntryPayment._meta.get_field("note").max_length
PAID = (EntryPayment.Status.CASH, EntryPayment.Status.TRANSFER)

_PLAIN = re.compile(r"\d+(?:\.\d+)?")
_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")


def parse_fee(value, *, label: str = "") -> Decimal:
    """An entry fee from a form ("12,50", "12.50", "12", "1.000,00", a Decimal), or a
    ValidationError in the active language naming what is wrong."""
    name = label or _("The entry fee")
    if isinstance(value, Decimal | int):
        text = str(value)
    else:
        text = str(value or "").strip().replace("\N{NO-BREAK SPACE}", " ")
        text = text.removesuffix("€").removeprefix("€").strip().replace(" ", "")
    if not text:
        raise ValidationError(_("%(name)s is missing: enter an amount in euros.") % {"name": name})
    if text.startswith("-"):
        raise ValidationError(_("%(name)s cannot be negative.") % {"name": name})
    if _GROUPED.fullmatch(text):
        text = text.replace(".", "").replace(",", ".")
    elif "," in text and "." not in text:
        text = text.replace(",", ".")
    if not _PLAIN.fullmatch(text):
        raise ValidationError(
            _("%(name)s: “%(value)s” is not an amount in euros (e.g. 12,50).")
            % {"name": name, "value": str(value)[:30]}
        )
    try:
        amount = Decimal(text)
    except InvalidOperation as error:  # pragma: no cover - the pattern admits only digits
        raise ValidationError(_("%(name)s is not an amount.") % {"name": name}) from error
    if amount != amount.quantize(Decimal("0.01")):
        raise ValidationError(
            _("%(name)s: at most two decimal places (cents), not “%(value)s”.")
            % {"name": name, "value": str(value)[:30]}
        )
    if amount > MAX_FEE:
        raise ValidationError(
            _("%(name)s of %(amount)s is not plausible: at most %(max)s per entry.")
            % {"name": name, "amount": format_euro(amount), "max": format_euro(MAX_FEE)}
        )
    return amount.quantize(Decimal("0.01"))


@dataclass
class FeeChange:
    """What a fee change did: which fees changed, and the payments recorded at another
    amount than what is now due (never rewritten: the director settles the difference)."""

    changed: int = 0
    messages: list[str] = field(default_factory=list)


def _difference_messages(before: dict[int, Decimal], after: dict[int, Decimal], payments):
    """One message per (paid amount, now due) among payments whose due changed."""
    groups = Counter()
    for payment in payments:
        pid = payment.participant_id
        if payment.status not in PAID or before.get(pid) == after.get(pid):
            continue
        if payment.amount != after[pid]:
            groups[(payment.amount, after[pid])] += 1
    out = []
    for (paid, due), count in sorted(groups.items()):
        values = {
            "count": count,
            "paid": format_euro(paid),
            "due": format_euro(due),
            "difference": format_euro(abs(due - paid)),
            "total": format_euro(abs(due - paid) * count),
        }
        if due > paid:
            text = ngettext(
                "%(count)d participant has already paid %(paid)s; the fee is now %(due)s: "
                "they owe %(difference)s more.",
                "%(count)d participants have already paid %(paid)s; the fee is now %(due)s: "
                "each owes %(difference)s more (%(total)s in all).",
                count,
            )
        else:
            text = ngettext(
                "%(count)d participant has already paid %(paid)s; the fee is now %(due)s: "
                "they are owed %(difference)s back.",
                "%(count)d participants have already paid %(paid)s; the fee is now %(due)s: "
                "each is owed %(difference)s back (%(total)s in all).",
                count,
            )
        out.append(text % values)
    return out


@transaction.atomic
def set_fees(actor, event: Event, *, general, categories=None) -> FeeChange:
    """Set the event's general fee and, per category id, its own fee (None or "" removes
    a category's fee: its members pay the general one). All checked before anything is
    written; raises ValidationError keyed by "general" or "category-<id>"."""
    require_role(actor, event.club, ORGANISER)
    categories = categories or {}
    known = {c.pk: c for c in Category.objects.filter(event=event)}
    errors: dict[str, list[str]] = {}
    wanted: dict[int | None, Decimal | None] = {}
    try:
        wanted[None] = parse_fee(general, label=_("The general entry fee"))
    except ValidationError as error:
        errors["general"] = error.messages
    for pk, value in categories.items():
        category = known.get(int(pk)) if str(pk).isdigit() else None
        if category is None:
            errors.setdefault("general", []).append(_("This category is not one of the event."))
            continue
        if value is None or str(value).strip() == "":
            wanted[category.pk] = None
            continue
        label = _("The entry fee of “%(category)s”") % {"category": category.name}
        try:
            wanted[category.pk] = parse_fee(value, label=label)
        except ValidationError as error:
            errors[f"category-{category.pk}"] = error.messages
    if errors:
        raise ValidationError(errors)

    Event.objects.select_for_update().filter(pk=event.pk).first()
    before = selectors.fees_due(event)
    existing = {f.category_id: f for f in EntryFee.objects.filter(event=event)}
    result = FeeChange()
    reason = _("Entry fee changed")
    for category_id, amount in wanted.items():
        fee = existing.get(category_id)
        if amount is None:
            if fee is not None:
                delete_with_history(fee, actor, reason)
                result.changed += 1
            continue
        if fee is None:
            fee = EntryFee(event=event, category_id=category_id, amount=amount)
        elif fee.amount == amount:
            continue
        fee.amount = amount
        save_with_history(fee, actor, reason)
        result.changed += 1
    if result.changed:
        _public_amounts_changed(event)
        after = selectors.fees_due(event)
        payments = EntryPayment.objects.filter(participant__event=event)
        result.messages = _difference_messages(before, after, payments)
    return result


@transaction.atomic
def record_payment(
    actor, participant: Participant, status: str, note: str = "", *, seen: str = ""
) -> EntryPayment:
    """Mark a participant's entry fee paid in cash, by transfer, waived, or open again,
    with who and when. The amount kept is the fee due now (0 when open again).

    ``seen``: the status the clicked page showed. Another one stored meanwhile (two cash
    desks) refuses the click with who recorded what; nothing is changed."""
    event = participant.event
    require_role(actor, event.club, ORGANISER)
    if status not in EntryPayment.Status.values:
        raise ValidationError(
            _("“%(status)s” is not a payment status (cash, transfer, waived or open).")
            % {"status": str(status)[:30]}
        )
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise ValidationError(
            _("The note is %(length)d characters long; at most %(max)d fit.")
            % {"length": len(note), "max": NOTE_LENGTH}
        )
    payment = EntryPayment.objects.select_for_update().filter(
        participant=participant
    ).first() or EntryPayment(participant=participant)
    now = payment.status if payment.pk else EntryPayment.Status.OPEN
    if seen and seen != now and now != status:
        raise ValidationError(
            _(
                "%(name)s: meanwhile %(user)s recorded “%(status)s” (%(time)s); nothing "
                "was changed. Click again if it should change."
            )
            % {
                "name": participant.player,
                "user": payment.recorded_by.get_username() if payment.recorded_by else "?",
                "status": EntryPayment.Status(now).label,
                "time": formats.time_format(timezone.localtime(payment.recorded_at))
                if payment.recorded_at
                else "",
            }
        )
    due = selectors.fee_due(participant)
    payment.status = status
    payment.amount = Decimal("0") if status == EntryPayment.Status.OPEN else due
    payment.note = note
    payment.recorded_by = actor if actor is not None and actor.is_authenticated else None
    payment.recorded_at = timezone.now()
    reason = _("Entry fee: %(status)s") % {"status": EntryPayment.Status(status).label}
    payment = save_with_history(payment, actor, reason)
    _public_amounts_changed(event)
    return payment


def _public_amounts_changed(event: Event) -> None:
    """The pot moved: where the public prize page shows amounts (a share prize is a share
    of the pot), its cached copy must go (the public cache keys on the results version)."""
    if PrizePlan.objects.filter(event=event, public_winners=True, public_amounts=True).exists():
        bump_results_version(event.pk)
    else:  # no public figure moved; live results still send the fees
        announce_change(event.pk)
