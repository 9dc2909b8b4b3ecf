"""Presets, derived rule sets, invalid values, storage."""

import json

import pytest

from rules import PRESETS, RuleSet, RuleSetError, ruleset_from


def test_required_presets_cite_their_sources():
    assert {
        "german-minus",
        "german-minus-20",
        "melded-minus-held",
        "ranking-points",
        "skat-style",
        "treppenromme",
    } <= set(PRESETS)
    assert PRESETS["german-minus"].source == "seed 000_1e8d632c2a83f1ef.txt"
    assert PRESETS["german-minus-20"].source == "seed 003_1485ec7b5658c59f.txt"
    assert PRESETS["melded-minus-held"].source == "seed 001_0d0d6b688e9eedc9.txt"
    assert PRESETS["treppenromme"].source == "seed 004_5ce05b6e0aff81d1.txt"
    for slug, rs in PRESETS.items():
        assert rs.slug == slug and rs.name and rs.source


def test_ranking_and_skat_parameters():
    rp = PRESETS["ranking-points"]
    assert (rp.win_points, rp.hand_romme_points, rp.loser_bands) == (
        5,
        8,
        ((10, 3), (20, 2), (30, 1)),
    )
    assert rp.profile_params == {
        "win_points": 5,
        "hand_romme_points": 8,
        "loser_bands": ((10, 3), (20, 2), (30, 1)),
    }
    sk = PRESETS["skat-style"]
    assert sk.win_bonus == 50 and sk.bonus_for(3) == 40 and sk.bonus_for(4) == 30


def test_max_and_min_hand_points():
    """romme-domain.md: 6 jokers at 30 and 13 cards: at most 257; at least 2."""
    g = PRESETS["german-minus"]
    assert g.max_hand_points(4) == 257 == 6 * 30 + 7 * 11
    assert g.min_hand_points == 2
    assert PRESETS["melded-minus-held"].max_hand_points(4) == 4 * 30 + 8 * 11 + 10
    # Treppenrommé: a loser may have picked up the staircase, so only the deck limits.
    t = PRESETS["treppenromme"]
    assert t.max_hand_points(2) > 7 * 15


def test_needs_melded_and_direction():
    assert {s for s, r in PRESETS.items() if r.needs_melded} == {
        "melded-minus-held",
        "drov-ranking-points",  # a loser who never melded scores differently
        "treppenromme",
    }
    assert all(r.higher_is_better for r in PRESETS.values())


def test_derive_and_ruleset_from():
    g = PRESETS["german-minus"]
    house = g.derive(first_meld_minimum=30, joker_points=25, hand_romme_multiplier=2)
    assert house.first_meld_minimum == 30 and house.slug == "german-minus"
    assert house.overrides() == {
        "first_meld_minimum": 30,
        "joker_points": 25,
        "hand_romme_multiplier": 2,
    }
    assert ruleset_from("german-minus", house.overrides()) == house
    assert ruleset_from("german-minus") is g
    assert hash(house) != hash(g) and house != g
    with pytest.raises(AttributeError):
        house.jokers = 3  # frozen


def test_to_dict_round_trip_through_json():
    for rs in PRESETS.values():
        data = json.loads(json.dumps(rs.to_dict()))
        assert RuleSet.from_dict(data) == rs


@pytest.mark.parametrize(
    "overrides, code",
    [
        ({"jokers": -1}, "ruleset.negative-jokers"),
        ({"packs": 0}, "ruleset.no-packs"),
        ({"first_meld_minimum": -5}, "ruleset.negative-first-meld"),
        ({"cards_dealt": 19}, "ruleset.deal-exceeds-deck"),  # 6 x 19 > 110
        (
            {
                "dealer_extra_card": True,
                "cards_dealt": 13,
                "packs": 1,
                "jokers": 0,
                "players_max": 4,
            },
            "ruleset.deal-exceeds-deck",
        ),  # 4 x 13 + 1 > 52
        ({"profile": "poker"}, "ruleset.unknown-profile"),
        ({"joker_swap": "sometimes"}, "ruleset.unknown-joker-swap"),
        ({"loser_bands": ((20, 3), (10, 2))}, "ruleset.bands-order"),
        ({"jokers": "six"}, "ruleset.bad-type"),
        ({"runs_turn_corner": 1}, "ruleset.bad-type"),
        ({"joker_points": -30}, "ruleset.bad-value"),
        ({"players_min": 5, "players_max": 4}, "ruleset.bad-value"),
        ({"nonsense": 1}, "ruleset.unknown-field"),
    ],
)
def test_invalid_values_raise_clear_errors(overrides, code):
    with pytest.raises(RuleSetError) as err:
        PRESETS["german-minus"].derive(**overrides)
    assert code in {p.code for p in err.value.problems}
    assert code in str(err.value)


def test_skat_table_bonus_must_cover_table_sizes():
    with pytest.raises(RuleSetError) as err:
        PRESETS["skat-style"].derive(table_bonus=((3, 40), (4, 30)))
    assert err.value.problems[0].code == "ruleset.table-bonus-missing"
    assert err.value.problems[0].params["table_sizes"] == [2, 5, 6]
    assert (
        PRESETS["skat-style"]
        .derive(players_min=3, players_max=4, table_bonus=((3, 40), (4, 30)))
        .bonus_for(3)
        == 40
    )


def test_treppenromme_fits_four_players_only():
    with pytest.raises(RuleSetError) as err:
        PRESETS["treppenromme"].derive(cards_dealt=14)  # 4 x 14 > 52
    assert err.value.problems[0].code == "ruleset.deal-exceeds-deck"


def test_unknown_preset():
    with pytest.raises(RuleSetError) as err:
        ruleset_from("canasta")
    assert err.value.problems[0].code == "ruleset.unknown-preset"


def test_from_dict_accepts_lists():
    rs = RuleSet.from_dict({**PRESETS["ranking-points"].to_dict(), "loser_bands": [[5, 4]]})
    assert rs.loser_bands == ((5, 4),)
