"""Problems found by the rules engine, and the registry of rule ids.

A problem is data, not prose: the Django layer turns ``code`` and ``params`` into a
German or English message. ``hand`` is the 1-based hand number on a sheet (``None``
when a single hand is checked on its own); ``seat`` is the 0-based seat index in
clockwise order (``None`` when the problem concerns the whole hand or sheet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SEED_000 = "seed 000_1e8d632c2a83f1ef.txt"
SEED_001 = "seed 001_0d0d6b688e9eedc9.txt"
SEED_002 = "seed 002_0f561f7447e19183.txt"
SEED_003 = "seed 003_1485ec7b5658c59f.txt"
SEED_004 = "seed 004_5ce05b6e0aff81d1.txt"
DOMAIN = "docs romme-domain.md"
ARCH = "docs architecture-sketch.md"
ENGINE = "engine (rule set definition)"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: a stable rule id, where it applies, and its parameters."""

    code: str
    hand: int | None = None
    seat: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    __hash__ = None  # params is a dict

    @property
    def rule(self) -> RuleInfo:
        """The registry entry of this problem's rule id."""
        return RULES[self.code]

    def __str__(self) -> str:  # for logs and test failures, not for users
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        loc = f" ({', '.join(where)})" if where else ""
        params = f" {self.params}" if self.params else ""
        return f"{self.code}{loc}: {RULES[self.code].summary}{params}"


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """A rule id with its one-line English explanation and its source."""

    code: str
    summary: str
    source: str


def _rules(*entries: tuple[str, str, str]) -> dict[str, RuleInfo]:
    return {code: RuleInfo(code, summary, source) for code, summary, source in entries}


RULES: dict[str, RuleInfo] = _rules(
    # card notation
    ("card.unknown-token", "A token is not a card in the notation.", ARCH),
    ("card.missing-suit", "A card needs a suit here (ranks alone only in a hand cell).", ARCH),
    # melds
    ("meld.too-few-cards", "A meld has at least three cards.", SEED_000),
    ("meld.no-natural-card", "A meld needs at least one natural card.", SEED_000),
    (
        "meld.one-natural-two-jokers",
        "A meld with two or more jokers needs at least two natural cards (3-J-J illegal).",
        f"{SEED_000}; {SEED_001}",
    ),
    ("meld.joker-not-in-deck", "The rule set plays without jokers.", SEED_004),
    ("meld.set-too-many-cards", "A set has three or four cards.", SEED_000),
    ("meld.set-duplicate-suit", "The cards of a set are all of different suits.", SEED_000),
    ("meld.mixed", "The cards are neither of one rank nor of one suit.", SEED_000),
    ("meld.run-mixed-suits", "The cards of a run are all of one suit.", SEED_000),
    ("meld.run-not-consecutive", "The cards of a run follow each other without gaps.", SEED_000),
    ("meld.run-corner", "A run may not turn the corner (K-A-2) in this rule set.", SEED_000),
    ("meld.run-too-long", "A run turning the corner has at most thirteen cards.", SEED_004),
    (
        "meld.run-not-in-order",
        "Where runs may turn the corner, a run with an ace or a joker is written in order.",
        SEED_004,
    ),
    (
        "meld.jokers-exceed-deck",
        "A meld holds more jokers than the rule set's deck has.",
        f"{SEED_000}; {SEED_001}",
    ),
    (
        "meld.card-count-exceeds-deck",
        "A meld holds more copies of a card than the rule set's deck has.",
        f"{SEED_000}; {SEED_004}",
    ),
    (
        "meld.first-meld-below-minimum",
        "The first meld is worth less than the rule set's minimum.",
        SEED_000,
    ),
    ("meld.joker-swap-forbidden", "This rule set does not allow swapping a joker.", SEED_000),
    (
        "meld.joker-swap-set-incomplete",
        "A joker in a set may only be swapped when the set becomes four of a kind.",
        SEED_000,
    ),
    ("meld.joker-swap-wrong-card", "The card is not the one the joker stands for.", SEED_000),
    # one hand
    ("hand.table-size", "The table size is outside the rule set's range of players.", SEED_000),
    ("hand.seat-count", "The hand lists a different number of seats than the table has.", ARCH),
    ("hand.dealer-out-of-range", "The dealer is not a seat at this table.", ARCH),
    ("hand.winner-out-of-range", "The player who went out is not a seat at this table.", ARCH),
    ("hand.no-winner", "Nobody went out, but this rule set needs a winner.", SEED_000),
    ("hand.winner-not-marked", "A player holds nothing, but nobody is marked as out.", SEED_000),
    ("hand.several-winners", "More than one player holds nothing at the end.", SEED_000),
    ("hand.winner-holds-cards", "The player who went out holds no cards.", SEED_000),
    (
        "hand.hand-romme-not-winner",
        "Only the player who went out can have a hand Rommé.",
        DOMAIN,
    ),
    ("hand.loser-points-missing", "A loser's hand points or cards are missing.", DOMAIN),
    (
        "hand.loser-cards-needed",
        "The scoring profile counts the jokers a loser holds: write the loser's cards.",
        "issue 12 (DRoV-style ranking table)",
    ),
    ("hand.loser-below-minimum", "A loser holds at least one card (2 hand points).", DOMAIN),
    (
        "hand.loser-above-maximum",
        "A loser's hand points exceed the best possible hand under the rule set.",
        DOMAIN,
    ),
    (
        "hand.total-above-maximum",
        "The losers' hand points together exceed what the deck can hold.",
        DOMAIN,
    ),
    ("hand.too-many-cards", "A loser holds more cards than a hand can hold.", SEED_000),
    (
        "hand.points-cards-mismatch",
        "The hand points written do not match the cards written.",
        ARCH,
    ),
    (
        "hand.card-count-exceeds-deck",
        "A card appears more often at the table than the deck holds.",
        DOMAIN,
    ),
    ("hand.melded-value-missing", "The scoring profile needs each melded value.", SEED_001),
    ("hand.melded-negative", "A melded value cannot be negative.", SEED_001),
    (
        "hand.melded-above-maximum",
        "A melded value exceeds the value of the whole deck.",
        SEED_001,
    ),
    (
        "hand.melded-below-first-meld",
        "A player who melded melded at least the first-meld minimum.",
        SEED_000,
    ),
    ("hand.winner-melded-nothing", "The player who went out must have melded.", SEED_004),
    (
        "hand.melds-below-first-meld",
        "A player's own melds together are worth at least the first-meld minimum.",
        SEED_000,
    ),
    (
        "hand.laid-off-without-meld",
        "A player lays off only after their own first meld.",
        f"{SEED_000}; {SEED_001}",
    ),
    (
        "hand.hand-romme-laid-off",
        "No laying off in the turn of the first meld, the only turn of a hand Rommé.",
        SEED_000,
    ),
    (
        "hand.melded-cards-mismatch",
        "The melded value written does not match the melds and lay-offs written.",
        f"{SEED_001}; {SEED_004}",
    ),
    # a whole sheet
    ("series.no-hands", "The sheet has no hands.", DOMAIN),
    ("series.dealer-rotation", "The deal passes clockwise after each hand.", SEED_000),
    ("series.unequal-deals", "Every player deals equally often (complete rounds).", DOMAIN),
    ("series.round-count", "The sheet has a different number of rounds than planned.", DOMAIN),
    (
        "series.hand-after-target",
        "The session ended in the hand where a player reached the target score.",
        SEED_004,
    ),
    (
        "series.target-not-reached",
        "A session played to a target score ends only when a player reaches it.",
        SEED_004,
    ),
    # rule sets
    ("ruleset.unknown-preset", "There is no preset with this slug.", ENGINE),
    ("ruleset.unknown-field", "A rule set has no setting of this name.", ENGINE),
    ("ruleset.bad-type", "A setting has a value of the wrong type.", ENGINE),
    ("ruleset.no-packs", "A rule set plays with at least one pack.", ENGINE),
    ("ruleset.negative-jokers", "The number of jokers cannot be negative.", ENGINE),
    ("ruleset.negative-first-meld", "The first-meld minimum cannot be negative.", ENGINE),
    ("ruleset.bad-value", "A setting is out of its allowed range.", ENGINE),
    (
        "ruleset.deal-exceeds-deck",
        "More cards are dealt than the deck holds for the table size.",
        ENGINE,
    ),
    ("ruleset.unknown-profile", "There is no scoring profile of this name.", ENGINE),
    ("ruleset.unknown-joker-swap", "There is no joker-swap rule of this name.", ENGINE),
    (
        "ruleset.unknown-ties",
        "The tie policy is 'playoff' (level totals are played off) or 'chain'.",
        SEED_001,
    ),
    (
        "ruleset.bands-order",
        "Ranking bands rise in hand points and fall in points awarded.",
        DOMAIN,
    ),
    (
        "ruleset.table-bonus-missing",
        "The table-size bonus has no value for a table size the rule set allows.",
        DOMAIN,
    ),
)
