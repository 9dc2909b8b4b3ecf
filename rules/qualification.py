"""Who qualifies for a championship from a ranking list (pure Python). docs/rules.md
"Ranglisten (Verband)" states the rules:

1. Title holders qualify directly (in the order given) and take none of their regional
   association's places, listed in the ranking or not.
2. Each regional association's places (`quota`: one number for all, or per region) go to
   its listed players in ranking order, title holders left out. A tie at the cut line is
   first broken by the ranking's own order (more events counted, then the better best
   result); players who still share the rank of the last place all qualify (the region
   then takes more than its places; an explanation line says so). Players without a
   regional association take no region's place.
3. The officer's wildcards (each with a reason) qualify in addition; a wildcard for a
   player who already qualifies (title or place) is not used and is listed as such.
4. Reserves: per region the next `reserves` listed players after its cut line (None: all),
   in ranking order; the list of all reserves is in ranking order, each with its position
   in its region (the first reserve of the same region moves up first).

Qualified players are listed title holders first, then the regions' qualifiers in ranking
order, then wildcards. Messages and explanation lines are msgids with parameters
(`Explanation.text(gettext, show)` on the page).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .ranking import Ranking
from .ranking_settings import MAX_COUNT, Explanation, RankingError, _whole, gettext_noop


class Listed(Protocol):
    """What qualification reads of a listed line: its player and rank. A `PlayerLine`, or
    anything lighter with both (a list of 10,000 lines read as columns: the federation's
    qualification page)."""

    @property
    def player(self) -> Hashable: ...

    @property
    def rank(self) -> int | None: ...


TITLE, REGION, WILDCARD = "title", "region", "wildcard"

QUALIFICATION_ERRORS: dict[str, str] = {
    "qualification.quota": gettext_noop(
        "The places per regional association must be whole numbers from 0 to %(max)s."
    ),
    "qualification.reserves": gettext_noop(
        "The number of reserves per regional association must be a whole number from 0 to "
        "%(max)s, or empty for all."
    ),
    "qualification.title-twice": gettext_noop("Player %(player)s is named twice as title holder."),
    "qualification.wildcard-twice": gettext_noop("Player %(player)s has two wildcards."),
    "qualification.wildcard-reason": gettext_noop(
        "The wildcard for player %(player)s needs a reason."
    ),
}

EXPLANATIONS: dict[str, str] = {
    "quota": gettext_noop(
        "The best %(quota)s listed players of each regional association qualify."
    ),
    "quota-each": gettext_noop(
        "Each regional association has its own number of places (below, with its cut line)."
    ),
    "title": gettext_noop(
        "Title holders qualify directly and take none of their regional association's places."
    ),
    "wildcard": gettext_noop(
        "Wildcards of the ranking officer qualify in addition, each with its reason; a wildcard "
        "for a player who already qualifies is not used."
    ),
    "ties": gettext_noop(
        "A tie at the cut line is broken by the ranking's order (more events counted, then the "
        "better best result); players who still share the rank of the last place all qualify."
    ),
    "reserves": gettext_noop(
        "Reserves move up in ranking order, the next reserve of the same regional association "
        "first."
    ),
    "region": gettext_noop(
        "%(region)s: %(taken)s of %(quota)s places, cut line after rank %(rank)s."
    ),
    "region-tied": gettext_noop(
        "%(region)s: %(tied)s players share rank %(rank)s at the cut line, so %(taken)s players "
        "qualify for %(quota)s places."
    ),
    "region-short": gettext_noop("%(region)s: only %(taken)s listed players for %(quota)s places."),
    "wildcard-unused-title": gettext_noop(
        "The wildcard for %(player)s is not used: the player qualifies as title holder."
    ),
    "wildcard-unused-region": gettext_noop(
        "The wildcard for %(player)s is not used: the player qualifies through %(region)s."
    ),
    "no-region": gettext_noop(
        "Listed players without a regional association of this championship (%(count)s) take "
        "no region's place."
    ),
}


def _error(code: str, **params) -> RankingError:
    return RankingError(code, QUALIFICATION_ERRORS[code], None, **params)


def _explain(code: str, **params) -> Explanation:
    return Explanation(f"qualification.{code}", EXPLANATIONS[code], params)


@dataclass(frozen=True)
class Wildcard:
    player: Hashable
    reason: str


@dataclass(frozen=True)
class Qualifier:
    """A qualified player: `way` is "title", "region" or "wildcard"; `line` the ranking line
    (None: not in the ranking); `tied`: the region takes more than its places because of
    a tie at the cut line, and this player shares the rank of the last one in."""

    player: Hashable
    way: str
    region: Hashable | None
    line: Listed | None
    reason: str = ""
    tied: bool = False

    @property
    def rank(self) -> int | None:
        return self.line.rank if self.line else None


@dataclass(frozen=True)
class Reserve:
    player: Hashable
    region: Hashable
    position: int  # 1: the region's first reserve
    line: Listed


@dataclass(frozen=True)
class RegionCut:
    """One region's cut line: `quota` places, `taken` players qualify through them (more
    with a tie at the line, fewer when too few are listed); `last` the last one in."""

    region: Hashable
    quota: int
    taken: int
    last: Listed | None
    tied: int = 0  # players sharing the last place's rank among those in (1: no tie)

    @property
    def short(self) -> bool:
        return self.taken < self.quota


@dataclass(frozen=True)
class Qualification:
    qualified: tuple[Qualifier, ...]
    cuts: tuple[RegionCut, ...]
    reserves: tuple[Reserve, ...]
    unused_wildcards: tuple[Wildcard, ...]
    explanations: tuple[Explanation, ...] = field(default=())

    def region(self, region: Hashable) -> tuple[tuple[Qualifier, ...], tuple[Reserve, ...]]:
        """The region's qualifiers through its places and its reserves, in order."""
        return (
            tuple(q for q in self.qualified if q.way == REGION and q.region == region),
            tuple(r for r in self.reserves if r.region == region),
        )


def _key_order(key) -> tuple:
    if isinstance(key, int) and not isinstance(key, bool):
        return (0, key, "")
    return (1, 0, str(key))


def qualify(
    ranking: Ranking | Sequence[Listed],
    regions: Mapping[Hashable, Hashable],
    quota: int | Mapping[Hashable, int],
    *,
    title_holders: Iterable[Hashable] = (),
    wildcards: Iterable[Wildcard] = (),
    reserves: int | None = 3,
) -> Qualification:
    """The qualification list (module docstring). `ranking`: a Ranking, or its listed lines
    in order; `regions`: player -> regional association; `quota`: places per region (one
    number, or per region: a region missing there has none); `reserves` per region."""
    if isinstance(ranking, Ranking):
        lines, lookup = ranking.lines, ranking.line
    else:
        lines = tuple(ranking)
        by_player = {ln.player: ln for ln in lines}
        lookup = by_player.get
    if isinstance(quota, Mapping):
        if not all(_whole(q, 0, MAX_COUNT) for q in quota.values()):
            raise _error("qualification.quota", max=MAX_COUNT)
        order = list(quota)
        places = dict(quota)
    else:
        if not _whole(quota, 0, MAX_COUNT):
            raise _error("qualification.quota", max=MAX_COUNT)
        order = sorted({r for r in regions.values() if r is not None}, key=_key_order)
        places = dict.fromkeys(order, quota)
    if reserves is not None and not _whole(reserves, 0, MAX_COUNT):
        raise _error("qualification.reserves", max=MAX_COUNT)

    titles: list[Qualifier] = []
    for player in title_holders:
        if any(q.player == player for q in titles):
            raise _error("qualification.title-twice", player=player)
        titles.append(Qualifier(player, TITLE, regions.get(player), lookup(player)))
    cards: list[Wildcard] = []
    for card in wildcards:
        if not str(card.reason).strip():
            raise _error("qualification.wildcard-reason", player=card.player)
        if any(c.player == card.player for c in cards):
            raise _error("qualification.wildcard-twice", player=card.player)
        cards.append(card)

    is_title = {q.player for q in titles}
    candidates: dict = {r: [] for r in order}
    no_region = 0
    for index, ln in enumerate(lines):
        if ln.player in is_title:
            continue
        region = regions.get(ln.player)
        if region is None:
            no_region += 1
        elif region in candidates:
            candidates[region].append((index, ln))

    by_quota: list[tuple[int, Qualifier]] = []
    rest: dict = {}
    cuts = []
    notes = []
    for region in order:
        these, quota_here = candidates[region], places[region]
        taken = min(quota_here, len(these))
        while 0 < taken < len(these) and these[taken][1].rank == these[taken - 1][1].rank:
            taken += 1  # a tie at the cut line: all who share the last place's rank are in
        last = these[taken - 1][1] if taken else None
        tied = sum(1 for _, ln in these[:taken] if ln.rank == last.rank) if last else 0
        cuts.append(RegionCut(region, quota_here, taken, last, tied))
        over = taken > quota_here
        for index, ln in these[:taken]:
            at_line = over and ln.rank == last.rank
            by_quota.append((index, Qualifier(ln.player, REGION, region, ln, tied=at_line)))
        rest[region] = these[taken:]
        if taken > quota_here:
            notes.append(
                _explain(
                    "region-tied",
                    region=region,
                    tied=tied,
                    rank=last.rank,
                    taken=taken,
                    quota=quota_here,
                )
            )
        elif taken < quota_here:
            notes.append(_explain("region-short", region=region, taken=taken, quota=quota_here))
        elif taken:
            notes.append(
                _explain("region", region=region, taken=taken, quota=quota_here, rank=last.rank)
            )

    in_region = {q.player: q.region for _, q in by_quota}
    extra, unused = [], []
    for card in cards:
        if card.player in is_title:
            unused.append(card)
            notes.append(_explain("wildcard-unused-title", player=card.player))
        elif card.player in in_region:
            unused.append(card)
            notes.append(
                _explain(
                    "wildcard-unused-region", player=card.player, region=in_region[card.player]
                )
            )
        else:
            extra.append(
                Qualifier(
                    card.player,
                    WILDCARD,
                    regions.get(card.player),
                    lookup(card.player),
                    card.reason,
                )
            )

    # reserves: the next after each cut line, wildcards taken out (they are in already)
    waiting: list[tuple[int, Reserve]] = []
    carded = {q.player for q in extra}
    for region in order:
        left = [(i, ln) for i, ln in rest[region] if ln.player not in carded]
        for position, (index, ln) in enumerate(left[:reserves], 1):
            waiting.append((index, Reserve(ln.player, region, position, ln)))

    rules = [
        _explain("quota-each") if isinstance(quota, Mapping) else _explain("quota", quota=quota),
        _explain("title"),
        _explain("wildcard"),
        _explain("ties"),
        _explain("reserves"),
    ]
    if no_region:
        notes.append(_explain("no-region", count=no_region))
    by_quota.sort(key=lambda pair: pair[0])
    waiting.sort(key=lambda pair: pair[0])
    return Qualification(
        qualified=(*titles, *(q for _, q in by_quota), *extra),
        cuts=tuple(cuts),
        reserves=tuple(r for _, r in waiting),
        unused_wildcards=tuple(unused),
        explanations=(*rules, *notes),
    )
