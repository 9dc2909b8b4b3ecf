"""The payout rules of a prize plan, one worked example per rule (docs/prizes.md)."""

from decimal import Decimal as D

import pytest

from rules.payout import (
    PAYOUT_ERRORS,
    Entry,
    PayoutError,
    PrizeLine,
    Rules,
    Standing,
    clean_lines,
    clean_precedence,
    line_amount,
    payout,
    places_beyond_field,
    plan_summary,
    pot,
)

ONE = Rules(one_prize_per_player=True)
MANY = Rules(one_prize_per_player=False)


def cash(competition, place, amount, ref=""):
    return PrizeLine(competition, place, amount=D(amount), ref=ref)


def standing(competition, ranked, ref="", label=""):
    """ranked: [(key, rank)] or [(key, rank, eligible)]."""
    entries = [Entry(r[0], r[1], str(r[0]).upper(), *(r[2:])) for r in ranked]
    return Standing(competition, ref, label or competition, entries)


def won(result):
    """[(standing label, name, place, amount, item)] in the list's order."""
    return [(a.standing.label, a.entry.key, a.place, a.amount, a.item) for a in result.awards]


def balanced(result):
    return result.paid + result.remainder + result.unawarded == result.planned


# --- the pot and the lines -------------------------------------------------------------


def test_pot_is_fees_minus_costs_never_negative():
    assert pot(D("640.00"), D("40.00")) == D("600.00")
    assert pot(D("30.00"), D("50.00")) == D("0")


def test_share_is_rounded_down_to_the_cent():
    """A pot of 333,33 €, 10 % of it is 33,333 €: the line pays 33,33 €."""
    assert line_amount(PrizeLine("overall", 1, share=D("10")), D("333.33")) == D("33.33")
    assert line_amount(PrizeLine("overall", 1, share=D("33.33")), D("100")) == D("33.33")
    assert line_amount(PrizeLine("overall", 1, amount=D("25.50")), D("0")) == D("25.50")
    assert line_amount(PrizeLine("overall", 1, item="Pokal"), D("500")) == D("0")


# --- rule 3: ties share the money of their places -----------------------------------------


def test_three_way_tie_on_places_2_to_4():
    """Places 2, 3, 4 pay 100, 60 and 40 €; three players tie on 2nd: 200 € shared,
    66,66 € each, 0,02 € stated as the remainder."""
    lines = [cash("overall", p, a) for p, a in [(1, 150), (2, 100), (3, 60), (4, 40)]]
    s = standing("overall", [("a", 1), ("b", 2), ("c", 2), ("d", 2), ("e", 5)])
    result = payout(lines, [s], ONE, D("400"))
    assert won(result) == [
        ("overall", "a", 1, D("150"), ""),
        ("overall", "b", 2, D("66.66"), ""),
        ("overall", "c", 2, D("66.66"), ""),
        ("overall", "d", 2, D("66.66"), ""),
    ]
    assert [a.tied_with for a in result.awards] == [1, 3, 3, 3]
    assert result.awards[1].last_place == 4
    (tie,) = result.ties
    assert (tie.place, tie.tied_with, tie.total, tie.share, tie.remainder) == (
        2,
        3,
        D("200"),
        D("66.66"),
        D("0.02"),
    )
    assert (result.planned, result.paid, result.remainder) == (D("350"), D("349.98"), D("0.02"))
    assert result.unawarded == 0 and result.left_over == D("50.02") and balanced(result)


def test_tie_reaching_past_the_paid_places_shares_what_is_there():
    """Places 3 and 4 tie, only place 3 pays (30 €): 15 € each; place 4 counts 0."""
    lines = [cash("overall", p, a) for p, a in [(1, 50), (2, 40), (3, 30)]]
    s = standing("overall", [("a", 1), ("b", 2), ("c", 3), ("d", 3), ("e", 5)])
    result = payout(lines, [s], ONE, D("0"))
    assert won(result)[2:] == [("overall", "c", 3, D("15"), ""), ("overall", "d", 3, D("15"), "")]
    assert result.remainder == 0 and result.paid == D("120") and balanced(result)


def test_non_cash_prize_on_a_tied_place_is_listed_for_each_tied_entry():
    """Place 1 is a cup, place 2 pays 50 €; two tie for first: each gets 25 € and is
    listed for the cup, marked shared (the director draws lots)."""
    lines = [PrizeLine("overall", 1, item="Pokal"), cash("overall", 2, 50)]
    s = standing("overall", [("a", 1), ("b", 1), ("c", 3)])
    result = payout(lines, [s], ONE, D("0"))
    assert won(result) == [
        ("overall", "a", 1, D("25"), ""),
        ("overall", "a", 1, D("0"), "Pokal"),
        ("overall", "b", 1, D("25"), ""),
        ("overall", "b", 1, D("0"), "Pokal"),
    ]
    assert [a.shared_item for a in result.awards] == [False, True, False, True]


def test_an_untied_non_cash_prize_is_not_shared():
    result = payout(
        [PrizeLine("overall", 1, item="Pokal")], [standing("overall", [("a", 1)])], ONE, D("0")
    )
    assert won(result) == [("overall", "a", 1, D("0"), "Pokal")]
    assert result.awards[0].shared_item is False and result.planned == 0


# --- rule 1: ineligible entries take no place ---------------------------------------------


def test_disqualified_winner_takes_no_place_and_the_next_moves_up():
    lines = [cash("overall", 1, 100), cash("overall", 2, 50)]
    s = standing("overall", [("a", 1, False), ("b", 2), ("c", 3)])
    assert won(payout(lines, [s], ONE, D("0"))) == [
        ("overall", "b", 1, D("100"), ""),
        ("overall", "c", 2, D("50"), ""),
    ]


def test_places_nobody_takes_are_unawarded():
    """Three prizes, two players left: the 3rd place's 20 € stays in the plan, unawarded."""
    lines = [cash("overall", p, a) for p, a in [(1, 60), (2, 40), (3, 20)]]
    s = standing("overall", [("a", 1), ("b", 2), ("c", 3, False)])
    result = payout(lines, [s], ONE, D("120"))
    assert result.unawarded == D("20") and result.paid == D("100") and balanced(result)
    assert [(v.line.place, v.amount) for v in result.vacancies] == [(3, D("20"))]


# --- rule 2: one prize per player, in the order of precedence --------------------------------


def test_one_prize_per_player_passes_the_winner_over_in_later_standings():
    """A wins overall; in series 1 A is first again, so B takes series 1 and C its 2nd."""
    lines = [cash("overall", 1, 100), cash("series", 1, 20), cash("series", 2, 10)]
    overall = standing("overall", [("a", 1), ("b", 2), ("c", 3)])
    s1 = standing("series", [("a", 1), ("b", 2), ("c", 3)], "1", "Serie 1")
    s2 = standing("series", [("c", 1), ("a", 2), ("b", 3)], "2", "Serie 2")
    assert won(payout(lines, [s1, s2, overall], ONE, D("0"))) == [
        ("overall", "a", 1, D("100"), ""),
        ("Serie 1", "b", 1, D("20"), ""),
        ("Serie 1", "c", 2, D("10"), ""),
    ]
    # Series 2: C and B already won, A already won: nobody left, 30 € unawarded.
    # Several prizes allowed: everyone wins where they stand.
    assert won(payout(lines, [s1, s2, overall], MANY, D("0"))) == [
        ("overall", "a", 1, D("100"), ""),
        ("Serie 1", "a", 1, D("20"), ""),
        ("Serie 1", "b", 2, D("10"), ""),
        ("Serie 2", "c", 1, D("20"), ""),
        ("Serie 2", "a", 2, D("10"), ""),
    ]


def test_precedence_decides_which_prize_a_player_keeps():
    lines = [cash("overall", 1, 100), cash("series", 1, 20)]
    overall = standing("overall", [("a", 1), ("b", 2)])
    s1 = standing("series", [("a", 1), ("b", 2)], "1")
    series_first = Rules(True, ("series", "overall", "day", "category", "pairs", "teams"))
    assert [
        (a.standing.competition, a.entry.key)
        for a in payout(lines, [overall, s1], series_first, 0).awards
    ] == [
        ("series", "a"),
        ("overall", "b"),
    ]
    assert [
        (a.standing.competition, a.entry.key) for a in payout(lines, [overall, s1], ONE, 0).awards
    ] == [
        ("overall", "a"),
        ("series", "b"),
    ]


def test_categories_are_handed_out_in_plan_order():
    """Seniors' line first in the plan: a senior woman wins the seniors' prize and is
    passed over for the women's."""
    lines = [cash("category", 1, 30, "7"), cash("category", 1, 20, "3")]
    women = standing("category", [("w", 1), ("x", 2)], "3", "Damen")
    seniors = standing("category", [("w", 1), ("y", 2)], "7", "Senioren")
    assert won(payout(lines, [women, seniors], ONE, 0)) == [
        ("Senioren", "w", 1, D("30"), ""),
        ("Damen", "x", 1, D("20"), ""),
    ]


def test_pairs_neither_block_nor_are_blocked():
    lines = [cash("overall", 1, 100), cash("pairs", 1, 40), cash("series", 1, 20)]
    overall = standing("overall", [("a", 1), ("b", 2), ("c", 3)])
    pairs = Standing("pairs", "", "Tandem", [Entry("p1", 1, "A/B", people=frozenset({"a", "b"}))])
    s1 = standing("series", [("b", 1), ("c", 2)], "1")
    order = Rules(True, ("overall", "pairs", "series", "day", "category", "teams"))
    assert [
        (a.standing.competition, a.entry.key)
        for a in payout(lines, [overall, pairs, s1], order, 0).awards
    ] == [
        ("overall", "a"),
        ("pairs", "p1"),
        ("series", "b"),
    ]


def test_a_tie_with_a_passed_over_player_closes_up():
    """A won overall; in the day standing A, B and C tie for first: A is passed over, B and
    C share places 1 and 2 (30 + 20 €)."""
    lines = [cash("overall", 1, 100), cash("day", 1, 30), cash("day", 2, 20)]
    overall = standing("overall", [("a", 1), ("b", 2)])
    day = standing("day", [("a", 1), ("b", 1), ("c", 1), ("d", 4)], "1", "Tag 1")
    assert won(payout(lines, [overall, day], ONE, 0))[1:] == [
        ("Tag 1", "b", 1, D("25"), ""),
        ("Tag 1", "c", 1, D("25"), ""),
    ]


def test_series_lines_apply_to_every_series_and_planned_counts_them():
    lines = [cash("series", 1, 10), PrizeLine("series", 2, share=D("5"))]
    series = [standing("series", [("a", 1), ("b", 2)], str(n), f"Serie {n}") for n in (1, 2, 3)]
    result = payout(lines, series, MANY, D("200"))
    assert result.planned == D("60") == result.paid
    assert len(result.awards) == 6 and result.left_over == D("140")


def test_category_lines_apply_only_to_their_category():
    lines = [cash("category", 1, 15, "3")]
    other = standing("category", [("a", 1)], "4")
    result = payout(lines, [other], ONE, 0)
    assert result.awards == [] and result.planned == 0


def test_provisional_standing_makes_the_payout_provisional():
    s = Standing("overall", "", "Gesamt", [Entry("a", 1, "A")], provisional=True)
    assert payout([cash("overall", 1, 5)], [s], ONE, 0).provisional is True


# --- checking a plan ---------------------------------------------------------------------


def test_clean_lines_reads_stored_json():
    lines = clean_lines(
        [
            {"competition": "overall", "place": 1, "amount": "100.00"},
            {"competition": "series", "place": "2", "share": 12.5},
            {"competition": "category", "place": 1, "item": " Pokal ", "ref": 3},
            {"competition": "overall", "place": 2, "amount": "12,50", "share": ""},
        ],
        categories=["3"],
    )
    assert lines == [
        PrizeLine("overall", 1, amount=D("100.00")),
        PrizeLine("series", 2, share=D("12.50")),
        PrizeLine("category", 1, item="Pokal", ref="3"),
        PrizeLine("overall", 2, amount=D("12.50")),
    ]
    assert clean_lines([line.as_json() for line in lines], categories=["3"]) == lines


@pytest.mark.parametrize(
    ("raw", "number", "code", "field"),
    [
        ([{"competition": "overall", "place": 1}], 1, "payout.prize-missing", "amount"),
        (
            [{"competition": "finals", "place": 1, "amount": 5}],
            1,
            "payout.competition",
            "competition",
        ),
        ([{"competition": "overall", "place": 0, "amount": 5}], 1, "payout.place", "place"),
        ([{"competition": "overall", "place": 1.5, "amount": 5}], 1, "payout.place", "place"),
        ([{"competition": "overall", "place": True, "amount": 5}], 1, "payout.place", "place"),
        (
            [{"competition": "overall", "place": 1, "amount": "-5"}],
            1,
            "payout.amount-range",
            "amount",
        ),
        (
            [{"competition": "overall", "place": 1, "amount": "100000.01"}],
            1,
            "payout.amount-range",
            "amount",
        ),
        (
            [{"competition": "overall", "place": 1, "amount": "1.005"}],
            1,
            "payout.amount-cents",
            "amount",
        ),
        (
            [{"competition": "overall", "place": 1, "amount": "viel"}],
            1,
            "payout.amount-invalid",
            "amount",
        ),
        (
            [{"competition": "overall", "place": 1, "amount": "NaN"}],
            1,
            "payout.amount-invalid",
            "amount",
        ),
        (
            [{"competition": "overall", "place": 1, "share": "101"}],
            1,
            "payout.share-range",
            "share",
        ),
        (
            [{"competition": "overall", "place": 1, "amount": 5, "item": "Wein"}],
            1,
            "payout.prize-several",
            "item",
        ),
        (
            [{"competition": "overall", "place": 1, "item": "x" * 201}],
            1,
            "payout.item-long",
            "item",
        ),
        (
            [{"competition": "category", "place": 1, "amount": 5, "ref": "9"}],
            1,
            "payout.category",
            "ref",
        ),
        (["overall"], 1, "payout.not-a-line", ""),
        (
            [
                {"competition": "series", "place": 1, "share": 60},
                {"competition": "day", "place": 1, "share": 41},
            ],
            2,
            "payout.shares-total",
            "share",
        ),
        (
            [
                {"competition": "series", "place": 1, "amount": 5},
                {"competition": "series", "place": 2, "amount": 5},
                {"competition": "series", "place": 2, "item": "Wein"},
            ],
            3,
            "payout.place-twice",
            "place",
        ),
    ],
)
def test_clean_lines_names_the_line_and_the_problem(raw, number, code, field):
    with pytest.raises(PayoutError) as caught:
        clean_lines(raw, categories=["3"])
    error = caught.value
    assert (error.line, error.code, error.field) == (number, code, field)
    assert error.code in PAYOUT_ERRORS
    assert str(error).startswith(f"line {number}: ")


def test_the_error_carries_what_a_german_message_needs():
    """ "Zeile 3 (Serie, Platz 2): Betrag fehlt" needs the line, competition and place."""
    raw = [
        {"competition": "overall", "place": 1, "amount": 50},
        {"competition": "series", "place": 1, "amount": 10},
        {"competition": "series", "place": 2},
    ]
    with pytest.raises(PayoutError) as caught:
        clean_lines(raw)
    error = caught.value
    assert error.line == 3 and error.code == "payout.prize-missing"
    assert error.params == {"competition": "series", "place": 2}


def test_the_same_place_in_different_categories_is_allowed():
    raw = [
        {"competition": "category", "place": 1, "amount": 5, "ref": "3"},
        {"competition": "category", "place": 1, "amount": 5, "ref": "4"},
    ]
    assert len(clean_lines(raw, categories=["3", "4"])) == 2


def test_payout_refuses_a_place_twice():
    with pytest.raises(PayoutError) as caught:
        payout([cash("overall", 1, 5), cash("overall", 1, 6)], [], ONE, 0)
    assert caught.value.line == 2 and caught.value.code == "payout.place-twice"


def test_clean_precedence():
    assert (
        clean_precedence(["teams", "pairs", "category", "series", "day", "overall"])[0] == "teams"
    )
    for bad in (["overall"], "overall", ["overall"] * 6, None):
        with pytest.raises(PayoutError):
            clean_precedence(bad)


# --- before any standing exists ------------------------------------------------------------


def test_plan_summary_counts_series_and_days():
    """Overall 100 + 50, 20 € for each of 9 series, 10 % of the pot for each of 3 days,
    a cup: 150 + 180 + 3 × 40 = 450 € against a pot of 400 €: more than the pot."""
    lines = [
        cash("overall", 1, 100),
        cash("overall", 2, 50),
        cash("series", 1, 20),
        PrizeLine("day", 1, share=D("10")),
        PrizeLine("overall", 3, item="Pokal"),
    ]
    summary = plan_summary(lines, {"series": 9, "day": 3}, D("400"))
    assert summary["planned"] == D("450")
    assert summary["by_competition"]["series"] == D("180")
    assert summary["by_competition"]["day"] == D("120")
    assert summary["items"] == 1 and summary["shares"] == D("30")
    assert summary["exceeds_pot"] is True and summary["left_over"] == D("-50")
    # A pot of 500 €: the days' shares grow with it, 150 + 180 + 150 = 480 € fit.
    bigger = plan_summary(lines, {"series": 9, "day": 3}, D("500"))
    assert bigger["planned"] == D("480") and bigger["exceeds_pot"] is False
    assert plan_summary(lines, {}, D("400"))["planned"] == D("150")


def test_planned_before_and_after_agree():
    lines = [cash("overall", 1, 100), cash("series", 1, 20), cash("category", 1, 5, "3")]
    standings = [
        standing("overall", [("a", 1)]),
        standing("series", [("a", 1)], "1"),
        standing("series", [("a", 1)], "2"),
        standing("category", [("a", 1)], "3"),
    ]
    summary = plan_summary(lines, {"series": 2, "day": 0}, D("0"))
    assert summary["planned"] == payout(lines, standings, MANY, D("0")).planned == D("145")


def test_places_beyond_field():
    lines = [
        cash("overall", 1, 10),
        cash("overall", 12, 5),
        cash("pairs", 6, 5),
        cash("category", 4, 5, "3"),
    ]
    assert places_beyond_field(lines, 10) == [(2, lines[1])]
    sizes = {"overall": 20, "pairs": 5, "category:3": 3}
    assert places_beyond_field(lines, sizes) == [(3, lines[2]), (4, lines[3])]
