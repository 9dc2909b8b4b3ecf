"""The ranking rules against a plain reference (hypothesis): random events with tied places,
gaps, small fields and short events, disqualified results, three event classes (one of them
maybe factor 0), windows across month ends and 29 February, both formulas, hidden players.

The reference below shares no code with rules.ranking: it steps the window back a
month at a time, averages the places' points with Fractions, picks the counted results with
stable sorts and ranks a player by counting the players strictly better (docs/rules.md,
"Ranglisten (Verband)")."""

from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ranking import (
    AVERAGE_PER_HAND,
    PLACES,
    EventResult,
    RankingSettings,
    compute_ranking,
    shown,
    window_start,
)

PROPS = settings(max_examples=600, deadline=None)
AS_OFS = [date(2024, 2, 29), date(2025, 3, 31), date(2026, 1, 15), date(2025, 12, 31)]
CLASSES = ["ranking", "championship", "cup"]


# --- the reference ----------------------------------------------------------------------------


def ref_start(as_of, months):
    year, month = as_of.year, as_of.month
    for _ in range(months):
        month -= 1
        if month == 0:
            year, month = year - 1, 12
    day = as_of.day
    while True:
        try:
            return date(year, month, day)
        except ValueError:
            day -= 1


def ref_points(result, results, factor):
    tied = [r for r in results if r.event == result.event and r.place == result.place]
    places = range(result.place, result.place + len(tied))
    return sum(Fraction(result.field_size - q + 1) for q in places) / len(tied) * factor


def ref_ranking(results, s, as_of, hidden):
    """{player: (rank or reason, value, counted events, dropped events, best, hidden)}."""
    start = ref_start(as_of, s.window_months)
    factor = {k: Fraction(str(v)) for k, v in s.class_factors.items()}
    mine = {}
    for r in results:
        if start < r.date <= as_of:
            counts = r.field_size >= s.min_field and r.series >= s.min_series
            counts = counts and not r.disqualified
            mine.setdefault(r.player, []).append(
                (r, ref_points(r, results, factor[r.event_class]), counts)
            )
    lines = {}
    for player, rows in mine.items():
        ok = [row for row in rows if row[2]]
        if s.formula == PLACES:
            ok.sort(key=lambda row: row[0].event)
            ok.sort(key=lambda row: row[0].date, reverse=True)
            ok.sort(key=lambda row: row[1], reverse=True)
            counted, dropped = ok[: s.best_n], ok[s.best_n :]
            value = sum(row[1] for row in counted)
            best = max((row[1] for row in counted), default=None)
            listed = len(ok) >= s.min_events
        else:
            counted, dropped = ok, []
            top = sum(factor[r.event_class] * r.score for r, _, _ in ok)
            bottom = sum(factor[r.event_class] * r.hands for r, _, _ in ok)
            hands = sum(r.hands for r, _, _ in ok if factor[r.event_class] != 0)
            value = top / bottom if bottom else None
            best = max((Fraction(r.score, r.hands) for r, _, _ in ok if r.hands), default=None)
            listed = len(ok) >= s.min_events and hands >= s.min_hands
        lines[player] = [
            listed,
            value,
            sorted(row[0].event for row in counted),
            sorted(row[0].event for row in dropped),
            best,
            player in hidden,
        ]
    listed = {p: ln for p, ln in lines.items() if ln[0]}
    for ln in listed.values():
        mine_key = (ln[1], len(ln[2]), ln[4])
        better = 0
        for other in listed.values():
            if _better((other[1], len(other[2]), other[4]), mine_key):
                better += 1
        ln[0] = better + 1
    for ln in lines.values():
        if ln[0] is False:
            ln[0] = None
    return lines


def _better(a, b):
    """a before b: a higher value, then more events, then a better best (None lowest)."""
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        if x is None:
            return False
        if y is None:
            return True
        return x > y
    return False


# --- strategies -------------------------------------------------------------------------------


@st.composite
def events(draw, months):
    as_of = draw(st.sampled_from(AS_OFS))
    players = [f"p{i}" for i in range(draw(st.integers(1, 6)))]
    out = []
    for event in range(draw(st.integers(0, 7))):
        day = as_of + timedelta(days=draw(st.integers(-900, 40)))
        if draw(st.booleans()):  # month ends and the window's edges on purpose
            day = draw(st.sampled_from([as_of, ref_start(as_of, months), ref_start(as_of, 24)]))
            day += timedelta(days=draw(st.integers(-1, 1)))
        klass = draw(st.sampled_from(CLASSES))
        series = draw(st.integers(0, 4))
        who = draw(st.lists(st.sampled_from(players), unique=True, min_size=1))
        place, places = 1 + draw(st.integers(0, 2)), []
        while len(places) < len(who):
            tied = min(draw(st.integers(1, 3)), len(who) - len(places))
            places += [place] * tied
            place += tied + draw(st.integers(0, 2))  # a gap: players not in the data
        # a tie group occupies len(group) places: the field holds them all
        needed = max(p + places.count(p) - 1 for p in places)
        field_size = max(draw(st.integers(1, 9)), needed, len(who))
        for player, pl in zip(who, places, strict=True):
            hands = draw(st.integers(0, 12))
            score = draw(st.integers(-60, 40)) if hands else 0
            dq = draw(st.integers(0, 9)) == 0
            out.append(
                EventResult(player, event, day, klass, field_size, pl, score, hands, series, dq)
            )
    return as_of, players, out


@st.composite
def solo_events(draw):
    """Every event has one player in the data, at place 1 of a field of 1 to 4: totals,
    event counts and best results tie often, in every combination."""
    players = [f"p{i}" for i in range(draw(st.integers(2, 4)))]
    out = []
    for event in range(draw(st.integers(2, 16))):
        day = date(2025, 1, 1) + timedelta(days=draw(st.integers(0, 5)))
        size = draw(st.integers(1, 4))
        out.append(EventResult(draw(st.sampled_from(players)), event, day, "ranking", size, 1))
    return date(2025, 6, 30), players, out


@st.composite
def cases(draw):
    """(settings, (as_of, players, results)): the window's edges follow the settings."""
    s = draw(ranking_settings())
    return s, draw(st.one_of(events(s.window_months), solo_events()))


@st.composite
def ranking_settings(draw):
    return RankingSettings(
        window_months=draw(st.integers(1, 30)),
        class_factors={
            "ranking": draw(st.sampled_from(["1", "0", "1.5"])),
            "championship": draw(st.sampled_from(["2", "0.25", "3"])),
            "cup": draw(st.sampled_from(["0", "1", "0.75"])),
        },
        best_n=draw(st.integers(1, 4)),
        min_events=draw(st.integers(1, 3)),
        formula=draw(st.sampled_from([PLACES, AVERAGE_PER_HAND])),
        min_hands=draw(st.integers(1, 25)),
        min_field=draw(st.sampled_from([0, 0, 3, 5])),
        min_series=draw(st.sampled_from([0, 0, 2])),
    )


# --- the properties ---------------------------------------------------------------------------


@PROPS
@given(st.sampled_from([*AS_OFS, date(2024, 3, 31), date(2023, 5, 30)]), st.integers(1, 120))
def test_window_start_matches_the_reference(as_of, months):
    assert window_start(as_of, months) == ref_start(as_of, months)


@PROPS
@given(cases(), st.data())
def test_ranking_matches_the_reference(case, data):
    s, (as_of, players, results) = case
    hidden = set(data.draw(st.lists(st.sampled_from(players), unique=True)))
    ranking = compute_ranking(results, s, as_of, hidden=hidden)
    want = ref_ranking(results, s, as_of, hidden)
    got = {}
    for ln in (*ranking.lines, *ranking.unlisted):
        got[ln.player] = [
            ln.rank,
            ln.value,
            sorted(x.result.event for x in ln.counted),
            sorted(x.result.event for x in ln.dropped),
            ln.best,
            ln.hidden,
        ]
    assert got == want
    # the listed lines in rank order, ranks 1, 2, 2, 4: each rank is 1 + the lines before it
    # that are strictly better; shared means another line has the same rank
    ranks = [ln.rank for ln in ranking.lines]
    assert ranks == sorted(ranks)
    for i, ln in enumerate(ranking.lines):
        assert ln.rank == 1 + sum(1 for o in ranking.lines[:i] if o.rank < ln.rank)
        assert ln.shared == (ranks.count(ln.rank) > 1)
    # exact points: the counted results add up to the line's value
    for ln in ranking.lines:
        if s.formula == PLACES:
            assert sum(Fraction(x.points) for x in ln.counted) == ln.value


@PROPS
@given(
    st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=4), min_size=2, max_size=5),
    st.integers(1, 4),
)
def test_the_order_of_equal_totals_matches_the_reference(fields, best_n):
    """Each player wins events of 1 to 4 players: totals tie often, with more or fewer
    events and better or worse best results in every combination."""
    results, event = [], 0
    for player, sizes in enumerate(fields):
        for size in sizes:
            results.append(EventResult(player, event, date(2025, 1, 1), "ranking", size, 1))
            event += 1
    s = RankingSettings(best_n=best_n, min_events=1)
    ranking = compute_ranking(results, s, date(2025, 6, 30))
    want = ref_ranking(results, s, date(2025, 6, 30), set())
    assert {ln.player: ln.rank for ln in ranking.lines} == {p: w[0] for p, w in want.items()}
    assert [ln.player for ln in ranking.lines] == sorted(want, key=lambda p: (want[p][0], p))


@PROPS
@given(st.integers(-(10**6), 10**6), st.integers(1, 10**4))
def test_shown_rounds_half_up_like_decimal(numerator, denominator):
    value = Fraction(numerator, denominator)
    with localcontext() as ctx:
        ctx.prec = 60
        exact = Decimal(numerator) / Decimal(denominator)
        assert shown(value) == exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
