"""Reading the entry page's fields into a grid, and the rule-set form.

The page posts one text field per cell, named by 1-based hand and seat numbers:

    cell-<hand>-<seat>     hand points ("17"), 0 for the player who went out, or cards
                           ("Jo A K 7"); empty: not written yet
    melded-<hand>-<seat>   melded value, only where the rule set's profile needs it
    romme-<hand>           "1" when the hand was a hand Rommé
    first_dealer           0-based seat of the first dealer
    expected_version       the version the page was loaded with
    action                 "draft", "submit", "blind" or "resolve"; reason (corrections,
                           resolutions); the confirm button posts the same fields to
                           …/sheet/confirm/ so the server confirms exactly what is shown

Which seat went out is the seat with 0 (the rules engine reports a second 0). Whether a
cell is points or cards is decided here (digits only: points); what it is worth and
whether it is plausible is decided by `rules` alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django import forms
from django.utils.translation import gettext_lazy as _

from rules import Problem
from scoring.sheets.grid import MAX_CARDS_TEXT, MAX_HAND_POINTS_STORED, MAX_HANDS, cell_text
from tournaments.models import PRESET_CHOICES

_CELL = re.compile(r"^cell-(\d{1,6})-(\d{1,6})$")  # bounded: no 25-digit int()
_NUMBER = re.compile(r"^\d+$")
_NEGATIVE = re.compile(r"^-\s*\d+$")
_MELDED = re.compile(r"^-?\d+$")


@dataclass
class TypedRow:
    cells: list[str]
    melded: list[str]
    hand_romme: bool = False


@dataclass
class TypedGrid:
    """The grid as typed on the page: text per cell, so nothing typed is lost."""

    first_dealer: int
    rows: list[TypedRow] = field(default_factory=list)


def typed_from_post(data, *, table_size: int, rows: int) -> TypedGrid:
    """The cells of a POST (at least ``rows`` rows; more if more were posted)."""
    last = rows
    for key in data:
        match = _CELL.match(key)
        if match:
            last = max(last, min(int(match.group(1)), MAX_HANDS))
    try:
        first = int(data.get("first_dealer", 0))
    except (TypeError, ValueError):
        first = -1
    grid = TypedGrid(first_dealer=first)
    for n in range(1, last + 1):
        grid.rows.append(
            TypedRow(
                cells=[data.get(f"cell-{n}-{k}", "").strip() for k in range(1, table_size + 1)],
                melded=[data.get(f"melded-{n}-{k}", "").strip() for k in range(1, table_size + 1)],
                hand_romme=data.get(f"romme-{n}", "") in ("1", "on", "true"),
            )
        )
    return grid


def typed_from_grid(grid: dict, *, table_size: int, rows: int) -> TypedGrid:
    """A stored grid as the page shows it."""
    typed = TypedGrid(first_dealer=grid.get("first_dealer", 0))
    hands = grid.get("hands", [])
    for n in range(max(rows, len(hands))):
        hand = hands[n] if n < len(hands) else {"seats": []}
        seats = list(hand.get("seats", [])) + [None] * table_size
        typed.rows.append(
            TypedRow(
                cells=[cell_text(s) for s in seats[:table_size]],
                melded=[
                    "" if not s or s.get("melded") is None else str(s["melded"])
                    for s in seats[:table_size]
                ],
                hand_romme=bool(hand.get("hand_romme")),
            )
        )
    return typed


def grid_from_typed(typed: TypedGrid, *, table_size: int) -> tuple[dict, list[Problem]]:
    """The grid (selectors' format) of typed cells, and the malformed input found."""
    problems: list[Problem] = []
    first = typed.first_dealer
    if not 0 <= first < table_size:
        problems.append(Problem("input.bad-first-dealer", params={"first_dealer": first}))
        first = 0
    hands = []
    for number, row in enumerate(typed.rows, start=1):
        seats = []
        for index, text in enumerate(row.cells):
            seat = {"hand_points": None, "cards": None, "melded": None}
            if _NUMBER.match(text):
                value = int(text) if len(text) <= 9 else MAX_HAND_POINTS_STORED + 1
                if value > MAX_HAND_POINTS_STORED:
                    problems.append(Problem("input.too-large", number, index, {"text": text[:20]}))
                else:
                    seat["hand_points"] = value
            elif _NEGATIVE.match(text):
                problems.append(Problem("input.negative", number, index, {"text": text[:20]}))
            elif text:
                if len(text) > MAX_CARDS_TEXT:
                    problems.append(Problem("input.too-long", number, index, {}))
                else:
                    seat["cards"] = text
            melded = row.melded[index] if index < len(row.melded) else ""
            if melded:
                if _MELDED.match(melded) and (
                    len(melded) > 10 or abs(int(melded)) > MAX_HAND_POINTS_STORED
                ):
                    problems.append(
                        Problem("input.melded-too-large", number, index, {"text": melded[:20]})
                    )
                elif _MELDED.match(melded):
                    seat["melded"] = int(melded)
                else:
                    problems.append(
                        Problem("input.melded-not-a-number", number, index, {"text": melded})
                    )
            seats.append(seat)
        zeros = [i for i, s in enumerate(seats) if s["hand_points"] == 0]
        hands.append(
            {
                "dealer": (first + number - 1) % table_size,
                "winner": zeros[0] if zeros else None,
                "hand_romme": row.hand_romme,
                "seats": seats,
            }
        )
    return {"first_dealer": first, "hands": hands}, problems


class SheetActionForm(forms.Form):
    """The fields of the entry page besides the cells."""

    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    action = forms.ChoiceField(
        choices=[
            ("draft", "draft"),
            ("submit", "submit"),
            ("blind", "blind"),
            ("resolve", "resolve"),
        ],
        required=False,
    )
    reason = forms.CharField(
        label=_("Reason for the correction"), required=False, max_length=2000, widget=forms.Textarea
    )


class ConfirmForm(forms.Form):
    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


STOCK_CHOICES = [("", _("as in the preset")), ("yes", _("yes")), ("no", _("no"))]


class RulesetForm(forms.Form):
    """A preset and the few settings a director changes; empty fields keep the preset's."""

    slug = forms.ChoiceField(label=_("Preset"), choices=PRESET_CHOICES)
    joker_points = forms.IntegerField(
        label=_("Joker in hand"),
        required=False,
        min_value=0,
        max_value=100,
        help_text=_("Empty: the preset's value."),
    )
    first_meld_minimum = forms.IntegerField(
        label=_("First-meld minimum"),
        required=False,
        min_value=0,
        max_value=200,
        help_text=_("Empty: the preset's value."),
    )
    hand_romme_multiplier = forms.IntegerField(
        label=_("Hand Rommé multiplies hand points by"),
        required=False,
        min_value=1,
        max_value=10,
        help_text=_("Empty: the preset's value."),
    )
    stock_may_run_out = forms.ChoiceField(
        label=_("A hand may end with nobody out"), choices=STOCK_CHOICES, required=False
    )
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        help_text=_("Kept in the event's history; every result is recomputed."),
    )

    OVERRIDES = ("joker_points", "first_meld_minimum", "hand_romme_multiplier")

    @classmethod
    def initial_for(cls, event) -> dict:
        overrides = event.ruleset_overrides or {}
        initial = {"slug": event.ruleset_slug}
        for name in cls.OVERRIDES:
            if name in overrides:
                initial[name] = overrides[name]
        if "stock_may_run_out" in overrides:
            initial["stock_may_run_out"] = "yes" if overrides["stock_may_run_out"] else "no"
        return initial

    def overrides(self, event) -> dict:
        """The overrides to store: the form's, over the event's other overrides (those of a
        setting this form does not show) while the preset stays the same."""
        data = self.cleaned_data
        keep = {}
        if data["slug"] == event.ruleset_slug:
            shown = {*self.OVERRIDES, "stock_may_run_out"}
            keep = {k: v for k, v in (event.ruleset_overrides or {}).items() if k not in shown}
        for name in self.OVERRIDES:
            if data.get(name) is not None:
                keep[name] = data[name]
        if data.get("stock_may_run_out"):
            keep["stock_may_run_out"] = data["stock_may_run_out"] == "yes"
        return keep
