"""The preset rule sets, one per seed variant (and scoring profile), by slug."""

from __future__ import annotations

from typing import Any

from .problems import SEED_000, SEED_001, SEED_003, SEED_004, Problem
from .ruleset import PRESETS, RuleSet, RuleSetError

_GERMAN: dict[str, Any] = {
    "packs": 2,
    "jokers": 6,
    "cards_dealt": 13,
    "first_meld_minimum": 40,
    "joker_points": 30,
    "ace_points": 11,
    "runs_turn_corner": False,
    "joker_swap": "any",
}

PRESETS.update(
    {
        rs.slug: rs
        for rs in (
            RuleSet(
                slug="german-minus",
                name="German Rummy, minus points",
                source=SEED_000,
                **_GERMAN,
                profile="minus",
            ),
            RuleSet(
                slug="german-minus-20",
                name="German Rummy, joker 20, dealer's 14th card",
                source=SEED_003,
                **{**_GERMAN, "joker_points": 20},
                dealer_extra_card=True,
                profile="minus",
            ),
            RuleSet(
                slug="melded-minus-held",
                name="German Rummy, melded minus held (4 jokers)",
                source=SEED_001,
                **{**_GERMAN, "jokers": 4},
                profile="melded_minus_held",
                ties="playoff",  # "players involved in the tie should play until the tie is broken"
            ),
            RuleSet(
                slug="ranking-points",
                name="German Rummy, ranking points 5 / 8 / 3-2-1",
                source=(
                    "reports of tournaments 'nach den Rommé-Wettkampfregeln' (deaf players' "
                    "associations of Saxony, Saxony-Anhalt, Thuringia, 2012-2014): 5 a win, "
                    "at most 8 a hand Rommé, 1 to 3 a loser up to 30 (the 3/2/1 split "
                    f"assumed); romme-domain.md profile 3; cards: {SEED_000}"
                ),
                **_GERMAN,
                profile="ranking_points",
                win_points=5,
                hand_romme_points=8,
                loser_bands=((10, 3), (20, 2), (30, 1)),
            ),
            RuleSet(
                slug="drov-ranking-points",
                name="German Rummy, ranking points by the DRoV-style table (values unverified)",
                source=(
                    "issue 12 (an independent implementation's DRoV table; the DRoV's own "
                    f"text was not found): bands as parameters; cards: {SEED_000}"
                ),
                **_GERMAN,
                profile="ranking_table",
                win_points=3,
                hand_romme_points=6,
                melded_loser_bands=((30, 2),),
                melded_loser_rest=1,
                unmelded_loser_points=0,
                joker_in_hand_points=-1,
            ),
            RuleSet(
                slug="skat-style",
                name="German Rummy, skat-style performance points",
                source=f"romme-domain.md profile 4 (DSkV/ISPA model); cards: {SEED_000}",
                **_GERMAN,
                profile="skat_style",
                win_bonus=50,
                table_bonus=((2, 60), (3, 40), (4, 30), (5, 24), (6, 20)),
            ),
            RuleSet(
                slug="treppenromme",
                name="Treppenrommé",
                source=SEED_004,
                packs=1,
                jokers=0,
                cards_dealt=7,
                players_min=2,
                players_max=4,
                hand_limit=None,
                first_meld_minimum=0,
                joker_points=0,
                ace_points=15,
                meld_ace_set=15,
                meld_ace_high=10,
                meld_ace_low=1,
                meld_ace_corner=5,
                runs_turn_corner=True,
                joker_swap="none",
                lay_off_needs_first_meld=False,
                target_score=500,
                profile="treppenromme",
                hand_romme_multiplier=2,
            ),
        )
    }
)


def ruleset_from(slug: str, overrides: dict[str, Any] | None = None) -> RuleSet:
    """The preset ``slug`` with ``overrides`` applied (as stored by the Django layer)."""
    try:
        base = PRESETS[slug]
    except KeyError:
        raise RuleSetError(
            [Problem("ruleset.unknown-preset", params={"slug": slug, "known": sorted(PRESETS)})]
        ) from None
    return base.derive(**overrides) if overrides else base
