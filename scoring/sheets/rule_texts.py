"""German/English sentences for the meld, deck, session-end and tie rules.

Kept apart from :mod:`scoring.messages` (which calls :func:`rule_text` for these codes) so
that module stays small. Each entry turns a problem's params into one sentence; the caller
adds table, hand, seat and the rule id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _


def _p(params: dict[str, Any], *names: str) -> dict[str, Any]:
    return {n: params.get(n, "?") for n in names}


_TEXTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "meld.too-few-cards": lambda p: (
        _("a meld has at least %(min)s cards, but %(cards)s are written") % _p(p, "min", "cards")
    ),
    "meld.no-natural-card": lambda p: _("a meld needs at least one natural card"),
    "meld.one-natural-two-jokers": lambda p: _(
        "a meld with two jokers needs at least two natural cards (3-J-J is illegal)"
    ),
    "meld.joker-not-in-deck": lambda p: _("this rule set plays without jokers"),
    "meld.jokers-exceed-deck": lambda p: (
        _("the meld holds %(jokers)s jokers, but the deck has only %(deck)s")
        % _p(p, "jokers", "deck")
    ),
    "meld.card-count-exceeds-deck": lambda p: (
        _("the meld holds %(card)s %(count)s times, but the deck has it only %(deck)s times")
        % _p(p, "card", "count", "deck")
    ),
    "meld.set-too-many-cards": lambda p: _("a set has three or four cards"),
    "meld.set-duplicate-suit": lambda p: (
        _("%(card)s: the cards of a set are all of different suits") % _p(p, "card")
    ),
    "meld.mixed": lambda p: _("the cards are neither of one rank nor of one suit"),
    "meld.run-mixed-suits": lambda p: _("the cards of a run are all of one suit"),
    "meld.run-not-consecutive": lambda p: _("the cards of a run follow each other without gaps"),
    "meld.run-corner": lambda p: _("a run may not turn the corner (K-A-2) in this rule set"),
    "meld.run-too-long": lambda p: _("a run turning the corner has at most thirteen cards"),
    "meld.run-not-in-order": lambda p: _(
        "write the run in order: where runs may turn the corner, the ace's value "
        "(1, 5 or 10) depends on where it stands"
    ),
    "meld.first-meld-below-minimum": lambda p: (
        _("the first meld is worth %(value)s, less than the minimum of %(minimum)s")
        % _p(p, "value", "minimum")
    ),
    "meld.joker-swap-forbidden": lambda p: _("this rule set does not allow swapping a joker"),
    "meld.joker-swap-set-incomplete": lambda p: _(
        "a joker in a set may only be swapped when the set becomes four of a kind"
    ),
    "meld.joker-swap-wrong-card": lambda p: (
        _("%(card)s is not the card the joker stands for") % _p(p, "card")
    ),
    "hand.melds-below-first-meld": lambda p: (
        _(
            "the player's own melds are worth %(value)s together, less than the first-meld "
            "minimum of %(minimum)s"
        )
        % _p(p, "value", "minimum")
    ),
    "hand.laid-off-without-meld": lambda p: (
        _("%(cards)s cards are laid off, but the player laid down no meld of their own")
        % _p(p, "cards")
    ),
    "hand.hand-romme-laid-off": lambda p: (
        _(
            "%(cards)s cards are laid off, but a hand Rommé is a single turn, the turn of "
            "the first meld, in which nobody may lay off"
        )
        % _p(p, "cards")
    ),
    "hand.melded-cards-mismatch": lambda p: (
        _(
            "the melded value written (%(melded)s) does not match the melds and lay-offs "
            "written (%(cards_value)s)"
        )
        % _p(p, "melded", "cards_value")
    ),
    "series.hand-after-target": lambda p: (
        _(
            "a player reached the target of %(target)s points in hand %(reached_in)s, which "
            "ends the session; this hand and the ones after it cannot be played"
        )
        % _p(p, "target", "reached_in")
    ),
    "series.target-not-reached": lambda p: (
        _(
            "nobody has reached the target of %(target)s points yet; the session goes on "
            "until a player does"
        )
        % _p(p, "target")
    ),
    "hand.loser-cards-needed": lambda p: _(
        "this scoring counts the jokers left in hand: write the cards (e.g. “Jo A K 7”), "
        "not only the hand points"
    ),
    "ruleset.unknown-ties": lambda p: _(
        "ties are either played off (“playoff”) or separated by the tie-break chain (“chain”)"
    ),
}


def rule_text(code: str, params: dict[str, Any]) -> str | None:
    """The sentence for ``code``, or None when this module has none."""
    fn = _TEXTS.get(code)
    return fn(params) if fn is not None else None
