"""The qualification list for a championship (docs/rules.md, "Ranglisten (Verband)"; issue
27 point 5): worked examples, then hypothesis against a plain reference that shares no code
with rules.qualification (it cuts each region at "rank at most the rank of its N-th
player" instead of walking the ties)."""

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.qualification import (
    EXPLANATIONS,
    QUALIFICATION_ERRORS,
    REGION,
    TITLE,
    WILDCARD,
    Wildcard,
    qualify,
)
from rules.ranking import (
    EventResult,
    PlayerLine,
    RankingError,
    RankingSettings,
    compute_ranking,
)

PROPS = settings(max_examples=400, deadline=None)


def lines(*ranked):
    """PlayerLines from (player, rank) in order."""
    return [PlayerLine(p, r, False, False, None, None, (), (), (), 0) for p, r in ranked]


# a1 1, b1 2, a2 3, a3 4, b2 5, b3 6, a4 7
LIST = lines(("a1", 1), ("b1", 2), ("a2", 3), ("a3", 4), ("b2", 5), ("b3", 6), ("a4", 7))
REGIONS = {p: p[0].upper() for p in ("a1", "a2", "a3", "a4", "b1", "b2", "b3")}


def who(result):
    return [(q.player, q.way) for q in result.qualified]


def test_the_best_n_of_each_region_qualify_and_the_next_are_reserves():
    result = qualify(LIST, REGIONS, 2)
    assert who(result) == [("a1", REGION), ("b1", REGION), ("a2", REGION), ("b2", REGION)]
    assert [(r.player, r.region, r.position) for r in result.reserves] == [
        ("a3", "A", 1),
        ("b3", "B", 1),
        ("a4", "A", 2),
    ]
    cut_a, cut_b = result.cuts
    assert (cut_a.region, cut_a.quota, cut_a.taken, cut_a.last.player) == ("A", 2, 2, "a2")
    assert (cut_b.region, cut_b.taken, cut_b.last.rank, cut_b.tied) == ("B", 2, 5, 1)
    assert result.region("A") == (result.qualified[::2], result.reserves[::2])


def test_reserves_per_region_none_means_all_and_zero_none():
    assert len(qualify(LIST, REGIONS, 1, reserves=None).reserves) == 5
    assert qualify(LIST, REGIONS, 1, reserves=0).reserves == ()
    assert [r.player for r in qualify(LIST, REGIONS, 1, reserves=1).reserves] == ["a2", "b2"]


def test_title_holders_qualify_first_and_take_no_place_of_their_region():
    result = qualify(LIST, REGIONS, 2, title_holders=["a1", "champion"])
    assert who(result) == [
        ("a1", TITLE),
        ("champion", TITLE),
        ("b1", REGION),
        ("a2", REGION),
        ("a3", REGION),
        ("b2", REGION),
    ]
    assert result.qualified[0].rank == 1 and result.qualified[1].line is None
    assert result.qualified[0].region == "A" and result.qualified[1].region is None


def test_a_tie_at_the_cut_line_lets_all_tied_players_in():
    tied = lines(("a1", 1), ("a2", 2), ("a3", 2), ("a4", 4), ("b1", 5))
    result = qualify(tied, REGIONS, 2)
    assert [(q.player, q.tied) for q in result.qualified] == [
        ("a1", False),
        ("a2", True),
        ("a3", True),
        ("b1", False),
    ]
    cut = result.cuts[0]
    assert (cut.taken, cut.quota, cut.tied, cut.last.player) == (3, 2, 2, "a3")
    assert [r.player for r in result.reserves] == ["a4"]
    note = next(e for e in result.explanations if e.code == "qualification.region-tied")
    assert (
        note.text()
        == "A: 2 players share rank 2 at the cut line, so 3 players qualify for 2 places."
    )


def test_a_tie_inside_the_places_changes_nothing():
    tied = lines(("a1", 1), ("a2", 1), ("a3", 3))
    result = qualify(tied, REGIONS, 2)
    assert [q.player for q in result.qualified] == ["a1", "a2"]
    assert result.cuts[0].taken == 2 and not any(q.tied for q in result.qualified)


def test_a_region_with_too_few_listed_players_and_players_without_a_region():
    regions = {"a1": "A", "b1": "B", "x": None}
    few = lines(("a1", 1), ("x", 2), ("b1", 3), ("y", 4))
    result = qualify(few, regions, 2)
    assert [q.player for q in result.qualified] == ["a1", "b1"]
    assert [c.short for c in result.cuts] == [True, True]
    codes = [e.code for e in result.explanations]
    assert codes.count("qualification.region-short") == 2
    no_region = next(e for e in result.explanations if e.code == "qualification.no-region")
    assert no_region.params == {"count": 2}


def test_wildcards_qualify_with_their_reason_and_unneeded_ones_are_not_used():
    cards = [
        Wildcard("a4", "Weltmeister 2025"),
        Wildcard("a1", "verletzt"),
        Wildcard("t", "doppelt"),
        Wildcard("a3", "Nachrücker"),
    ]
    result = qualify(LIST, REGIONS, 2, title_holders=["t"], wildcards=cards)
    assert who(result)[-2:] == [("a4", WILDCARD), ("a3", WILDCARD)]
    assert result.qualified[-2].reason == "Weltmeister 2025"
    assert [c.player for c in result.unused_wildcards] == ["a1", "t"]
    # a wildcard takes its player out of the reserves: b3 is now the first reserve after b2
    assert [(r.player, r.position) for r in result.reserves] == [("b3", 1)]
    codes = [e.code for e in result.explanations]
    assert "qualification.wildcard-unused-region" in codes
    assert "qualification.wildcard-unused-title" in codes


def test_places_per_region_from_a_mapping_in_its_order():
    result = qualify(LIST, REGIONS, {"B": 3, "A": 1, "C": 1})
    assert [q.player for q in result.qualified] == ["a1", "b1", "b2", "b3"]
    assert [(c.region, c.taken) for c in result.cuts] == [("B", 3), ("A", 1), ("C", 0)]
    assert result.explanations[0].code == "qualification.quota-each"


def test_hidden_players_stay_hidden_on_the_list():
    hidden = [PlayerLine("a1", 1, False, True, None, None, (), (), (), 0)]
    assert qualify(hidden, REGIONS, 1).qualified[0].line.hidden


def test_lines_as_light_as_player_and_rank_qualify_alike():
    """The federation's page passes (player, rank) tuples for 10,000 lines, not PlayerLines."""
    from typing import NamedTuple

    class Light(NamedTuple):
        player: str
        rank: int

    tied = lines(("a1", 1), ("a2", 2), ("a3", 2), ("b1", 4), ("a4", 5), ("b2", 6))
    for full, kwargs in (
        (LIST, {"quota": 2}),
        (LIST, {"quota": {"B": 1, "A": 3}, "reserves": None, "title_holders": ["b1"]}),
        (tied, {"quota": 2, "wildcards": [Wildcard("a4", "Gastgeber"), Wildcard("a1", "x")]}),
    ):
        light = [Light(ln.player, ln.rank) for ln in full]
        want, got = qualify(full, REGIONS, **kwargs), qualify(light, REGIONS, **kwargs)

        def plain(result):
            return (
                [(q.player, q.way, q.region, q.rank, q.tied) for q in result.qualified],
                [(r.player, r.region, r.position) for r in result.reserves],
                [(c.region, c.quota, c.taken, c.last and c.last.rank, c.tied) for c in result.cuts],
                [c.player for c in result.unused_wildcards],
                [(e.code, dict(e.params)) for e in result.explanations],
            )

        assert plain(got) == plain(want)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"quota": -1}, "qualification.quota"),
        ({"quota": {"A": 1.5}}, "qualification.quota"),
        ({"quota": 1, "reserves": -1}, "qualification.reserves"),
        ({"quota": 1, "title_holders": ["a1", "a1"]}, "qualification.title-twice"),
        (
            {"quota": 1, "wildcards": [Wildcard("x", "a"), Wildcard("x", "b")]},
            "qualification.wildcard-twice",
        ),
        ({"quota": 1, "wildcards": [Wildcard("x", "  ")]}, "qualification.wildcard-reason"),
    ],
)
def test_bad_input_is_refused_with_a_message(kwargs, code):
    with pytest.raises(RankingError) as caught:
        qualify(LIST, REGIONS, **kwargs)
    assert caught.value.code == code and code in QUALIFICATION_ERRORS and str(caught.value)


def test_from_a_ranking_explanations_name_players_and_regions():
    day = date(2025, 6, 1)
    results = [
        EventResult(p, e, day, "ranking", 10, i + 1) for i, p in enumerate("xyz") for e in (1, 2)
    ]
    results.append(EventResult("t", 1, day, "ranking", 10, 4))  # listed? one event: no
    ranking = compute_ranking(results, RankingSettings(), date(2026, 1, 1))
    result = qualify(
        ranking,
        {"x": "N", "y": "N", "z": "S", "t": "S"},
        1,
        title_holders=["t"],
        wildcards=[Wildcard("x", "Ausrichter")],
    )
    assert who(result) == [("t", TITLE), ("x", REGION), ("z", REGION)]
    assert result.qualified[0].line.reason == "min-events" and result.qualified[0].rank is None
    names = {"x": "Xaver", "N": "Nordverband"}
    german = {
        EXPLANATIONS["wildcard-unused-region"]: "Die Wildcard für %(player)s entfällt (%(region)s)."
    }
    note = next(e for e in result.explanations if e.code == "qualification.wildcard-unused-region")
    assert note.text(lambda t: german.get(t, t), lambda _k, v: names.get(v, str(v))) == (
        "Die Wildcard für Xaver entfällt (Nordverband)."
    )
    assert [e.code for e in result.explanations[:5]] == [
        "qualification.quota",
        "qualification.title",
        "qualification.wildcard",
        "qualification.ties",
        "qualification.reserves",
    ]


# --- hypothesis against the reference ---------------------------------------------------------


def ref_qualify(ranked, regions, quota, titles, cards, reserves):
    order = list(quota) if isinstance(quota, dict) else sorted(set(regions.values()) - {None})
    places = quota if isinstance(quota, dict) else dict.fromkeys(order, quota)
    qualified = [(t, TITLE) for t in titles]
    position = {ln.player: i for i, ln in enumerate(ranked)}
    by_region, rest = [], {}
    for region in order:
        mine = [ln for ln in ranked if regions.get(ln.player) == region and ln.player not in titles]
        n = places[region]
        if n == 0:
            inside = []
        elif len(mine) <= n:
            inside = mine
        else:
            inside = [ln for ln in mine if ln.rank <= mine[n - 1].rank]
        by_region += [(ln.player, REGION) for ln in inside]
        rest[region] = [ln.player for ln in mine if ln not in inside]
    by_region.sort(key=lambda q: position[q[0]])
    qualified += by_region
    done = {p for p, _ in qualified}
    unused = [c.player for c in cards if c.player in done]
    qualified += [(c.player, WILDCARD) for c in cards if c.player not in done]
    carded = {c.player for c in cards if c.player not in done}
    waiting = []
    for region in order:
        left = [p for p in rest[region] if p not in carded]
        if reserves is not None:
            left = left[:reserves]
        waiting += [(p, region, i + 1) for i, p in enumerate(left)]
    waiting.sort(key=lambda r: position[r[0]])
    return qualified, waiting, unused


@st.composite
def cases(draw):
    n = draw(st.integers(0, 14))
    values = sorted(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), reverse=True)
    players = [f"p{i}" for i in range(n)]
    ranked = lines(*((p, 1 + values.index(v)) for p, v in zip(players, values, strict=True)))
    everyone = [*players, "outsider1", "outsider2"]
    regions = {p: draw(st.sampled_from(["R1", "R2", "R3", None])) for p in everyone}
    if draw(st.booleans()):
        quota = draw(st.integers(0, 3))
    else:
        keys = draw(st.lists(st.sampled_from(["R1", "R2", "R3", "R4"]), unique=True))
        quota = {k: draw(st.integers(0, 3)) for k in keys}
    titles = draw(st.lists(st.sampled_from(everyone), unique=True, max_size=2))
    card_players = draw(st.lists(st.sampled_from(everyone), unique=True, max_size=3))
    cards = [Wildcard(p, "Grund") for p in card_players]
    reserves = draw(st.sampled_from([None, 0, 1, 2]))
    return ranked, regions, quota, titles, cards, reserves


@PROPS
@given(cases())
def test_qualification_matches_the_reference(case):
    ranked, regions, quota, titles, cards, reserves = case
    result = qualify(
        ranked, regions, quota, title_holders=titles, wildcards=cards, reserves=reserves
    )
    want, waiting, unused = ref_qualify(ranked, regions, quota, titles, cards, reserves)
    assert who(result) == want
    assert [(r.player, r.region, r.position) for r in result.reserves] == waiting
    assert [c.player for c in result.unused_wildcards] == unused
    # every region's cut: taken = those in through its places; never fewer than min(N, listed)
    for cut in result.cuts:
        inside = [q for q in result.qualified if q.way == REGION and q.region == cut.region]
        assert cut.taken == len(inside) >= min(cut.quota, cut.taken)
        assert all(q.tied == (cut.taken > cut.quota and q.rank == cut.last.rank) for q in inside)
