"""One seat's line for one hand: the type both the hand checks and the card-level checks read."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line for one hand.

    Give ``hand_points`` or ``cards`` (or both: they must agree); with cards, the
    points are computed from them. ``melded`` is the melded value, needed by profiles
    with ``ruleset.needs_melded``. ``hand_romme`` lets a sheet mark the hand Rommé in a
    seat's column; only the winner may carry it. ``melds`` and ``laid_off`` (optional,
    card level) are checked by :mod:`rules.table_cards`.
    """

    hand_points: int | None = None
    cards: tuple[Card, ...] | None = None
    melded: int | None = None
    hand_romme: bool = False
    #: the melds this seat laid down itself, each in the order written (card level)
    melds: tuple[tuple[Card, ...], ...] | None = None
    #: cards this seat laid off on melds already on the table (card level)
    laid_off: tuple[Card, ...] | None = None

    def points(self, ruleset: RuleSet) -> int | None:
        """Hand points: from the cards when given, else as written."""
        if self.cards is not None:
            values = ruleset.hand_values
            return sum(values[c.rank] for c in self.cards)
        return self.hand_points
