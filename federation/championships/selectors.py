"""The qualification list of a championship: the newest snapshot of its ranking through
`rules.qualification.qualify` (title holders, the places of each regional
association with its cut line, wildcards, reserves in order, the explanation lines in
German). Seven queries however long the list is: every line's rank, region and flags as
columns, then the lines of the players the page names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from django.utils.translation import gettext as _

from federation.associations.models import Association
from federation.associations.permissions import can_manage
from federation.championships.models import Championship, Wildcard
from federation.rankings.models import RankingSnapshot, SnapshotLine
from federation.rankings.selectors import regions_of
from federation.rankings.snapshots import local_number, newest_snapshot
from rules.qualification import Wildcard as RuleWildcard
from rules.qualification import qualify
from rules.ranking import RankingError


@dataclass
class Entry:
    player: int
    name: str
    club: str
    rank: int | None
    value: str
    hidden: bool = False
    note: str = ""
    tied: bool = False

    @property
    def value_text(self) -> str:
        return local_number(self.value)


@dataclass
class RegionBlock:
    region: Association
    quota: int
    taken: int
    cut_rank: int | None
    qualified: list[Entry] = field(default_factory=list)
    reserves: list[Entry] = field(default_factory=list)


@dataclass
class QualificationPage:
    championship: Championship
    snapshot: RankingSnapshot | None
    regions: list[Association]
    titles: list[Entry] = field(default_factory=list)
    blocks: list[RegionBlock] = field(default_factory=list)
    wildcards: list[Entry] = field(default_factory=list)
    unused: list[Entry] = field(default_factory=list)
    reserves: list[Entry] = field(default_factory=list)  # all, in ranking order
    explanations: list[str] = field(default_factory=list)
    wildcard_rows: list[Wildcard] = field(default_factory=list)
    error: str = ""
    can_manage: bool = False

    @property
    def qualified_count(self) -> int:
        return len(self.titles) + sum(len(b.qualified) for b in self.blocks) + len(self.wildcards)


def quota_of(championship: Championship, regions: list[Association]):
    """One number for all regions, or {region id: places} with the exceptions."""
    if not championship.region_places:
        return championship.places_per_region
    return {r.pk: _places(championship, r) for r in regions}


def _places(championship: Championship, region: Association) -> int:
    return int(championship.region_places.get(str(region.pk), championship.places_per_region))


class _Line(NamedTuple):
    """A listed line as qualification reads it (`rules.qualification.Listed`)."""

    player: int
    rank: int | None


def _proxies(rows) -> list[_Line]:
    """The listed lines (rows of player, rank, listed, region in the snapshot's order) in
    that (the rules') order: qualification goes by rank and order only. A tuple each, not a
    `PlayerLine`: 10,000 of those took 16-18 ms of the selector's 55-63 ms (bench)."""
    return [_Line(player, rank) for player, rank, listed, _region in rows if listed]


def _named(result) -> set:
    """Every player the page names: qualifiers, reserves, unused wildcards, and those the
    explanations name."""
    out = {q.player for q in result.qualified} | {r.player for r in result.reserves}
    out |= {c.player for c in result.unused_wildcards}
    return out | {line.params["player"] for line in result.explanations if "player" in line.params}


def qualification_page(user, championship: Championship) -> QualificationPage:
    ranking = championship.ranking
    regions = regions_of(ranking)
    snapshot = newest_snapshot(ranking)
    titles = list(championship.title_holders.all())
    cards = list(championship.wildcards.select_related("player", "granted_by"))
    page = QualificationPage(
        championship, snapshot, regions, wildcard_rows=cards,
        can_manage=user is not None and can_manage(user, ranking.association),
    )  # fmt: skip
    # What qualification needs of every line as plain columns (10,000 lines: no JSON); the
    # lines of the players the page names are read after qualifying (one more query).
    rows = (
        SnapshotLine.objects.filter(snapshot=snapshot).order_by("position")
        .values_list("player", "rank", "listed", "region")
    )  # fmt: skip
    rows = list(rows) if snapshot is not None else []
    by_player: dict = {}
    region_ids = {r.pk for r in regions}
    names = {r.pk: r.name for r in regions}
    people = {p.pk: p for p in titles} | {c.player_id: c.player for c in cards}

    def entry(player, rank=None, note="", tied=False) -> Entry:
        line = by_player.get(player)
        if line is None:
            person = people.get(player)
            name = f"{person.given_name} {person.family_name}" if person else str(player)
            return Entry(player, name, "", None, "", note=note)
        return Entry(
            player, line["name"], line["club"], line["rank"] if rank is None else rank,
            line["value"], line["hidden"], note, tied,
        )  # fmt: skip

    # A line's region: its club's regional association on the ranking date (the row's).
    regions_map = {row[0]: row[3] for row in rows if row[3] in region_ids}
    try:
        result = qualify(
            _proxies(rows),
            regions_map,
            quota_of(championship, regions),
            title_holders=[p.pk for p in titles],
            wildcards=[RuleWildcard(c.player_id, c.reason) for c in cards],
            reserves=championship.reserves_per_region,
        )
    except RankingError as error:
        page.error = error.message(_)
        return page

    def show(name, value):
        if name == "region":
            return names.get(value, str(value))
        if name == "player":
            return entry(value).name
        return str(value)

    named = _named(result)
    if named:
        found = SnapshotLine.objects.filter(snapshot=snapshot, player__in=named)
        by_player = {line["player"]: line for line in found.values_list("line", flat=True)}
    page.explanations = [line.text(_, show) for line in result.explanations]
    page.titles = [
        entry(q.player, note=_("title holder")) for q in result.qualified if q.way == "title"
    ]
    page.wildcards = [
        entry(q.player, note=q.reason) for q in result.qualified if q.way == "wildcard"
    ]
    page.unused = [entry(c.player, note=c.reason) for c in result.unused_wildcards]
    cuts = {cut.region: cut for cut in result.cuts}
    for region in regions:
        ins, outs = result.region(region.pk)
        cut = cuts.get(region.pk)
        # a region without listed players has no cut in the rules' answer
        quota = cut.quota if cut else _places(championship, region)
        block = RegionBlock(
            region, quota, cut.taken if cut else 0, cut.last.rank if cut and cut.last else None
        )
        block.qualified = [entry(q.player, tied=q.tied) for q in ins]
        block.reserves = [entry(r.player, note=str(r.position)) for r in outs]
        page.blocks.append(block)
    page.reserves = [
        entry(r.player, note=f"{names.get(r.region, '')} {r.position}") for r in result.reserves
    ]
    return page
