"""Who wins which prize, and how much: the payout rules of a prize plan (pure Python).

The prize list page, its PDF and XLSX and the public prize page all read `payout()`;
nothing else decides a prize. See docs/prizes.md for the rules in German words.

Terms:
- A *competition* is a kind of standing: "overall", "series", "day", "pairs", "teams",
  "category". A plan line names one, and for categories the category (`ref`).
- A *standing* is one ranked list of one competition: the overall standing, series 3's
  standing, day 2's, the seniors' standing. Series and day lines apply to every series
  (or day) standing the event has.
- A *tie* is a run of entries with the same rank after the tie-break chain (and any
  playoff): the standings engine decides ties; this module only shares money across them.

Rules (each a setting of the plan, shown on the plan and the list):
1. Ineligible entries (withdrawn, disqualified) win nothing and take no place: the next
   in line moves up.
2. One prize per player (`one_prize_per_player`): standings are handed out in the order of
   `precedence` (competitions; series and days in their order; categories in plan order);
   a player who already won a prize in an individual competition is passed over and the
   next in line moves up. Pairs and teams are prizes of the group: they neither block nor
   are blocked by individual prizes.
3. Ties on prize places: the tied entries share the sum of the money of the places they
   occupy (places the plan does not pay count 0), equally, each share rounded down to the
   cent; the cents left are the tie's stated remainder (not paid). A non-cash prize on a
   tied place cannot be split: it is listed for every tied entry and marked `shared_item`
   (the director decides, e.g. by lot).
4. A share prize is `share` percent of the pot (collected fees minus stated costs), rounded
   down to the cent.

Precisely (what the tests hold):
- "Series and days in their order" is the order of the standings given; "categories in
  plan order" is the order in which the category's first line appears in the plan.
  Standings of a competition missing from `precedence` come last, in the order given.
  Awards are listed in that handing-out order, within a standing by place.
- A player has "won a prize" once any award (cash, share or item, also a shared item) in
  an individual competition names them; a player is `entry.people`, or `{entry.key}` when
  `people` is empty.
- Places are counted among the entries left (eligible, not passed over) in rank order;
  a tie occupies as many places as it has entries, from the place after those above it.
- Each tied entry on prize places gets one award for the cash (if any place it shares is
  a cash line) and one award per non-cash prize of those places (`shared_item`).
- `planned` = the cash of every line over every standing it applies to; `unawarded` =
  the cash of places nobody takes; `paid + remainder + unawarded == planned` exactly;
  `left_over = pot - paid`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from .payout_lines import (
    CENT,
    COMPETITIONS,
    DEFAULT_PRECEDENCE,
    INDIVIDUAL,
    MAX_AMOUNT,
    MAX_ITEM,
    MAX_PLACE,
    PAYOUT_ERRORS,
    ZERO,
    PayoutError,
    PrizeLine,
    cents_down,
    check_places,
    clean_line,
    clean_lines,
    clean_precedence,
    line_amount,
    payout_error,
    pot,
)

__all__ = [
    "CENT",
    "COMPETITIONS",
    "DEFAULT_PRECEDENCE",
    "INDIVIDUAL",
    "MAX_AMOUNT",
    "MAX_ITEM",
    "MAX_PLACE",
    "PAYOUT_ERRORS",
    "Award",
    "Entry",
    "Payout",
    "PayoutError",
    "PrizeLine",
    "Rules",
    "Standing",
    "Tie",
    "Vacancy",
    "clean_line",
    "clean_lines",
    "clean_precedence",
    "line_amount",
    "payout",
    "places_beyond_field",
    "plan_summary",
    "pot",
]


@dataclass(frozen=True)
class Entry:
    """One place-holder of one standing: a participant, or a pair or team (`people` are the
    participants it stands for). `rank` is shared by tied entries."""

    key: Hashable
    rank: int
    name: str
    eligible: bool = True
    people: frozenset = frozenset()
    club: str = ""


@dataclass(frozen=True)
class Standing:
    """One ranked list: `competition`, `ref` (series or day number, category id; "" for
    overall, pairs, teams) and its `label` for the list ("Serie 3")."""

    competition: str
    ref: str
    label: str
    entries: Sequence[Entry]
    provisional: bool = False


@dataclass(frozen=True)
class Rules:
    one_prize_per_player: bool = True
    precedence: tuple[str, ...] = DEFAULT_PRECEDENCE


@dataclass(frozen=True)
class Award:
    """One prize handed to one entry."""

    standing: Standing
    entry: Entry
    place: int  # the place the entry takes among the eligible (a tie: its first place)
    amount: Decimal  # cash paid to this entry (0 for a non-cash prize)
    item: str = ""
    tied_with: int = 1  # how many entries share the places (1: no tie)
    shared_item: bool = False
    lines: tuple[PrizeLine, ...] = ()  # the plan lines this award comes from

    @property
    def last_place(self) -> int:
        """The last place of the tie (== place without a tie): "Platz 2-4"."""
        return self.place + self.tied_with - 1


@dataclass(frozen=True)
class Tie:
    """A tie on prize places: `tied_with` entries share places place..place+tied_with-1,
    whose cash is `total`; each gets `share`, `remainder` is not paid."""

    standing: Standing
    place: int
    tied_with: int
    total: Decimal
    share: Decimal
    remainder: Decimal
    entries: tuple[Entry, ...] = ()


@dataclass(frozen=True)
class Vacancy:
    """A prize place nobody takes (field too small, everyone left passed over)."""

    standing: Standing
    line: PrizeLine
    amount: Decimal


@dataclass(frozen=True)
class Payout:
    awards: list[Award]
    paid: Decimal  # the sum of every award's amount
    planned: Decimal  # what the plan's cash lines come to for these standings
    remainder: Decimal  # cents left by ties' rounding (planned - paid - unawarded)
    unawarded: Decimal  # money of places nobody could take (field too small, all passed)
    pot: Decimal
    left_over: Decimal  # pot - paid (may be negative: the plan pays more than the pot)
    notes: list[str] = field(default_factory=list)
    ties: list[Tie] = field(default_factory=list)  # every tie on prize places
    vacancies: list[Vacancy] = field(default_factory=list)  # every place nobody takes
    provisional: bool = False  # any standing given is provisional


# --- before any standing: the plan's total and its places ------------------------------


def _applies(line: PrizeLine, counts: Mapping[str, int]) -> int:
    """How many standings a line applies to, by the counts of series, days, categories."""
    if line.competition in ("series", "day"):
        return max(int(counts.get(line.competition, 0)), 0)
    if line.competition == "category":
        return 1 if counts.get("category", 1) else 0
    return 1 if counts.get(line.competition, 1) else 0


def plan_summary(lines: Sequence[PrizeLine], counts: Mapping[str, int], pot_amount) -> dict:
    """What the plan comes to before any standing exists.

    `counts`: how many series and days the event has ("series", "day"; missing: 0), and
    0 for "overall", "pairs", "teams" or "category" when there is no such standing
    (missing: 1). Returns planned (the cash of every line over every standing it applies
    to), by_competition (the same per competition), items (how many non-cash prizes),
    shares (the percent of the pot the share lines take, over their standings), pot,
    left_over (pot - planned) and exceeds_pot (planned > pot: the plan must be
    confirmed)."""
    pot_amount = Decimal(pot_amount)
    by_competition = dict.fromkeys(COMPETITIONS, ZERO)
    items = 0
    shares = ZERO
    for line in lines:
        times = _applies(line, counts)
        by_competition[line.competition] += line_amount(line, pot_amount) * times
        if line.item:
            items += times
        if line.share is not None:
            shares += line.share * times
    planned = sum(by_competition.values(), ZERO)
    return {
        "planned": planned,
        "by_competition": by_competition,
        "items": items,
        "shares": shares,
        "pot": pot_amount,
        "left_over": pot_amount - planned,
        "exceeds_pot": planned > pot_amount,
    }


def places_beyond_field(
    lines: Sequence[PrizeLine], field_size: int | Mapping[str, int]
) -> list[tuple[int, PrizeLine]]:
    """The lines (1-based number, line) whose place is beyond the field: a warning.

    `field_size`: one number for every line, or per competition ("overall", "series",
    "pairs", …; "category:<ref>" for one category, else "category"); a competition not
    in the mapping is not checked."""
    out = []
    for number, line in enumerate(lines, 1):
        if isinstance(field_size, Mapping):
            size = None
            if line.competition == "category":
                size = field_size.get(f"category:{line.ref}")
            if size is None:
                size = field_size.get(line.competition)
        else:
            size = field_size
        if size is not None and line.place > size:
            out.append((number, line))
    return out


# --- handing out ---------------------------------------------------------------------


def _order(lines: Sequence[PrizeLine], standings: Sequence[Standing], rules: Rules):
    """The standings in handing-out order (module docstring)."""
    category_order: dict[str, int] = {}
    for line in lines:
        if line.competition == "category":
            category_order.setdefault(line.ref, len(category_order))
    rank = {c: i for i, c in enumerate(rules.precedence)}
    last = len(rank)

    def key(indexed):
        i, s = indexed
        within = (
            category_order.get(s.ref, len(category_order)) if s.competition == "category" else 0
        )
        return (rank.get(s.competition, last), within, i)

    return [s for _, s in sorted(enumerate(standings), key=key)]


def _people(entry: Entry) -> frozenset:
    return entry.people or frozenset({entry.key})


def _hand_out(standing, by_place, pot_amount, blocked, out):
    """Hand out one standing's lines; adds to `out` (awards, ties, vacancies) and returns
    the people who won (for one prize per player)."""
    individual = standing.competition in INDIVIDUAL
    left = [
        e
        for e in sorted(standing.entries, key=lambda e: e.rank)
        if e.eligible and not (individual and blocked and _people(e) & blocked)
    ]
    winners: set = set()
    place = 1
    i = 0
    while i < len(left):
        j = i
        while j < len(left) and left[j].rank == left[i].rank:
            j += 1
        group = left[i:j]
        k = len(group)
        mine = [by_place[p] for p in range(place, place + k) if p in by_place]
        if mine:
            cash = [ln for ln in mine if ln.is_cash]
            items = [ln for ln in mine if not ln.is_cash]
            total = sum((line_amount(ln, pot_amount) for ln in cash), ZERO)
            share = cents_down(total / k) if k > 1 else total
            if k > 1:
                out["ties"].append(
                    Tie(standing, place, k, total, share, total - share * k, tuple(group))
                )
            for entry in group:
                if cash:
                    out["awards"].append(
                        Award(standing, entry, place, share, "", k, False, tuple(cash))
                    )
                for ln in items:
                    out["awards"].append(
                        Award(standing, entry, place, ZERO, ln.item, k, k > 1, (ln,))
                    )
                winners |= _people(entry)
        place += k
        i = j
    for p in sorted(by_place):
        if p >= place:
            line = by_place[p]
            out["vacancies"].append(Vacancy(standing, line, line_amount(line, pot_amount)))
    return winners


def payout(
    lines: Sequence[PrizeLine],
    standings: Sequence[Standing],
    rules: Rules,
    pot_amount: Decimal,
) -> Payout:
    """Hand out the plan's prizes over the standings under the rules (module docstring)."""
    pot_amount = Decimal(pot_amount)
    check_places(lines)
    for s in standings:
        if s.competition not in COMPETITIONS:
            raise payout_error("payout.standing", None, "", competition=s.competition)
    out: dict[str, list] = {"awards": [], "ties": [], "vacancies": []}
    blocked: set = set()
    planned = ZERO
    for standing in _order(lines, standings, rules):
        ref = standing.ref if standing.competition == "category" else ""
        by_place = {
            ln.place: ln
            for ln in lines
            if ln.competition == standing.competition
            and (ln.competition != "category" or ln.ref == ref)
        }
        if not by_place:
            continue
        planned += sum((line_amount(ln, pot_amount) for ln in by_place.values()), ZERO)
        winners = _hand_out(
            standing, by_place, pot_amount, blocked if rules.one_prize_per_player else None, out
        )
        if rules.one_prize_per_player and standing.competition in INDIVIDUAL:
            blocked |= winners
    paid = sum((a.amount for a in out["awards"]), ZERO)
    remainder = sum((t.remainder for t in out["ties"]), ZERO)
    unawarded = sum((v.amount for v in out["vacancies"]), ZERO)
    return Payout(
        awards=out["awards"],
        paid=paid,
        planned=planned,
        remainder=remainder,
        unawarded=unawarded,
        pot=pot_amount,
        left_over=pot_amount - paid,
        ties=out["ties"],
        vacancies=out["vacancies"],
        provisional=any(s.provisional for s in standings),
    )
