"""The rules engine of Rommé Ledger: cards, melds, rule sets, scoring and checks.

Pure Python (no Django), the single authority on the rules. See ``docs/rules.md``.
"""

from .cards import (
    JOKER,
    Card,
    CardParseError,
    Rank,
    Suit,
    deck,
    format_cards,
    parse_card,
    parse_cards,
    parse_hand_cards,
)
from .deal import random_hand
from .hands import HandResult, SeatResult, check_hand
from .melds import (
    FirstMeld,
    MeldResult,
    check_first_meld,
    check_joker_swap,
    check_meld,
    hand_points,
)
from .payout import (
    Award,
    Entry,
    Payout,
    PayoutError,
    PrizeLine,
    Rules,
    Standing,
    clean_lines,
    line_amount,
    places_beyond_field,
    plan_summary,
    pot,
)
from .presets import PRESETS, ruleset_from
from .problems import RULES, Problem, RuleInfo
from .profiles import PROFILES, ScoringError, score_hand
from .ruleset import (
    JOKER_SWAP_RULES,
    PROFILE_INFO,
    TIE_POLICIES,
    ProfileInfo,
    RuleSet,
    RuleSetError,
)
from .sessions import check_series

__all__ = [
    "JOKER",
    "JOKER_SWAP_RULES",
    "PRESETS",
    "PROFILES",
    "PROFILE_INFO",
    "RULES",
    "TIE_POLICIES",
    "Award",
    "Card",
    "CardParseError",
    "Entry",
    "FirstMeld",
    "HandResult",
    "MeldResult",
    "Payout",
    "PayoutError",
    "PrizeLine",
    "Problem",
    "ProfileInfo",
    "Rank",
    "RuleInfo",
    "RuleSet",
    "RuleSetError",
    "Rules",
    "ScoringError",
    "SeatResult",
    "Standing",
    "Suit",
    "check_first_meld",
    "check_hand",
    "check_joker_swap",
    "check_meld",
    "check_series",
    "clean_lines",
    "deck",
    "format_cards",
    "hand_points",
    "line_amount",
    "parse_card",
    "parse_cards",
    "parse_hand_cards",
    "places_beyond_field",
    "plan_summary",
    "pot",
    "random_hand",
    "ruleset_from",
    "score_hand",
]
