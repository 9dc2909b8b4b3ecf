"""The prize list of an event: the plan's lines handed out over the stored standings by the
payout rule (`rules.payout`); nothing here decides a prize.

Reads: the event's standings (individual, and pairs and teams when the plan pays them)
from one `standing_inputs` read, ranked overall and, when the plan pays series or day
prizes, for each series and day; the category standings when it pays categories, who is
withdrawn or disqualified (one query), the plan and the collected fees. The number of
queries grows neither with the field nor with the series and days.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext as _

from common.money import format_euro
from prizes.models import PrizePlan
from rules.payout import (
    Award,
    Entry,
    Payout,
    PrizeLine,
    Rules,
    Standing,
    clean_lines,
    places_beyond_field,
    pot,
)
from rules.payout import payout as hand_out
from scoring.standings import labels
from scoring.standings.selectors import standing_inputs
from tournaments.models import Category, Event, Participant, Series

try:  # the entry fees (prizes.fees) land beside this module
    from prizes.fees.selectors import cash_summary
except ImportError:  # pragma: no cover - until prizes.fees is in
    cash_summary = None

try:  # the category standings (scoring.standings.categories)
    from scoring.standings.categories import category_standings
except ImportError:  # pragma: no cover - until the category standings are in
    category_standings = None

ZERO = Decimal("0")
GROUP_COMPETITIONS = {"pairs": labels.PAIR, "teams": labels.TEAM}


def competition_label(competition: str, ref: str = "", categories: dict | None = None) -> str:
    """The Wertung a standing or plan line is for: "Gesamtwertung", "Serie 3", "Damen"."""
    if competition == "overall":
        return _("Overall standing")
    if competition == "series":
        return _("Series %(number)s") % {"number": ref} if ref else _("Every series")
    if competition == "day":
        return _("Day %(day)s") % {"day": ref} if ref else _("Every day")
    if competition == "pairs":
        return _("Pairs")
    if competition == "teams":
        return _("Teams")
    name = (categories or {}).get(str(ref))
    return name if name else _("Category")


@dataclass
class PrizeRow:
    """One line of the prize list."""

    place: int
    name: str
    club: str
    standing: str  # the Wertung: "Gesamtwertung", "Serie 3", "Damen"
    prize: str  # the prize as text
    amount: Decimal
    competition: str
    order: int  # the standing's position in the order of precedence (the list's order)
    tied_with: int = 1
    shared_item: bool = False


@dataclass
class PrizeList:
    event: Event
    plan: PrizePlan | None
    rows: list[PrizeRow]
    paid: Decimal = ZERO
    planned: Decimal = ZERO
    pot: Decimal = ZERO
    left_over: Decimal = ZERO
    remainder: Decimal = ZERO
    unawarded: Decimal = ZERO
    collected: Decimal = ZERO
    costs: Decimal = ZERO
    provisional: bool = False
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def plan_of(event: Event) -> PrizePlan | None:
    return PrizePlan.objects.filter(event=event).first()


def category_names(event: Event) -> dict[str, str]:
    return {
        str(pk): name for pk, name in Category.objects.filter(event=event).values_list("pk", "name")
    }


def collected_fees(event: Event) -> tuple[Decimal, Decimal]:
    """(collected, due if everyone paid) of the entry fees; (0, 0) before prizes.fees."""
    if cash_summary is None:
        return ZERO, ZERO
    summary = cash_summary(event)
    collected = Decimal(getattr(summary, "collected", ZERO) or ZERO)
    owed = Decimal(getattr(summary, "owed", ZERO) or ZERO)
    return collected, collected + owed


def plan_lines(plan: PrizePlan | None, categories: dict[str, str]) -> list[PrizeLine]:
    if plan is None or not plan.prizes:
        return []
    return clean_lines(plan.prizes, categories=list(categories))


def _ineligible(event: Event) -> set[int]:
    """Participants who win nothing: withdrawn or disqualified (one query)."""
    rows = Participant.objects.filter(event=event).order_by()
    rows = rows.values_list("id", "withdrawn_from_series", "disqualified")
    return {pk for pk, withdrawn, dq in rows if withdrawn is not None or dq}


def _entries(rows, ineligible: set[int], group: bool) -> list[Entry]:
    out = []
    for row in rows:
        name = row.name
        if group:
            people = frozenset(m["participant_id"] for m in row.members)
            # Whoever takes the envelope: the pair's or team's name with its players.
            name = f"{row.name} ({' / '.join(m['name'] for m in row.members)})"
        else:
            people = frozenset({row.participant_id})
        eligible = not (people & ineligible) and not getattr(row, "disqualified", False)
        out.append(
            Entry(
                key=row.key,
                rank=row.rank,
                name=name,
                eligible=eligible,
                people=people,
                club=row.club,
            )
        )
    return out


def _standing(competition, ref, label, standing, ineligible, group=False) -> Standing:
    return Standing(
        competition=competition,
        ref=str(ref),
        label=label,
        entries=_entries(standing.rows, ineligible, group),
        provisional=standing.provisional,
    )


def read_standings(
    event: Event,
    competitions: set[str],
    *,
    include_entered: bool,
    only_published: bool,
    categories: dict[str, str],
) -> tuple[list[Standing], dict[str, int], bool]:
    """The payout standings of the competitions a plan pays, the size of each field (for
    `places_beyond_field`) and whether any of them is provisional."""
    ineligible = _ineligible(event)
    kinds = [labels.INDIVIDUAL] + [
        GROUP_COMPETITIONS[c] for c in ("pairs", "teams") if c in competitions
    ]
    # Every scope from one read: the overall standings, each series' and each day's.
    inputs = standing_inputs(
        event,
        competitions=tuple(kinds),
        include_entered=include_entered,
        only_published=only_published,
    )
    overall = inputs.standings()
    individual = overall[labels.INDIVIDUAL]
    out = [_standing("overall", "", competition_label("overall"), individual, ineligible)]
    provisional = individual.provisional
    for competition in ("pairs", "teams"):
        if competition in competitions:
            standing = overall[GROUP_COMPETITIONS[competition]]
            provisional |= standing.provisional
            label = competition_label(competition)
            out.append(_standing(competition, "", label, standing, ineligible, group=True))
    only_individual = (labels.INDIVIDUAL,)
    if "series" in competitions:
        for s in individual.series:
            if s["kind"] != Series.Kind.REGULAR:
                continue
            number = s["number"]
            standing = inputs.standings(labels.SERIES, number, only_individual)[labels.INDIVIDUAL]
            provisional |= standing.provisional
            label = competition_label("series", str(number))
            out.append(_standing("series", number, label, standing, ineligible))
    if "day" in competitions:
        for day in individual.days:
            standing = inputs.standings(labels.DAY, day, only_individual)[labels.INDIVIDUAL]
            provisional |= standing.provisional
            label = competition_label("day", str(day))
            out.append(_standing("day", day, label, standing, ineligible))
    if "category" in competitions and category_standings is not None:
        for cat in category_standings(event, individual):
            ref = str(cat.category.id)
            out.append(
                Standing(
                    competition="category",
                    ref=ref,
                    label=categories.get(ref, cat.category.name),
                    entries=_entries(cat.rows, ineligible, False),
                    provisional=individual.provisional,
                )
            )
    sizes = {"overall": len(individual.rows)}
    for standing in out:
        key = standing.competition
        if key == "category":
            key = f"category:{standing.ref}"
        sizes[key] = max(sizes.get(key, 0), len(standing.entries))
    return out, sizes, provisional


def _prize_text(award: Award) -> str:
    if award.item:
        text = award.item
        if award.shared_item:
            text = _("%(item)s (tie: shared by %(count)d, the director decides)") % {
                "item": text,
                "count": award.tied_with,
            }
        return text
    shares = [line.share for line in award.lines if line.share is not None]
    if shares and len(award.lines) == 1:
        text = _("%(share)s %% of the pot") % {"share": _percent(shares[0])}
    else:
        text = _("Cash prize")
    if award.tied_with > 1:
        text = _("%(prize)s, places %(first)d–%(last)d shared by %(count)d") % {
            "prize": text,
            "first": award.place,
            "last": award.last_place,
            "count": award.tied_with,
        }
    return text


def _percent(value: Decimal) -> str:
    return formats.number_format(value.normalize(), use_l10n=True)


def _notes(result: Payout) -> list[str]:
    """The ties and empty places of the payout in words."""
    notes = []
    for tie in result.ties:
        notes.append(
            _(
                "%(standing)s, places %(first)d–%(last)d: %(count)d players tie and share "
                "%(total)s, each %(share)s; %(remainder)s cannot be divided (not paid)."
            )
            % {
                "standing": tie.standing.label,
                "first": tie.place,
                "last": tie.place + tie.tied_with - 1,
                "count": tie.tied_with,
                "total": format_euro(tie.total),
                "share": format_euro(tie.share),
                "remainder": format_euro(tie.remainder),
            }
        )
    for vacancy in result.vacancies:
        notes.append(
            _("%(standing)s, place %(place)d: nobody can take this prize (%(amount)s not paid).")
            % {
                "standing": vacancy.standing.label,
                "place": vacancy.line.place,
                "amount": format_euro(vacancy.amount),
            }
        )
    return notes


def prize_list(
    event: Event, *, include_entered: bool = True, only_published: bool = False
) -> PrizeList:
    """Who wins which prize: rows in the order of precedence, then place; the totals; the
    notes of the payout (ties, shared items) and the warnings of the plan (a place beyond
    the field). ``include_entered`` (the director) counts entered, unconfirmed sheets and
    then says VORLÄUFIG exactly as the standings; the public page passes
    ``include_entered=False, only_published=True``."""
    plan = plan_of(event)
    categories = category_names(event)
    if plan is None or not plan.prizes:
        return PrizeList(event=event, plan=plan, rows=[])
    lines = plan_lines(plan, categories)
    competitions = {line.competition for line in lines}
    standings, field_sizes, provisional = read_standings(
        event,
        competitions,
        include_entered=include_entered,
        only_published=only_published,
        categories=categories,
    )
    collected, _due = collected_fees(event)
    pot_amount = pot(collected, plan.costs)
    rules = Rules(one_prize_per_player=plan.one_prize_per_player, precedence=tuple(plan.precedence))
    result = hand_out(lines, standings, rules, pot_amount)
    order = {(s.competition, s.ref): n for n, s in enumerate(_in_precedence(standings, rules))}
    rows = [
        PrizeRow(
            place=a.place,
            name=a.entry.name,
            club=a.entry.club,
            standing=a.standing.label,
            prize=_prize_text(a),
            amount=a.amount,
            competition=a.standing.competition,
            order=order.get((a.standing.competition, a.standing.ref), 0),
            tied_with=a.tied_with,
            shared_item=a.shared_item,
        )
        for a in result.awards
    ]
    rows.sort(key=lambda r: (r.order, r.place, r.name))
    return PrizeList(
        event=event,
        plan=plan,
        rows=rows,
        paid=result.paid,
        planned=result.planned,
        pot=result.pot,
        left_over=result.left_over,
        remainder=result.remainder,
        unawarded=result.unawarded,
        collected=collected,
        costs=plan.costs,
        provisional=provisional,
        notes=_notes(result),
        warnings=beyond_field_warnings(lines, field_sizes, categories),
    )


def _in_precedence(standings, rules: Rules):
    rank = {c: n for n, c in enumerate(rules.precedence)}
    return sorted(standings, key=lambda s: rank.get(s.competition, len(rank)))


def beyond_field_warnings(lines, field_sizes: dict[str, int], categories) -> list[str]:
    """A warning for each line paying a place beyond its field (not refused: late entries
    may still come; the payout leaves such a place unawarded)."""
    out = []
    for number, line in places_beyond_field(lines, field_sizes):
        size = field_sizes.get(f"category:{line.ref}", field_sizes.get(line.competition, 0))
        out.append(
            _(
                "Line %(number)d (%(standing)s, place %(place)d): the field has only "
                "%(count)d entries, so nobody can take this place."
            )
            % {
                "number": number,
                "standing": competition_label(line.competition, line.ref, categories),
                "place": line.place,
                "count": size,
            }
        )
    return out


def amount_text(value) -> str:
    return format_euro(value)


def unpublished_series(event: Event) -> bool:
    """Whether a regular series of the event is not published yet: the public prize page
    then says VORLÄUFIG (its places may still change), one query."""
    return (
        Series.objects.filter(event=event, kind=Series.Kind.REGULAR, published=False)
        .order_by()
        .exists()
    )
