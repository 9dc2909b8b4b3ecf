"""Reading one hand from the phone page's fields.

    winner          1-based seat that went out (its entry is 0)
    romme           "1": the winner went out with a hand Rommé
    points-<seat>   hand points of a seat (digits), or
    cards-<seat>    its cards ("Jo A K 7"); cards win over points when both are written
    melded-<seat>   melded value, only where the rule set's profile needs it
    first_dealer    1-based seat of the first dealer (first hand only)

The same reading as the sheet page (`forms.grid_from_typed`): what a value is worth and
whether the hand is plausible is decided by `rules` when the hand is saved.
"""

from __future__ import annotations

import dataclasses

from rules import Problem
from scoring.sheets.forms import TypedGrid, TypedRow, grid_from_typed


def _seat_number(value, size: int) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number - 1 if 1 <= number <= size else None


def hand_from_post(data, *, table_size: int, number: int) -> tuple[dict, list[Problem]]:
    """The grid hand of the posted fields and the malformed input found (numbered as hand
    ``number``)."""
    winner = _seat_number(data.get("winner"), table_size)
    cells, melded = [], []
    for k in range(1, table_size + 1):
        cards = (data.get(f"cards-{k}") or "").strip()
        points = (data.get(f"points-{k}") or "").strip()
        if winner == k - 1:
            # What is typed for the winner goes to the rules ("holds no cards"), not away.
            cells.append(cards or points or "0")
        else:
            cells.append(cards or points)
        melded.append((data.get(f"melded-{k}") or "").strip())
    if winner is None and not any(cells) and not any(melded):
        # Nothing typed: the sheet's grid would skip the row; here it is a hand with no points.
        missing = [Problem("hand.loser-points-missing", number, seat) for seat in range(table_size)]
        return {"winner": None, "seats": []}, missing
    row = TypedRow(cells=cells, melded=melded, hand_romme=data.get("romme") in ("1", "on"))
    grid, problems = grid_from_typed(TypedGrid(0, [row]), table_size=table_size)
    hand = grid["hands"][0]
    hand["dealer"] = _seat_number(data.get("first_dealer"), table_size)
    if winner is not None:
        hand["winner"] = winner
    return hand, [dataclasses.replace(p, hand=number) for p in problems]


def fields_of_hand(hand) -> dict[str, str]:
    """A stored hand (selectors.PhoneHand) as the phone form's fields: the form prefilled
    for a correction or a seat's own version."""
    fields = {"winner": "" if hand.winner is None else str(hand.winner + 1)}
    fields["romme"] = "1" if hand.hand_romme else ""
    for k, entry in enumerate(hand.entries, start=1):
        if entry.isdigit():
            fields[f"points-{k}"] = entry
        else:
            fields[f"cards-{k}"] = entry
    return fields
