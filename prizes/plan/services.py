"""Saving an event's prize plan: one transaction, the organiser's role, the lines checked by
`rules.payout.clean_lines` (a German message naming the line), the plan's total
against the pot (a warning: saved only when the director confirms) and the history."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import ORGANISER, require_role
from common.history import save_with_history
from common.money import format_euro
from prizes.models import MAX_AMOUNT, PrizePlan
from prizes.plan.selectors import category_names, collected_fees, competition_label
from rules.payout import (
    COMPETITIONS,
    DEFAULT_PRECEDENCE,
    PayoutError,
    PrizeLine,
    clean_lines,
    clean_precedence,
    plan_summary,
    pot,
)
from tournaments.models import Event, Series
from tournaments.results import bump_results_version

# The payout rule's error codes in the reader's language (the rule itself is pure Python).
LINE_ERRORS = {
    "payout.not-a-line": gettext_lazy("the line is not a prize line"),
    "payout.competition": gettext_lazy("choose the standing the prize is for"),
    "payout.category": gettext_lazy("the category is not one of this event's categories"),
    "payout.place": gettext_lazy("the place must be a whole number from 1 to 10,000"),
    "payout.place-twice": gettext_lazy("this place already has a prize in this standing"),
    "payout.prize-missing": gettext_lazy("enter an amount, a share of the pot or a non-cash prize"),
    "payout.prize-several": gettext_lazy(
        "enter only one of amount, share of the pot and non-cash prize"
    ),
    "payout.amount-invalid": gettext_lazy("the amount is not a number"),
    "payout.amount-range": gettext_lazy("the amount must be from 0 to 100,000 euros"),
    "payout.amount-cents": gettext_lazy("the amount has more than two decimal places (cents)"),
    "payout.share-invalid": gettext_lazy("the share is not a number"),
    "payout.share-range": gettext_lazy("the share must be from 0 to 100 percent"),
    "payout.share-cents": gettext_lazy("the share has more than two decimal places"),
    "payout.shares-total": gettext_lazy(
        "the shares of all lines together come to more than 100 percent of the pot"
    ),
    "payout.item-long": gettext_lazy("the non-cash prize is longer than 200 characters"),
    "payout.precedence": gettext_lazy("the order of precedence must name every standing once"),
}


class PlanOverPot(ValidationError):
    """The plan pays more than the pot: saved only when the director confirms."""


class PlanChanged(ValidationError):
    """Somebody saved the plan after the page was opened; ``stamp`` is the stored plan's."""

    def __init__(self, message, stamp: str):
        super().__init__(message)
        self.stamp = stamp


def plan_stamp(plan: PrizePlan | None) -> str:
    """Which stored plan a page shows: its last save, or none yet."""
    return plan.updated_at.isoformat() if plan is not None and plan.updated_at else "none"


@dataclass
class PlanCheck:
    """What a plan comes to before any standing: its total and the pots it is held
    against."""

    planned: Decimal
    pot: Decimal  # collected fees minus costs
    pot_if_all_paid: Decimal  # every entry fee paid, minus costs
    collected: Decimal
    due: Decimal
    items: int

    @property
    def exceeds(self) -> bool:
        return self.planned > self.pot or self.planned > self.pot_if_all_paid


def line_message(error: PayoutError, raw: list) -> str:
    """ "Line 3 (Every series, place 2): enter an amount, …" in the reader's language."""
    text = str(LINE_ERRORS.get(error.code, error))
    if error.line is None:
        return text[:1].upper() + text[1:]
    line = raw[error.line - 1] if 0 < error.line <= len(raw) else {}
    line = line if isinstance(line, dict) else {}
    place = line.get("place")
    what = competition_label(str(line.get("competition", "")), str(line.get("ref", "")))
    if line.get("competition") not in COMPETITIONS:
        return _("Line %(line)d: %(message)s") % {"line": error.line, "message": text}
    return _("Line %(line)d (%(standing)s, place %(place)s): %(message)s") % {
        "line": error.line,
        "standing": what,
        "place": place if place not in (None, "") else "–",
        "message": text,
    }


def counts_of(event: Event, categories) -> dict[str, int]:
    """How many series and days the event has (planned or played), for the plan's total
    (one query)."""
    series = list(
        Series.objects.filter(event=event, kind=Series.Kind.REGULAR).values_list("day", flat=True)
    )
    return {"series": len(series), "day": len(set(series)), "category": len(categories)}


def check_plan(event: Event, lines: list[PrizeLine], costs: Decimal) -> PlanCheck:
    categories = category_names(event)
    collected, due = collected_fees(event)
    pot_amount = pot(collected, costs)
    summary = plan_summary(lines, counts_of(event, categories), pot_amount)
    return PlanCheck(
        planned=summary["planned"],
        pot=pot_amount,
        pot_if_all_paid=pot(due, costs),
        collected=collected,
        due=due,
        items=summary["items"],
    )


def over_pot_message(check: PlanCheck) -> str:
    return _(
        "The plan pays out %(planned)s, but the pot holds %(pot)s (collected %(collected)s "
        "less the costs) and would hold %(pot_all)s if everyone paid. Tick “Save anyway” "
        "to save it like this."
    ) % {
        "planned": format_euro(check.planned),
        "pot": format_euro(check.pot),
        "collected": format_euro(check.collected),
        "pot_all": format_euro(check.pot_if_all_paid),
    }


def _costs(value) -> Decimal:
    try:
        costs = Decimal(value if value not in (None, "") else "0")
    except (InvalidOperation, TypeError, ValueError):
        raise ValidationError({"costs": _("The costs are not an amount.")}) from None
    if not costs.is_finite() or costs < 0 or costs > MAX_AMOUNT:
        raise ValidationError({"costs": _("The costs must be from 0 to 100,000 euros.")})
    if costs != costs.quantize(Decimal("0.01")):
        raise ValidationError({"costs": _("The costs have more than two decimal places.")})
    return costs


@transaction.atomic
def save_plan(
    actor,
    event: Event,
    *,
    lines: list[dict],
    one_prize_per_player: bool = True,
    precedence=None,
    costs=Decimal("0"),
    costs_note: str = "",
    public_winners: bool = True,
    public_amounts: bool = False,
    confirmed: bool = False,
    seen: str = "",
) -> PrizePlan:
    """Save the event's prize plan (created on the first save). Raises ValidationError with
    German messages naming the line; PlanOverPot when the plan pays more than the pot
    (collected, or if everyone paid) and ``confirmed`` is not set. Nothing is written
    on an error. ``seen``: the plan_stamp the page was drawn from; PlanChanged when the
    stored plan is another (two directors on one plan), nothing written."""
    require_role(actor, event.club, ORGANISER)
    categories = category_names(event)
    try:
        cleaned = clean_lines(lines, categories=list(categories))
        order = clean_precedence(list(precedence or DEFAULT_PRECEDENCE))
    except PayoutError as error:
        raise ValidationError(line_message(error, list(lines))) from None
    costs = _costs(costs)
    check = check_plan(event, cleaned, costs)
    if check.exceeds and not confirmed:
        raise PlanOverPot(over_pot_message(check))
    plan = PrizePlan.objects.select_for_update().filter(event=event).first()
    stamp = plan_stamp(plan)
    if seen and seen != stamp:
        raise PlanChanged(_changed_message(plan), stamp)
    if plan is None:
        plan = PrizePlan(event=event)
    plan.prizes = [line.as_json() for line in cleaned]
    plan.one_prize_per_player = bool(one_prize_per_player)
    plan.precedence = list(order)
    plan.costs = costs
    plan.costs_note = (costs_note or "").strip()[:200]
    plan.public_winners = bool(public_winners)
    plan.public_amounts = bool(public_amounts) and bool(public_winners)
    plan.updated_by = actor if actor is not None and actor.is_authenticated else None
    plan.updated_at = timezone.now()
    reason = _("Prize plan saved over the pot (confirmed)") if check.exceeds else None
    plan = save_with_history(plan, actor, reason)
    # The public prize page and the public standings' link to it are cached per version.
    bump_results_version(event.pk)
    return plan


def _changed_message(plan: PrizePlan | None) -> str:
    if plan is None:
        return _("The prize plan was deleted after this page was opened.")
    who = plan.updated_by.get_username() if plan.updated_by else _("somebody")
    return _(
        "%(user)s saved the prize plan at %(time)s, after this page was opened; nothing of "
        "yours is saved yet. The saved plan is shown above, your lines below: compare them, "
        "then save again."
    ) % {"user": who, "time": formats.time_format(timezone.localtime(plan.updated_at))}
