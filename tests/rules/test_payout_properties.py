"""The payout rules against a plain reference (hypothesis): random standings with ties,
ineligible entries, series, days, categories, pairs and teams, every order of precedence,
one prize per player or several.

The reference below shares no code with rules.payout: it counts in whole cents
(int), walks the plan with simple loops and is written from docs/prizes.md."""

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.payout import Entry, PrizeLine, Rules, Standing, payout, plan_summary

PROPS = settings(max_examples=300, deadline=None)
KINDS = ["overall", "series", "day", "pairs", "teams", "category"]
ALONE = ["overall", "series", "day", "category"]
CATEGORY_REFS = ["c1", "c2", "c3"]


# --- the reference ---------------------------------------------------------------------------


def ref_line_cents(line, pot_cents):
    if line.item:
        return 0
    if line.amount is not None:
        return int(line.amount * 100)
    hundredths = int(line.share * 100)  # percent with two places, as an int
    return pot_cents * hundredths // 10000


def ref_payout(lines, standings, one_prize, precedence, pot_cents):
    """[(label, key, place, cents, item, tied_with, shared)], planned, paid, rest, unawarded."""
    category_order = []
    for line in lines:
        if line.competition == "category" and line.ref not in category_order:
            category_order.append(line.ref)
    order = []
    for kind in precedence:
        these = [s for s in standings if s.competition == kind]
        if kind == "category":
            known = [s for s in these if s.ref in category_order]
            known.sort(key=lambda s: category_order.index(s.ref))
            these = known + [s for s in these if s.ref not in category_order]
        order += these
    order += [s for s in standings if s.competition not in precedence]

    have_won = set()
    awards = []
    planned = paid = rest = unawarded = 0
    for s in order:
        prizes = {}
        for line in lines:
            if line.competition != s.competition:
                continue
            if s.competition == "category" and line.ref != s.ref:
                continue
            prizes[line.place] = line
        if not prizes:
            continue
        for line in prizes.values():
            planned += ref_line_cents(line, pot_cents)
        alone = s.competition in ALONE
        ranked = []
        for rank in sorted({e.rank for e in s.entries}):
            for e in s.entries:
                if e.rank != rank or not e.eligible:
                    continue
                if one_prize and alone and e.key in have_won:
                    continue
                ranked.append(e)
        winners_here = []
        place = 1
        i = 0
        while i < len(ranked):
            tied = [e for e in ranked if e.rank == ranked[i].rank]
            n = len(tied)
            money = 0
            any_cash = False
            items = []
            for p in range(place, place + n):
                if p in prizes:
                    if prizes[p].item:
                        items.append(prizes[p].item)
                    else:
                        any_cash = True
                        money += ref_line_cents(prizes[p], pot_cents)
            each = money // n
            if any_cash or items:
                rest += money - each * n
                for e in tied:
                    if any_cash:
                        awards.append((s.label, e.key, place, each, "", n, False))
                        paid += each
                    for item in items:
                        awards.append((s.label, e.key, place, 0, item, n, n > 1))
                    winners_here.append(e.key)
            place += n
            i += n
        for p, line in prizes.items():
            if p >= place:
                unawarded += ref_line_cents(line, pot_cents)
        if one_prize and alone:
            have_won.update(winners_here)
    return awards, planned, paid, rest, unawarded


# --- random events ---------------------------------------------------------------------------


@st.composite
def ranked_entries(draw, keys, make):
    """Some of `keys` with ranks from few distinct scores (many ties), some ineligible."""
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys)))
    scores = [draw(st.integers(0, 3)) for _ in chosen]
    entries = []
    for key, score in zip(chosen, scores, strict=True):
        rank = 1 + sum(1 for other in scores if other > score)
        eligible = draw(st.integers(0, 5)) > 0
        entries.append(make(key, rank, eligible))
    return entries


@st.composite
def events(draw):
    players = [f"p{i}" for i in range(draw(st.integers(1, 8)))]

    def person(key, rank, eligible):
        people = draw(st.sampled_from([frozenset(), frozenset({key})]))
        return Entry(key, rank, key.upper(), eligible, people)

    def group(key, rank, eligible):
        members = draw(st.lists(st.sampled_from(players), min_size=1, max_size=3, unique=True))
        return Entry(key, rank, key.upper(), eligible, frozenset(members))

    standings = []
    if draw(st.booleans()):
        standings.append(Standing("overall", "", "Gesamt", draw(ranked_entries(players, person))))
    for kind, label in (("series", "Serie"), ("day", "Tag")):
        for n in range(1, draw(st.integers(0, 3)) + 1):
            entries = draw(ranked_entries(players, person))
            standings.append(Standing(kind, str(n), f"{label} {n}", entries))
    for ref in draw(st.lists(st.sampled_from(CATEGORY_REFS), unique=True)):
        entries = draw(ranked_entries(players, person))
        standings.append(Standing("category", ref, f"Kategorie {ref}", entries))
    for kind in ("pairs", "teams"):
        if draw(st.booleans()):
            groups = [f"{kind}{i}" for i in range(draw(st.integers(1, 4)))]
            standings.append(Standing(kind, "", kind, draw(ranked_entries(groups, group))))
    standings = draw(st.permutations(standings))

    lines = []
    for kind in KINDS:
        for ref in CATEGORY_REFS if kind == "category" else [""]:
            for place in draw(st.lists(st.integers(1, 6), unique=True, max_size=4)):
                prize = draw(st.sampled_from(["amount", "amount", "share", "item"]))
                if prize == "amount":
                    cents = draw(st.integers(0, 20000))
                    lines.append(PrizeLine(kind, place, amount=Decimal(cents) / 100, ref=ref))
                elif prize == "share":
                    hundredths = draw(st.integers(0, 3000))
                    lines.append(PrizeLine(kind, place, share=Decimal(hundredths) / 100, ref=ref))
                else:
                    lines.append(PrizeLine(kind, place, item=f"Preis {kind} {place}", ref=ref))
    lines = draw(st.permutations(lines))
    precedence = tuple(
        draw(
            st.sampled_from([tuple(Rules().precedence), tuple(reversed(KINDS))])
            | st.permutations(KINDS)
        )
    )
    rules = Rules(draw(st.booleans()), precedence)
    pot_cents = draw(st.integers(0, 200000))
    return lines, standings, rules, pot_cents


def cents(amount):
    assert amount == amount.quantize(Decimal("0.01"))
    return int(amount * 100)


# --- the properties --------------------------------------------------------------------------


@PROPS
@given(events())
def test_awards_and_sums_equal_the_reference(event):
    lines, standings, rules, pot_cents = event
    result = payout(lines, standings, rules, Decimal(pot_cents) / 100)
    awards, planned, paid, rest, unawarded = ref_payout(
        lines, standings, rules.one_prize_per_player, rules.precedence, pot_cents
    )
    got = [
        (
            a.standing.label,
            a.entry.key,
            a.place,
            cents(a.amount),
            a.item,
            a.tied_with,
            a.shared_item,
        )
        for a in result.awards
    ]
    assert got == awards
    assert (cents(result.planned), cents(result.paid)) == (planned, paid)
    assert (cents(result.remainder), cents(result.unawarded)) == (rest, unawarded)
    assert cents(result.left_over) == pot_cents - paid


@PROPS
@given(events())
def test_sums_equal_the_plan_and_rounding_loses_less_than_a_cent_per_tied_entry(event):
    lines, standings, rules, pot_cents = event
    result = payout(lines, standings, rules, Decimal(pot_cents) / 100)
    assert result.paid + result.remainder + result.unawarded == result.planned
    assert result.paid == sum(a.amount for a in result.awards)
    assert result.remainder == sum(t.remainder for t in result.ties)
    assert result.unawarded == sum(v.amount for v in result.vacancies)
    for tie in result.ties:
        assert 0 <= tie.remainder < tie.tied_with * Decimal("0.01")
        assert tie.share * tie.tied_with + tie.remainder == tie.total
        shares = [
            a.amount
            for a in result.awards
            if a.standing is tie.standing and a.place == tie.place and not a.item
        ]
        assert shares in ([], [tie.share] * tie.tied_with)
    # Before any standing exists, the plan's total is the same (when every category of
    # the plan has its standing).
    refs = {s.ref for s in standings if s.competition == "category"}
    if {line.ref for line in lines if line.competition == "category"} <= refs:
        counts = {kind: sum(1 for s in standings if s.competition == kind) for kind in KINDS}
        counts["category"] = 1
        summary = plan_summary(lines, counts, Decimal(pot_cents) / 100)
        assert summary["planned"] == result.planned


@PROPS
@given(events())
def test_nobody_paid_twice_and_no_ineligible_winner(event):
    lines, standings, rules, pot_cents = event
    result = payout(lines, standings, rules, Decimal(pot_cents) / 100)
    for award in result.awards:
        assert award.entry.eligible
        assert award.entry in award.standing.entries
    if rules.one_prize_per_player:
        where = {}
        for award in result.awards:
            if award.standing.competition in ALONE:
                where.setdefault(award.entry.key, set()).add(id(award.standing))
        assert all(len(standings_won) == 1 for standings_won in where.values())
