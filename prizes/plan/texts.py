"""The prize plan in plain sentences (the plan page and the prize list show them): each line,
then every rule the payout follows (`rules.payout`)."""

from __future__ import annotations

from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext as _

from common.money import format_euro
from prizes.plan.forms import PRECEDENCE_LABELS
from rules.payout import (
    PrizeLine,
)


def _of(line: PrizeLine, categories: dict[str, str]) -> str:
    place = {"place": line.place}
    if line.competition == "overall":
        return _("Place %(place)d of the overall standing") % place
    if line.competition == "series":
        return _("Place %(place)d of every series") % place
    if line.competition == "day":
        return _("Place %(place)d of every day") % place
    if line.competition == "pairs":
        return _("Place %(place)d of the pairs") % place
    if line.competition == "teams":
        return _("Place %(place)d of the teams") % place
    name = categories.get(str(line.ref), "?")
    return _("Place %(place)d of the category %(name)s") % {**place, "name": name}


def line_sentence(line: PrizeLine, categories: dict[str, str]) -> str:
    who = _of(line, categories)
    if line.amount is not None:
        return _("%(who)s wins %(amount)s.") % {"who": who, "amount": format_euro(line.amount)}
    if line.share is not None:
        share = formats.number_format(Decimal(line.share).normalize(), use_l10n=True)
        return _("%(who)s wins %(share)s %% of the pot.") % {"who": who, "share": share}
    return _("%(who)s wins a non-cash prize: %(item)s.") % {"who": who, "item": line.item}


def rule_sentences(plan) -> list[str]:
    """The plan's rules, each a sentence."""
    out = []
    if plan.one_prize_per_player:
        out.append(
            _(
                "Each player wins one prize at most, the first in the order of precedence; "
                "a player who already won a prize is passed over and the next in line moves "
                "up. Prizes of pairs and teams do not count here."
            )
        )
    else:
        out.append(_("A player may win several prizes."))
    order = ", ".join(str(PRECEDENCE_LABELS.get(c, c)) for c in plan.precedence)
    out.append(_("Order of precedence: %(order)s.") % {"order": order})
    out.append(
        _(
            "Players tied on prize places share the money of the places they occupy equally, "
            "each share rounded down to the cent; the cents left are stated and not paid. A "
            "non-cash prize on a tied place is listed for each of them: the director decides."
        )
    )
    out.append(_("Withdrawn and disqualified players win nothing; the next in line moves up."))
    if plan.costs:
        if plan.costs_note:
            out.append(
                _("Costs of %(costs)s (%(note)s) are taken from the collected entry fees.")
                % {"costs": format_euro(plan.costs), "note": plan.costs_note}
            )
        else:
            out.append(
                _("Costs of %(costs)s are taken from the collected entry fees.")
                % {"costs": format_euro(plan.costs)}
            )
    out.append(_("A share prize is a share of the pot: the collected entry fees less the costs."))
    if not plan.public_winners:
        out.append(_("The prize winners are not shown on the public page."))
    elif plan.public_amounts:
        out.append(_("The public page shows the prize winners with their amounts."))
    else:
        out.append(_("The public page shows the prize winners, without amounts."))
    return out
