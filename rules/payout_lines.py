"""The lines of a prize plan: what each pays, and the checks a plan passes before it is
saved (pure Python). `rules.payout` hands the lines out; it re-exports every name
here, so callers import from there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation

CENT = Decimal("0.01")
ZERO = Decimal("0")
COMPETITIONS = ("overall", "series", "day", "pairs", "teams", "category")
INDIVIDUAL = frozenset({"overall", "series", "day", "category"})
DEFAULT_PRECEDENCE = ("overall", "day", "series", "category", "pairs", "teams")
MAX_AMOUNT = Decimal("100000")
MAX_PLACE = 10000
MAX_ITEM = 200

#: every code a PayoutError carries, with its English text (the caller says it in German,
#: naming the line: "Zeile 3 (Serie, Platz 2): Betrag fehlt")
PAYOUT_ERRORS: dict[str, str] = {
    "payout.not-a-line": "The line is not a prize line.",
    "payout.competition": "The competition is not overall, series, day, pairs, teams or category.",
    "payout.category": "The category is missing or not one of the event's categories.",
    "payout.place": f"The place is not a whole number from 1 to {MAX_PLACE}.",
    "payout.place-twice": "The place already has a prize in this competition.",
    "payout.prize-missing": "The line has no amount, share or non-cash prize.",
    "payout.prize-several": "The line has more than one of amount, share and non-cash prize.",
    "payout.amount-invalid": "The amount is not a number.",
    "payout.amount-range": f"The amount is below 0 or above {MAX_AMOUNT} euros.",
    "payout.amount-cents": "The amount has more than two decimal places (cents).",
    "payout.share-invalid": "The share is not a number.",
    "payout.share-range": "The share is below 0 or above 100 percent.",
    "payout.share-cents": "The share has more than two decimal places.",
    "payout.shares-total": "The shares of all lines together come to more than 100 percent.",
    "payout.item-long": f"The non-cash prize is longer than {MAX_ITEM} characters.",
    "payout.precedence": "The order of precedence does not name every competition once.",
    "payout.standing": "A standing's competition is not a known competition.",
}


@dataclass(frozen=True)
class PrizeLine:
    """One line of a plan: place `place` of `competition` (of category `ref`) wins a cash
    `amount`, or `share` percent of the pot, or the non-cash prize `item`."""

    competition: str
    place: int
    amount: Decimal | None = None
    share: Decimal | None = None
    item: str = ""
    ref: str = ""  # the category's id for competition "category", else ""

    @property
    def is_cash(self) -> bool:
        return self.amount is not None or self.share is not None

    def as_json(self) -> dict:
        """The line as stored in PrizePlan.prizes (Decimals as strings)."""
        out: dict = {"competition": self.competition, "place": self.place}
        if self.ref:
            out["ref"] = self.ref
        if self.amount is not None:
            out["amount"] = str(self.amount)
        if self.share is not None:
            out["share"] = str(self.share)
        if self.item:
            out["item"] = self.item
        return out


class PayoutError(ValueError):
    """A plan line that cannot be paid; `line` is its 1-based position.

    `code` is a key of PAYOUT_ERRORS, `field` the line's field at fault ("competition",
    "ref", "place", "amount", "share", "item" or ""), `params` what a message needs
    (always "competition" and "place" when the line has them)."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        *,
        code: str = "",
        field: str = "",
        params: dict | None = None,
    ):
        super().__init__(message)
        self.line = line
        self.code = code
        self.field = field
        self.params = params or {}


def payout_error(code: str, number: int | None, fieldname: str, **params) -> PayoutError:
    where = f"line {number}: " if number is not None else ""
    return PayoutError(
        where + PAYOUT_ERRORS[code], number, code=code, field=fieldname, params=params
    )


def cents_down(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_DOWN)


def pot(collected: Decimal, costs: Decimal) -> Decimal:
    """The pot a share prize is a share of: collected fees minus stated costs, never
    below 0."""
    return max(Decimal(collected) - Decimal(costs), ZERO)


def line_amount(line: PrizeLine, pot_amount: Decimal) -> Decimal:
    """The cash a line pays (a share: of the pot, rounded down to the cent; an item: 0)."""
    if line.amount is not None:
        return Decimal(line.amount)
    if line.share is not None:
        return cents_down(max(Decimal(pot_amount), ZERO) * Decimal(line.share) / 100)
    return ZERO


# --- checking the plan ---------------------------------------------------------------


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _decimal(value) -> Decimal | None:
    """A finite Decimal from a JSON value (number or string, "12,50" too), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        value = repr(value)
    if isinstance(value, str):
        value = value.strip().replace("\N{NO-BREAK SPACE}", "").replace(" ", "")
        value = value.removesuffix("€").removesuffix("%")
        if value.count(",") == 1 and "." not in value:
            value = value.replace(",", ".")
    try:
        number = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return None
    return number if number.is_finite() else None


def _place(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip()
        if not value.isdigit():
            return None
        value = int(value)
    if isinstance(value, float):
        if not value.is_integer():
            return None
        value = int(value)
    if isinstance(value, Decimal):
        if not value.is_finite() or value != value.to_integral_value():
            return None
        value = int(value)
    if not isinstance(value, int) or not 1 <= value <= MAX_PLACE:
        return None
    return value


def clean_line(raw, number: int, *, categories: Sequence[str] = ()) -> PrizeLine:
    """One line of the plan from stored JSON, checked (see clean_lines); `number` is its
    1-based position for the error."""
    if not isinstance(raw, Mapping):
        raise payout_error("payout.not-a-line", number, "")
    competition = raw.get("competition")
    if competition not in COMPETITIONS:
        raise payout_error("payout.competition", number, "competition", competition=competition)
    place = _place(raw.get("place"))
    where = {"competition": competition, "place": place if place else raw.get("place")}
    ref = ""
    if competition == "category":
        ref = "" if _blank(raw.get("ref")) else str(raw.get("ref")).strip()
        if ref not in {str(c) for c in categories}:
            raise payout_error("payout.category", number, "ref", ref=ref, **where)
        where["ref"] = ref
    if place is None:
        raise payout_error("payout.place", number, "place", **where)
    given = [k for k in ("amount", "share", "item") if not _blank(raw.get(k))]
    if not given:
        raise payout_error("payout.prize-missing", number, "amount", **where)
    if len(given) > 1:
        raise payout_error("payout.prize-several", number, given[1], **where)
    kind = given[0]
    if kind == "item":
        item = str(raw["item"]).strip()
        if len(item) > MAX_ITEM:
            raise payout_error("payout.item-long", number, "item", **where)
        return PrizeLine(competition, place, item=item, ref=ref)
    value = _decimal(raw[kind])
    if value is None:
        raise payout_error(f"payout.{kind}-invalid", number, kind, value=raw[kind], **where)
    top = MAX_AMOUNT if kind == "amount" else Decimal(100)
    if not ZERO <= value <= top:
        raise payout_error(f"payout.{kind}-range", number, kind, value=value, **where)
    if value != value.quantize(CENT, rounding=ROUND_DOWN):
        raise payout_error(f"payout.{kind}-cents", number, kind, value=value, **where)
    value = value.quantize(CENT)
    if kind == "amount":
        return PrizeLine(competition, place, amount=value, ref=ref)
    return PrizeLine(competition, place, share=value, ref=ref)


def check_places(lines: Sequence[PrizeLine]) -> None:
    seen: dict[tuple, int] = {}
    for number, line in enumerate(lines, 1):
        if line.competition not in COMPETITIONS:
            raise payout_error(
                "payout.competition", number, "competition", competition=line.competition
            )
        slot = (line.competition, line.ref if line.competition == "category" else "", line.place)
        if slot in seen:
            raise payout_error(
                "payout.place-twice",
                number,
                "place",
                competition=line.competition,
                place=line.place,
                ref=line.ref,
                first=seen[slot],
            )
        seen[slot] = number


def clean_lines(raw: Sequence[dict], *, categories: Sequence[str] = ()) -> list[PrizeLine]:
    """The plan's lines from stored JSON, checked: a known competition, a place of 1 or
    more, exactly one of amount/share/item, amounts 0..100000 €, shares 0..100 % and all
    shares together at most 100 %, no place twice. Raises PayoutError naming the line.

    A category line's `ref` must be one of `categories` (the event's category ids, as
    strings); other lines' `ref` is dropped. Blank values ("", None) count as absent."""
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise payout_error("payout.not-a-line", None, "")
    lines = [clean_line(r, n, categories=categories) for n, r in enumerate(raw, 1)]
    check_places(lines)
    shares = ZERO
    for number, line in enumerate(lines, 1):
        if line.share is not None:
            shares += line.share
            if shares > 100:
                raise payout_error(
                    "payout.shares-total",
                    number,
                    "share",
                    competition=line.competition,
                    place=line.place,
                    total=shares,
                )
    return lines


def clean_precedence(raw) -> tuple[str, ...]:
    """The order of precedence from stored JSON: every competition exactly once."""
    if (
        not isinstance(raw, Sequence)
        or isinstance(raw, str)
        or sorted(map(str, raw)) != sorted(COMPETITIONS)
    ):
        raise payout_error("payout.precedence", None, "precedence")
    return tuple(raw)
