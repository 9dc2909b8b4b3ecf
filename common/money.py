"""Money as the users read it: euros with cents in the active language ("1.234,50 €" in
German, "€1,234.50" in English). Stored and computed as Decimal, never float."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal, InvalidOperation

from django.utils import formats
from django.utils.translation import get_language

CENT = Decimal("0.01")


def to_money(value) -> Decimal:
    """A Decimal with exactly two places (cents rounded down: nobody is paid a cent the
    plan does not hold)."""
    try:
        return Decimal(value).quantize(CENT, rounding=ROUND_DOWN)
    except (InvalidOperation, TypeError, ValueError) as error:
        raise ValueError(f"not an amount: {value!r}") from error


def format_euro(value) -> str:
    """The amount for a page, PDF or list; "" for None."""
    if value is None or value == "":
        return ""
    amount = to_money(value)
    number = formats.number_format(amount, 2, use_l10n=True, force_grouping=True)
    if (get_language() or "de").startswith("en"):
        return f"-€{number[1:]}" if number.startswith("-") else f"€{number}"
    return f"{number}\N{NO-BREAK SPACE}€"
