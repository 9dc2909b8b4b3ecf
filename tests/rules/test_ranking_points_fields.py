"""`python -m bench ranking-points` (docs/rules.md, "Ranking-point tables"): whole fields of
plausible hands under `ranking-points`, checked hand by hand against the preset's limits."""

from bench.engines import ranking_points
from rules import PRESETS


def test_every_hand_of_a_field_keeps_the_preset_limits():
    ruleset = PRESETS[ranking_points.PRESET]
    assert (ruleset.win_points, ruleset.hand_romme_points) == (5, 8)
    assert ruleset.loser_bands == ((10, 3), (20, 2), (30, 1))
    played = list(ranking_points.fields((40, 51), 2, check=True))  # check_hand + the bands
    for field in played:
        assert len(field.totals) == field.players
        assert list(field.totals) == sorted(field.totals, reverse=True)
        # Nobody can score more than a hand Rommé in every hand, nor less than nothing.
        assert (
            0
            <= field.totals[-1]
            <= field.totals[0]
            <= 8 * ranking_points.SERIES * ranking_points.HANDS
        )
        # Every player loses some hands: the losers' results counted are the field's hands
        # times the losers at each table.
        tables = ranking_points.table_sizes(field.players)
        hands = ranking_points.SERIES * ranking_points.HANDS
        assert sum(field.losers) == hands * sum(size - 1 for size in tables)
    rows = ranking_points.summary(played)
    assert [r["players"] for r in rows] == [40, 51]
    assert all(r["winner"][0] >= r["10th"][0] >= r["median"][0] >= r["last"][0] for r in rows)


def test_the_same_seed_plays_the_same_field():
    assert ranking_points.play_field(40, 7) == ranking_points.play_field(40, 7)
