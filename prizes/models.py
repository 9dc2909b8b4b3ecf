"""The money and the prizes of an event: entry fees, who paid them, and the prize plan.

The payout itself (who wins what, ties, one prize per player) is a rule:
`rules.payout`, computed from the stored standings when the list is read.
"""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.models import Category, Event, Participant

# Euros with cents; nothing a club pays out at one event comes near this.
MONEY = {"max_digits": 9, "decimal_places": 2}
MAX_AMOUNT = Decimal("100000.00")
money_validators = [MinValueValidator(Decimal("0")), MaxValueValidator(MAX_AMOUNT)]


class EntryFee(models.Model):
    """The entry fee (Startgeld) of an event; a category may pay a different one (youth)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="entry_fees", verbose_name=_("event")
    )
    # None: the fee of everyone not in a category with its own fee.
    category = models.ForeignKey(
        Category,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="entry_fees",
        verbose_name=_("category"),
    )
    amount = models.DecimalField(_("amount"), validators=money_validators, **MONEY)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("entry fee")
        verbose_name_plural = _("entry fees")
        constraints = [
            models.UniqueConstraint(
                fields=["event"],
                condition=Q(category__isnull=True),
                name="one_general_entry_fee",
            ),
            models.UniqueConstraint(fields=["event", "category"], name="one_fee_per_category"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="entry_fee_not_negative"),
        ]

    def __str__(self):
        return f"{self.category or _('all')}: {self.amount}"


class EntryPayment(models.Model):
    """Whether a participant paid the entry fee, how, and who took it when. The amount is
    what was due when it was recorded: a later fee change does not rewrite it."""

    class Status(models.TextChoices):
        OPEN = "open", _("not paid")
        CASH = "cash", _("paid in cash")
        TRANSFER = "transfer", _("paid by transfer")
        WAIVED = "waived", _("waived")

    participant = models.OneToOneField(
        Participant,
        on_delete=models.CASCADE,
        related_name="entry_payment",
        verbose_name=_("participant"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    amount = models.DecimalField(
        _("amount"), validators=money_validators, default=Decimal("0"), **MONEY
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(_("recorded at"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("entry fee payment")
        verbose_name_plural = _("entry fee payments")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="entry_payment_not_negative"),
        ]

    def __str__(self):
        return f"{self.participant}: {self.get_status_display()}"


def default_precedence() -> list[str]:
    """Competitions in the order prizes are handed out (rules.payout)."""
    return ["overall", "day", "series", "category", "pairs", "teams"]


class PrizePlan(models.Model):
    """What an event pays out, and under which rules; every save is kept (history).

    `prizes` is a list of lines {"competition", "place", "amount" | "share" | "item"},
    validated by rules.payout.clean_lines before it is saved."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="prize_plan", verbose_name=_("event")
    )
    prizes = models.JSONField(_("prizes"), default=list, blank=True)
    one_prize_per_player = models.BooleanField(
        _("one prize per player"),
        default=True,
        help_text=_("A player who already won a prize is passed over; the next in line moves up."),
    )
    precedence = models.JSONField(_("order of precedence"), default=default_precedence)
    costs = models.DecimalField(
        _("costs"), validators=money_validators, default=Decimal("0"), **MONEY
    )
    costs_note = models.CharField(_("what the costs are"), max_length=200, blank=True)
    public_winners = models.BooleanField(_("show the prize winners publicly"), default=True)
    public_amounts = models.BooleanField(_("show the amounts publicly"), default=False)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(_("changed at"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("prize plan")
        verbose_name_plural = _("prize plans")
        constraints = [
            models.CheckConstraint(condition=Q(costs__gte=0), name="prize_costs_not_negative"),
        ]

    def __str__(self):
        return str(self.event)
