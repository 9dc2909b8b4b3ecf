"""Rule sets: an immutable description of a variant and its scoring profile.

The presets are in :mod:`rules.presets`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import NATURAL_RANKS, Rank
from .problems import Problem


class ProfileInfo(NamedTuple):
    """What the rest of the app needs to know about a scoring profile."""

    name: str
    needs_melded: bool
    higher_is_better: bool
    params: tuple[str, ...]  # the RuleSet fields the profile reads


PROFILE_INFO: dict[str, ProfileInfo] = {
    p.name: p
    for p in (
        # Penalties are stored as negative points, so higher is better everywhere.
        ProfileInfo("minus", False, True, ("hand_romme_multiplier",)),
        ProfileInfo("melded_minus_held", True, True, ("hand_romme_multiplier",)),
        ProfileInfo(
            "ranking_points", False, True, ("win_points", "hand_romme_points", "loser_bands")
        ),
        ProfileInfo(
            "skat_style", False, True, ("win_bonus", "table_bonus", "hand_romme_multiplier")
        ),
        ProfileInfo("treppenromme", True, True, ("hand_romme_multiplier",)),
        ProfileInfo(
            "ranking_table",
            True,
            True,
            (
                "win_points",
                "hand_romme_points",
                "melded_loser_bands",
                "melded_loser_rest",
                "unmelded_loser_points",
                "joker_in_hand_points",
            ),
        ),
    )
}

JOKER_SWAP_RULES = ("any", "set-of-four", "none")
#: how level totals are ranked: "playoff" (they stay level, share the rank and are played
#: off where it matters; seed 001) or "chain" (the event's tie-break chain separates them)
TIE_POLICIES = ("playoff", "chain")


class RuleSetError(ValueError):
    """Invalid rule-set values; ``problems`` lists them as :class:`Problem` objects."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


_INT_FIELDS = (
    "packs",
    "jokers",
    "cards_dealt",
    "players_min",
    "players_max",
    "first_meld_minimum",
    "joker_points",
    "ace_points",
    "meld_ace_set",
    "meld_ace_high",
    "meld_ace_low",
    "meld_ace_corner",
    "hand_romme_multiplier",
    "win_points",
    "hand_romme_points",
    "win_bonus",
    "melded_loser_rest",
    "unmelded_loser_points",
    "joker_in_hand_points",
)
_NON_NEGATIVE = (
    "joker_points",
    "ace_points",
    "meld_ace_set",
    "meld_ace_high",
    "meld_ace_low",
    "meld_ace_corner",
    "win_points",
    "hand_romme_points",
)
_BOOL_FIELDS = (
    "dealer_extra_card",
    "runs_turn_corner",
    "stock_may_run_out",
    "lay_off_needs_first_meld",
)
_STR_FIELDS = ("slug", "name", "source", "joker_swap", "profile", "ties")
_PAIR_FIELDS = ("loser_bands", "table_bonus", "melded_loser_bands")


@dataclass(frozen=True)
class RuleSet:
    """An immutable description of a variant and its scoring profile.

    Build one from :data:`PRESETS` (``ruleset_from(slug, overrides)`` or
    ``preset.derive(**overrides)``); invalid values raise :class:`RuleSetError`.
    """

    slug: str
    name: str
    source: str
    packs: int = 2
    jokers: int = 6
    cards_dealt: int = 13
    dealer_extra_card: bool = False
    players_min: int = 2
    players_max: int = 6
    #: most cards a loser can hold at the end; None: only the deck limits it
    #: (Treppenrommé, where the staircase can be picked up).
    hand_limit: int | None = 13
    first_meld_minimum: int = 40
    joker_points: int = 30  # joker left in hand
    ace_points: int = 11  # ace left in hand
    meld_ace_set: int = 11  # values of an ace in play
    meld_ace_high: int = 11
    meld_ace_low: int = 1
    meld_ace_corner: int = 5  # only where runs may turn the corner
    runs_turn_corner: bool = False
    joker_swap: str = "any"  # "any", "set-of-four" (DSkV rule quoted in seed 000), "none"
    stock_may_run_out: bool = False  # a hand may end with nobody out
    #: lay-offs only after one's own first meld, never in its turn (seed 000); seed 004
    #: lets a player lay off in any turn
    lay_off_needs_first_meld: bool = True
    profile: str = "minus"
    #: a session ends in the hand where a player's total reaches this (seed 004: "an
    #: agreed number of points - for example 500 or 1000"); None: fixed rounds per dealer
    target_score: int | None = None
    #: "playoff" or "chain" (see TIE_POLICIES)
    ties: str = "chain"
    hand_romme_multiplier: int = 1  # multiplies hand points after a hand Rommé
    win_points: int = 5  # ranking_points
    hand_romme_points: int = 8  # ranking_points
    loser_bands: tuple[tuple[int, int], ...] = ((10, 3), (20, 2), (30, 1))  # (up to, points)
    #: ranking_table: a loser who melded scores the first band (up to, points) their hand
    #: points fit, else melded_loser_rest; a loser who never melded unmelded_loser_points;
    #: every joker a loser holds adds joker_in_hand_points (a penalty when negative)
    melded_loser_bands: tuple[tuple[int, int], ...] = ((30, 2),)
    melded_loser_rest: int = 1
    unmelded_loser_points: int = 0
    joker_in_hand_points: int = -1
    win_bonus: int = 50  # skat_style
    table_bonus: tuple[tuple[int, int], ...] = ((2, 60), (3, 40), (4, 30), (5, 24), (6, 20))

    if TYPE_CHECKING:
        #: per-instance memo for values derived from this rule set (limits per table
        #: size), set by __post_init__: not a field, so not compared, hashed or stored
        memo: dict[Any, Any]

    def __post_init__(self) -> None:
        problems = _validate(self)
        if problems:
            raise RuleSetError(problems)
        # A plain attribute, not a cached_property: check_hand reads it for every hand.
        object.__setattr__(self, "memo", {})

    # ----- profile -------------------------------------------------------------------
    @property
    def profile_info(self) -> ProfileInfo:
        return PROFILE_INFO[self.profile]

    @property
    def needs_melded(self) -> bool:
        """Whether the profile needs each player's melded value (melded columns)."""
        return PROFILE_INFO[self.profile].needs_melded

    @cached_property
    def needs_cards(self) -> bool:
        """Whether the profile needs each loser's cards (it counts the jokers held)."""
        return self.profile == "ranking_table" and self.joker_in_hand_points != 0

    @property
    def higher_is_better(self) -> bool:
        """Whether a higher total ranks better (penalties are negative points)."""
        return PROFILE_INFO[self.profile].higher_is_better

    @property
    def profile_params(self) -> dict[str, Any]:
        """The parameters the profile reads, by name."""
        return {k: getattr(self, k) for k in PROFILE_INFO[self.profile].params}

    # ----- derived values --------------------------------------------------------------
    @property
    def deck_size(self) -> int:
        return 52 * self.packs + self.jokers

    @cached_property
    def hand_values(self) -> tuple[int, ...]:
        """Hand points of a card left in hand, indexed by ``Rank`` (0 = joker)."""
        values = [self.joker_points, 0] + [min(int(r), 10) for r in NATURAL_RANKS]
        values[Rank.ACE] = self.ace_points
        return tuple(values)

    @cached_property
    def hand_values_by_key(self) -> tuple[int, ...]:
        """``hand_values`` indexed by ``Card.key`` (rank * 5 + suit): one lookup a card."""
        return tuple(self.hand_values[key // 5] for key in range(5 * len(self.hand_values)))

    @cached_property
    def _sorted_deck_values(self) -> tuple[int, ...]:
        """Prefix sums of the deck's hand values, highest first."""
        vals = [self.hand_values[r] for r in NATURAL_RANKS] * (4 * self.packs)
        vals += [self.joker_points] * self.jokers
        vals.sort(reverse=True)
        sums = [0]
        for v in vals:
            sums.append(sums[-1] + v)
        return tuple(sums)

    @cached_property
    def min_hand_points(self) -> int:
        """Smallest hand points a loser can show: the smallest card (2)."""
        vals = [self.hand_values[r] for r in NATURAL_RANKS]
        if self.jokers:
            vals.append(self.joker_points)
        return max(1, min(vals))

    def max_hand_cards(self, table_size: int) -> int:
        """Most cards one loser can hold at the end of a hand at this table size."""
        # The winner melded at least one meld; every other loser holds a card.
        by_deck = max(1, self.deck_size - 3 - max(0, table_size - 2))
        return by_deck if self.hand_limit is None else min(self.hand_limit, by_deck)

    def max_hand_points(self, table_size: int) -> int:
        """Hand points of the best possible hand (257 for 6 jokers at 30 and 13 cards)."""
        return self._sorted_deck_values[self.max_hand_cards(table_size)]

    def max_total_points(self, table_size: int, losers: int) -> int:
        """Most hand points ``losers`` players can hold together."""
        n = min(losers * self.max_hand_cards(table_size), self.deck_size - 3)
        return self._sorted_deck_values[max(0, n)]

    @cached_property
    def max_melded_value(self) -> int:
        """An upper bound for one player's melded value: the whole deck in play."""
        ace = max(self.meld_ace_set, self.meld_ace_high, self.meld_ace_low)
        if self.runs_turn_corner:
            ace = max(ace, self.meld_ace_corner)
        per_suit = sum(min(int(r), 10) for r in NATURAL_RANKS if r != Rank.ACE) + ace
        return per_suit * 4 * self.packs + max(ace, 10) * self.jokers

    def table_size_problems(self, table_size: int) -> list[Problem]:
        """Problems with playing this rule set at a table of ``table_size``."""
        if not self.players_min <= table_size <= self.players_max:
            return [
                Problem(
                    "hand.table-size",
                    params={
                        "table_size": table_size,
                        "min": self.players_min,
                        "max": self.players_max,
                    },
                )
            ]
        return []

    def bonus_for(self, table_size: int) -> int:
        """The skat-style bonus to each other player at this table size."""
        for size, bonus in self.table_bonus:
            if size == table_size:
                return bonus
        return 0

    # ----- derivation and storage ---------------------------------------------------------
    def derive(self, **overrides: Any) -> RuleSet:
        """A copy with some settings changed; validated like any rule set."""
        unknown = [k for k in overrides if k not in _FIELD_NAMES]
        if unknown:
            raise RuleSetError(
                [Problem("ruleset.unknown-field", params={"field": k}) for k in unknown]
            )
        return dataclasses.replace(self, **_normalise(overrides))

    def to_dict(self) -> dict[str, Any]:
        """All settings as JSON-serialisable data (pairs become lists)."""
        d = {}
        for name in _FIELD_NAMES:
            v = getattr(self, name)
            d[name] = [list(p) for p in v] if name in _PAIR_FIELDS else v
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild a rule set from :meth:`to_dict` output (or a subset over defaults)."""
        unknown = [k for k in data if k not in _FIELD_NAMES]
        if unknown:
            raise RuleSetError(
                [Problem("ruleset.unknown-field", params={"field": k}) for k in unknown]
            )
        return cls(**_normalise(data))

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from the preset of the same slug (JSON-ready)."""
        base = PRESETS.get(self.slug)
        mine = self.to_dict()
        if base is None:
            return mine
        theirs = base.to_dict()
        return {k: v for k, v in mine.items() if theirs[k] != v}


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(RuleSet))

# The named presets by slug, filled by `rules.presets` (which builds them from this
# module, so it registers them here rather than being imported back).
PRESETS: dict[str, RuleSet] = {}


def _normalise(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    for name in _PAIR_FIELDS:
        if name in out and isinstance(out[name], list | tuple):
            with contextlib.suppress(TypeError):  # left for validation to report
                out[name] = tuple(tuple(p) for p in out[name])
    return out


def _validate(rs: RuleSet) -> list[Problem]:
    problems: list[Problem] = []

    def bad(code: str, name: str, **params: Any) -> None:
        problems.append(Problem(code, params={"field": name, "value": getattr(rs, name), **params}))

    for name in _INT_FIELDS:
        v = getattr(rs, name)
        if not isinstance(v, int) or isinstance(v, bool):
            bad("ruleset.bad-type", name, expected="int")
    for name in _BOOL_FIELDS:
        if not isinstance(getattr(rs, name), bool):
            bad("ruleset.bad-type", name, expected="bool")
    for name in _STR_FIELDS:
        if not isinstance(getattr(rs, name), str):
            bad("ruleset.bad-type", name, expected="str")
    for name in ("hand_limit", "target_score"):
        v = getattr(rs, name)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            bad("ruleset.bad-type", name, expected="int or None")
    for name in _PAIR_FIELDS:
        v = getattr(rs, name)
        if not isinstance(v, tuple) or not all(
            isinstance(p, tuple)
            and len(p) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
            for p in v
        ):
            bad("ruleset.bad-type", name, expected="list of [int, int] pairs")
    if problems:
        return problems  # range checks below assume the types are right

    if rs.packs < 1:
        bad("ruleset.no-packs", "packs")
    if rs.jokers < 0:
        bad("ruleset.negative-jokers", "jokers")
    if rs.first_meld_minimum < 0:
        bad("ruleset.negative-first-meld", "first_meld_minimum")
    for name in _NON_NEGATIVE:
        if getattr(rs, name) < 0:
            bad("ruleset.bad-value", name, min=0)
    if rs.cards_dealt < 1:
        bad("ruleset.bad-value", "cards_dealt", min=1)
    if rs.hand_romme_multiplier < 1:
        bad("ruleset.bad-value", "hand_romme_multiplier", min=1)
    if rs.hand_limit is not None and rs.hand_limit < 1:
        bad("ruleset.bad-value", "hand_limit", min=1)
    if rs.target_score is not None and rs.target_score < 1:
        bad("ruleset.bad-value", "target_score", min=1)
    if rs.players_min < 2:
        bad("ruleset.bad-value", "players_min", min=2)
    if rs.players_max < rs.players_min:
        bad("ruleset.bad-value", "players_max", min=rs.players_min)
    if rs.profile not in PROFILE_INFO:
        bad("ruleset.unknown-profile", "profile", known=sorted(PROFILE_INFO))
    if rs.ties not in TIE_POLICIES:
        bad("ruleset.unknown-ties", "ties", known=list(TIE_POLICIES))
    if rs.joker_swap not in JOKER_SWAP_RULES:
        bad("ruleset.unknown-joker-swap", "joker_swap", known=list(JOKER_SWAP_RULES))
    if rs.packs >= 1 and rs.jokers >= 0:
        dealt = rs.cards_dealt * rs.players_max + rs.dealer_extra_card
        if dealt > rs.deck_size:
            bad(
                "ruleset.deal-exceeds-deck",
                "cards_dealt",
                players=rs.players_max,
                dealt=dealt,
                deck_size=rs.deck_size,
            )
    for name in ("loser_bands", "melded_loser_bands"):
        bounds = [b for b, _ in getattr(rs, name)]
        points = [p for _, p in getattr(rs, name)]
        if (
            any(a >= b for a, b in itertools.pairwise(bounds))
            or any(a < b for a, b in itertools.pairwise(points))
            or any(p < 0 for p in points)
        ):
            bad("ruleset.bands-order", name)
    if rs.profile == "skat_style":
        sizes = {s for s, _ in rs.table_bonus}
        missing = [n for n in range(rs.players_min, rs.players_max + 1) if n not in sizes]
        if missing:
            bad("ruleset.table-bonus-missing", "table_bonus", table_sizes=missing)
    return problems
