"""The federation's ranking rules, one worked example per rule (docs/rules.md,
"Ranglisten (Verband)"; issue 27 point 2). The hypothesis tests against a plain
reference are in test_ranking_properties.py."""

from datetime import date, datetime
from decimal import Decimal as D
from fractions import Fraction as F

import pytest

from rules.ranking import (
    AVERAGE_PER_HAND,
    DISQUALIFIED,
    FIELD_SMALL,
    MIN_EVENTS,
    MIN_HANDS,
    RANKING_ERRORS,
    SERIES_FEW,
    EventResult,
    RankingError,
    RankingSettings,
    compute_ranking,
    describe,
    rerank,
    shown,
    window_start,
)

AS_OF = date(2026, 3, 31)
DEFAULT = RankingSettings()


def res(player, event, place, field=10, day=date(2025, 6, 1), klass="ranking", **kw):
    return EventResult(player, event, day, klass, field, place, **kw)


def rank(results, settings=DEFAULT, as_of=AS_OF, **kw):
    return compute_ranking(results, settings, as_of, **kw)


def table(ranking):
    return [(ln.player, ln.rank, ln.shown) for ln in ranking.lines]


# --- event points -----------------------------------------------------------------------------


def test_points_are_field_minus_place_plus_one_and_ties_share_the_average():
    # the example: two players tied at place 3 of 10 get (8 + 7) / 2 = 7.5 each
    results = [res("a", 1, 1), res("b", 1, 3), res("c", 1, 3), res("d", 1, 10)]
    got = {ln.player: ln for ln in rank(results, RankingSettings(min_events=1)).lines}
    assert got["a"].counted[0].points == D(10)
    assert got["b"].counted[0].points == got["c"].counted[0].points == D("7.5")
    assert got["b"].counted[0].tied == 2
    assert got["d"].counted[0].points == D(1)


def test_championship_counts_twice_and_a_factor_may_have_cents():
    settings = RankingSettings(
        class_factors={"ranking": 1, "championship": 2, "cup": "1.25"}, min_events=1
    )
    results = [
        res("a", 1, 3, klass="championship"),
        res("b", 1, 3, klass="championship"),
        res("c", 2, 3, klass="cup"),
        res("d", 2, 3, klass="cup"),
    ]
    got = {ln.player: ln for ln in rank(results, settings).lines}
    assert got["a"].counted[0].points == D(15)  # 7.5 x 2
    assert got["c"].counted[0].points == D("9.375")  # exact; shown 9.38
    assert got["c"].shown == D("9.38")


def test_three_tied_at_the_top_of_a_field_of_three_and_a_field_of_one():
    results = [res(p, 1, 1, field=3) for p in "abc"] + [res("z", 2, 1, field=1)]
    got = {ln.player: ln.value for ln in rank(results, RankingSettings(min_events=1)).lines}
    assert got == {"a": 2, "b": 2, "c": 2, "z": 1}


def test_factor_zero_gives_no_points_but_the_event_is_one_of_the_players_events():
    settings = RankingSettings(class_factors={"ranking": 1, "friendly": 0})
    results = [res("a", 1, 1), res("a", 2, 1, klass="friendly"), res("b", 1, 2)]
    ranking = rank(results, settings)
    assert table(ranking) == [("a", 1, D("10.00"))]
    assert [s.points for s in ranking.line("a").counted] == [D(10), D(0)]
    assert ranking.line("b").reason == MIN_EVENTS


# --- the window -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("as_of", "months", "start"),
    [
        (date(2026, 3, 31), 24, date(2024, 3, 31)),
        (date(2024, 2, 29), 12, date(2023, 2, 28)),  # 29 Feb: clamped
        (date(2025, 5, 31), 3, date(2025, 2, 28)),  # the 31st: clamped
        (date(2026, 2, 28), 24, date(2024, 2, 28)),  # no clamping: 29 Feb 2024 is inside
        (date(2026, 1, 15), 13, date(2024, 12, 15)),
    ],
)
def test_window_start_clamps_month_ends(as_of, months, start):
    assert window_start(as_of, months) == start


def test_window_excludes_its_first_day_and_includes_the_ranking_date():
    days = {
        "first-day": date(2024, 3, 31),
        "next-day": date(2024, 4, 1),
        "as-of": AS_OF,
        "future": date(2026, 4, 1),
    }
    results = [res(p, p, 1, day=d) for p, d in days.items()]
    ranking = rank(results, RankingSettings(min_events=1))
    assert ranking.window_start == date(2024, 3, 31)
    assert sorted(ln.player for ln in ranking.lines) == ["as-of", "next-day"]
    assert [e.event for e in ranking.events] == ["next-day", "as-of"]


def test_empty_window_and_no_results():
    assert rank([]).empty and rank([]).lines == ()
    old = rank([res("a", 1, 1, day=date(2020, 1, 1)), res("a", 2, 1, day=date(2020, 2, 1))])
    assert old.empty and old.lines == () and old.unlisted == ()


def test_a_datetime_as_of_is_taken_as_its_day():
    results = [res("a", 1, 1, day=AS_OF), res("a", 2, 1, day=AS_OF.replace(day=1))]
    assert table(rank(results, as_of=datetime(2026, 3, 31, 23, 59))) == [("a", 1, D("20.00"))]


# --- best n, dropped results ------------------------------------------------------------------


def test_best_five_count_and_the_rest_are_dropped_recent_first_on_equal_points():
    places = [1, 2, 3, 4, 5, 6, 6]  # 10, 9, 8, 7, 6 count; two results of 5 points dropped
    results = [res("a", e, p, day=date(2025, 1, e + 1)) for e, p in enumerate(places)]
    line = rank(results).line("a")
    assert [s.points for s in line.counted] == [10, 9, 8, 7, 6]
    assert [s.result.event for s in line.dropped] == [6, 5]  # 5 points each: the newer first
    assert line.value == 40 and line.best == 10 and line.events_counted == 5
    assert {s.status for s in line.counted} == {"counted"}
    assert {s.status for s in line.dropped} == {"dropped"}


def test_equal_points_on_one_day_the_lower_event_key_counts_first():
    results = [res("a", e, 4) for e in (9, 3, 7)]
    line = rank(results, RankingSettings(best_n=2)).line("a")
    assert [s.result.event for s in line.counted] == [3, 7]
    assert [s.result.event for s in line.dropped] == [9]


# --- the order --------------------------------------------------------------------------------


def test_ties_on_points_more_events_then_best_result_then_shared_rank():
    r = []
    # a: 18 in 2 events; b: 18 in 3 events (more events counted: above a)
    r += [res("a", 1, 1), res("a", 2, 3)]
    r += [res("b", 3, 5), res("b", 4, 5), res("b", 5, 5)]
    # c and d: 17 in 2 events, c's best 10 beats d's best 9
    r += [res("c", 6, 1), res("c", 7, 4), res("d", 8, 2), res("d", 9, 3)]
    # e and f: 12 in 2 events, best 7 each: shared
    r += [res("e", 10, 4), res("e", 11, 6), res("f", 12, 4), res("f", 13, 6)]
    ranking = rank(r)
    assert [(ln.player, ln.rank, ln.shared) for ln in ranking.lines] == [
        ("b", 1, False),
        ("a", 2, False),
        ("c", 3, False),
        ("d", 4, False),
        ("e", 5, True),
        ("f", 5, True),
    ]


def test_shared_ranks_skip_the_next_number():
    places = {"a": (1, 1), "b": (1, 2), "c": (2, 1), "d": (1, 3)}  # 20, 19, 19, 18 points
    results = [res(p, f"{p}{i}", pl) for p, pls in places.items() for i, pl in enumerate(pls)]
    ranking = rank(results)
    assert [(ln.player, ln.rank, ln.shared) for ln in ranking.lines] == [
        ("a", 1, False),
        ("b", 2, True),
        ("c", 2, True),
        ("d", 4, False),
    ]


def test_below_the_minimum_is_not_listed_and_says_why():
    ranking = rank([res("a", 1, 1), res("a", 2, 1), res("b", 1, 2)])
    assert table(ranking) == [("a", 1, D("20.00"))]
    (b,) = ranking.unlisted
    assert (b.player, b.rank, b.reason, b.listed) == ("b", None, MIN_EVENTS, False)


def test_hidden_players_keep_their_rank():
    results = [res(p, e, i + 1) for i, p in enumerate("abc") for e in (1, 2)]
    ranking = rank(results, hidden={"b"})
    assert [(ln.player, ln.rank, ln.hidden) for ln in ranking.lines] == [
        ("a", 1, False),
        ("b", 2, True),
        ("c", 3, False),
    ]


def test_a_regional_list_ranks_its_players_among_themselves():
    results = [res(p, e, i + 1) for i, p in enumerate("abcd") for e in (1, 2)]
    results += [res("e", 1, 5)]
    ranking = rank(results)
    regional = rerank(ranking.lines, {"b", "d", "e"})
    assert [(ln.player, ln.rank) for ln in regional] == [("b", 1), ("d", 2)]


# --- what does not count ----------------------------------------------------------------------


def test_small_fields_short_events_and_disqualified_results_do_not_count():
    settings = RankingSettings(min_field=32, min_series=3, min_events=1)
    results = [
        res("a", "big", 1, field=40, series=3),
        res("a", "small", 1, field=31, series=3),
        res("a", "short", 1, field=40, series=2, day=date(2025, 7, 1)),
        res("b", "big", 2, field=40, series=3, disqualified=True),
    ]
    ranking = rank(results, settings)
    a = ranking.line("a")
    assert [s.result.event for s in a.counted] == ["big"]
    assert {s.result.event: s.status for s in a.excluded} == {
        "small": FIELD_SMALL,
        "short": SERIES_FEW,
    }
    b = ranking.line("b")
    assert b.reason == MIN_EVENTS and b.excluded[0].status == DISQUALIFIED
    assert {e.event: e.reason for e in ranking.events} == {
        "big": "",
        "small": FIELD_SMALL,
        "short": SERIES_FEW,
    }


# --- average per hand (Rundenschnitt) ---------------------------------------------------------


def test_average_per_hand_weights_by_the_class_factor_and_needs_min_hands():
    settings = RankingSettings(formula=AVERAGE_PER_HAND, min_hands=48, best_n=1)
    results = [
        res("a", 1, 1, score=-100, hands=40),
        res("a", 2, 2, score=-30, hands=20, klass="championship"),
        res("b", 1, 2, score=-61, hands=40),
        res("b", 3, 1, score=0, hands=8),
        res("c", 1, 3, score=-10, hands=40),
        res("c", 4, 1, score=-1, hands=1),
    ]
    ranking = rank(results, settings)
    a = ranking.line("a")
    # (-100 + 2 x -30) / (40 + 2 x 20) = -160 / 80 = -2; nothing dropped despite best_n 1
    assert a.value == -2 and a.hands == 60 and len(a.counted) == 2 and a.dropped == ()
    assert a.best == F(-30, 20)
    assert ranking.line("b").value == F(-61, 48)
    assert table(ranking) == [("b", 1, D("-1.27")), ("a", 2, D("-2.00"))]
    c = ranking.line("c")
    assert (c.reason, c.hands, c.value) == (MIN_HANDS, 41, F(-11, 41))


def test_average_per_hand_refuses_a_score_without_hands():
    settings = RankingSettings(formula=AVERAGE_PER_HAND)
    with pytest.raises(RankingError) as caught:
        rank([res("a", 1, 1, score=5, hands=0)], settings)
    assert caught.value.code == "ranking.score-without-hands"


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "code"),
    [
        ([res("a", 1, 1), res("a", 1, 2)], "ranking.duplicate"),
        ([res("a", 1, 1), res("b", 1, 2, field=11)], "ranking.event-mismatch"),
        ([res("a", 1, 1), res("b", 1, 2, day=date(2025, 6, 2))], "ranking.event-mismatch"),
        ([res("a", 1, 1), res("b", 1, 1), res("c", 1, 2)], "ranking.place-overlap"),
        ([res(p, 1, 1, field=2) for p in "abc"], "ranking.field-overfull"),
        ([res("a", 1, 11)], "ranking.place"),
        ([res("a", 1, 0)], "ranking.place"),
        ([res("a", 1, 1, field=0)], "ranking.field-size"),
        ([res("a", 1, 1, klass="friendly")], "ranking.event-class"),
        ([res("a", 1, 1, day=datetime(2025, 1, 1))], "ranking.date"),
        ([res("a", 1, 1, hands=-1)], "ranking.hands"),
        ([res("a", 1, 1, score=1.5)], "ranking.score"),
        ([res("a", 1, 1, series=-1)], "ranking.series"),
        ([("a", 1, 1)], "ranking.not-a-result"),
        # outside the window too: the data is wrong wherever it is
        (
            [res("a", 1, 1, day=date(2001, 1, 1)), res("a", 1, 2, day=date(2001, 1, 1))],
            "ranking.duplicate",
        ),
    ],
)
def test_bad_results_are_refused_with_a_code_and_message(results, code):
    with pytest.raises(RankingError) as caught:
        rank(results)
    assert caught.value.code == code
    assert code in RANKING_ERRORS and str(caught.value)


def test_the_duplicate_message_names_player_and_event_and_translates():
    with pytest.raises(RankingError) as caught:
        rank([res("Anna", "Cup", 1), res("Anna", "Cup", 2)])
    err = caught.value
    assert err.number == 2 and err.params == {"event": "Cup", "player": "Anna"}
    assert str(err) == "Player Anna has two results in event Cup."
    german = {RANKING_ERRORS["ranking.duplicate"]: "%(player)s hat zwei Ergebnisse in %(event)s."}
    assert err.message(lambda t: german.get(t, t)) == "Anna hat zwei Ergebnisse in Cup."


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"window_months": 0}, "ranking.window"),
        ({"window_months": 121}, "ranking.window"),
        ({"window_months": True}, "ranking.window"),
        ({"class_factors": {}}, "ranking.factors"),
        ({"class_factors": {"": 1}}, "ranking.factors"),
        ({"class_factors": {"ranking": "-1"}}, "ranking.factor"),
        ({"class_factors": {"ranking": "1.005"}}, "ranking.factor"),
        ({"class_factors": {"ranking": 1.005}}, "ranking.factor"),
        ({"class_factors": {"ranking": True}}, "ranking.factor"),
        ({"class_factors": {"ranking": "x"}}, "ranking.factor"),
        ({"class_factors": {"ranking": "NaN"}}, "ranking.factor"),
        ({"best_n": 0}, "ranking.count"),
        ({"min_events": 0}, "ranking.count"),
        ({"min_hands": 0}, "ranking.count"),
        ({"min_field": -1}, "ranking.count"),
        ({"min_series": "3"}, "ranking.count"),
        ({"formula": "sum"}, "ranking.formula"),
    ],
)
def test_bad_settings_are_refused(kw, code):
    with pytest.raises(RankingError) as caught:
        RankingSettings(**kw)
    assert caught.value.code == code


def test_factors_from_a_form_or_json():
    s = RankingSettings(class_factors={"a": 1.5, "b": " 1,25 ", "c": D("0.5"), "d": 0})
    assert dict(s.class_factors) == {"a": D("1.5"), "b": D("1.25"), "c": D("0.5"), "d": 0}


def test_settings_defaults_round_trip_and_hash():
    s = RankingSettings()
    assert (s.window_months, s.best_n, s.min_events, s.formula) == (24, 5, 2, "places")
    assert dict(s.class_factors) == {"ranking": 1, "championship": 2}
    assert (s.min_hands, s.min_field, s.min_series) == (48, 0, 0)
    again = RankingSettings.from_json(s.as_json())
    assert again == s and hash(again) == hash(s)
    with pytest.raises(RankingError) as caught:
        RankingSettings.from_json({"windw_months": 12})
    assert caught.value.code == "ranking.unknown-setting"


def test_describe_names_every_setting():
    s = RankingSettings(min_field=32, min_series=3)
    texts = [e.text() for e in describe(s)]
    assert "Window: the 24 months" in texts[0]
    assert "The best 5 results count; further results are dropped (shown in brackets)." in texts
    assert "Factor of the event class “championship”: 2." in texts
    assert "An event counts only with at least 32 players." in texts
    assert "An event counts only with at least 3 series." in texts
    avg = [e.code for e in describe(RankingSettings(formula=AVERAGE_PER_HAND))]
    assert "ranking.setting.average" in avg and "ranking.setting.best_n" not in avg


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (F(75, 8), "9.38"),
        (F(-1, 8), "-0.13"),
        (F(1, 3), "0.33"),
        (F(2, 3), "0.67"),
        (F(-60, 47), "-1.28"),
        (F(1, 200), "0.01"),
        (0, "0.00"),
    ],
)
def test_shown_rounds_half_up_to_two_decimals(value, expected):
    assert shown(value) == D(expected)
