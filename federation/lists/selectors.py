"""What the members' ranking list and player card read: the newest RankingSnapshot of a
ranking (its `lines`, docs/federation.md, read through `federation.rankings.snapshots`), a
regional list ranked again by the rules (`rules.ranking.rerank`), and a player's official
results. A fixed number of queries each, however many lines the snapshot has."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext as _

from clubs.models import Player, fold_german
from federation.associations.models import Association
from federation.associations.permissions import can_manage
from federation.rankings.models import OfficialResult as OfficialRow
from federation.rankings.models import Ranking, RankingSnapshot, SnapshotLine
from federation.rankings.selectors import regions_of
from federation.rankings.snapshot_rows import shared_results, unpack
from federation.rankings.snapshots import (
    LazyLines,
    decorate,
    local_number,
    newest_snapshot,
    snapshot_lines,
)
from rules.ranking import PlayerLine, rerank


def regional(lines: list[dict], region_id: int) -> list[dict]:
    """The listed lines of one region with their rank among themselves, then the region's
    unlisted lines. The ranks come from the rules (`rerank`): the national rank is the
    rules' own order (value, events counted, best), so equal national ranks share."""
    proxies, by_player = [], {}
    for index, line in enumerate(lines):
        if region_id not in (line.get("regions") or ()):
            continue
        by_player[line["player"]] = line
        if line["listed"]:
            value = Fraction(line["value"] or 0)
            order = (line["rank"], 0, 0, index)  # order[:3] decides a shared rank
            proxies.append(
                PlayerLine(
                    line["player"],
                    None,
                    False,
                    line["hidden"],
                    value,
                    None,
                    (),
                    (),
                    (),
                    0,
                    "",
                    order,
                )
            )
    ranked = rerank(proxies, by_player.keys())
    out = [by_player[p.player] | {"rank": p.rank, "national_rank": by_player[p.player]["rank"]}
           for p in ranked]  # fmt: skip
    out += [line | {"national_rank": None} for line in by_player.values() if not line["listed"]]
    return out


SORTS = {
    "name": lambda ln: (fold_german(ln["name"]),),
    "club": lambda ln: (fold_german(ln["club"] or ""), fold_german(ln["name"])),
    "events": lambda ln: (-ln["events_counted"], ln["rank"] or 0),
}
# The same orders on SnapshotLine's columns (a stable sort keeps the list's order on ties).
SORT_COLUMNS = {
    "name": ("sort_name",),
    "club": ("sort_club", "sort_name"),
    "events": ("-events_counted", "rank"),
}


@dataclass
class ListPage:
    ranking: Ranking
    snapshot: RankingSnapshot | None
    regions: list[Association]
    region: Association | None
    listed: list[dict] = field(default_factory=list)
    unlisted: list[dict] = field(default_factory=list)
    can_manage: bool = False

    @property
    def empty(self) -> bool:
        return not (self.listed or self.unlisted)


class UnknownRegion(ValueError):
    """A ?region= that is not one of the ranking's regions."""


def ranking_list(
    user,
    ranking: Ranking,
    region_id=None,
    sort: str = "",
    *,
    results: bool = True,
    lazy: bool = False,
) -> ListPage:
    """The newest list, national or of one region (`UnknownRegion` for another id). Four
    queries: snapshot, its lines, regions, the role (cached per request; `user` None: a
    print). ``results=False``: the lines without their results (a page adds them for the
    lines it shows, `add_results`). ``lazy``: a national list's listed lines as
    `LazyLines` (a page reads its slice; the unlisted ones are read at once)."""  # fmt: skip
    regions = regions_of(ranking)
    region = None
    if region_id not in (None, ""):
        region = next((r for r in regions if str(r.pk) == str(region_id)), None)
        if region is None:
            raise UnknownRegion(region_id)
    snapshot = newest_snapshot(ranking)
    manage = user is not None and can_manage(user, ranking.association)
    if lazy and region is None and snapshot is not None:
        listed = LazyLines(snapshot, listed=True)
        if sort in SORT_COLUMNS:
            listed.order_by(*SORT_COLUMNS[sort])
        unlisted = [decorate(line) for line in LazyLines(snapshot, listed=False)._rows()
                    .values_list("line", flat=True)]  # fmt: skip
        return ListPage(ranking, snapshot, regions, region, listed, unlisted, manage)
    lines = snapshot_lines(snapshot, region and region.pk, results=results)
    if region is not None:
        lines = regional(lines, region.pk)
    lines = [decorate(line) for line in lines]
    listed = [ln for ln in lines if ln["listed"]]
    unlisted = [ln for ln in lines if not ln["listed"]]
    if sort in SORTS:  # the snapshot's own order is by rank
        listed.sort(key=SORTS[sort])
    return ListPage(ranking, snapshot, regions, region, listed, unlisted, manage)


# ----- the player card --------------------------------------------------------------------


@dataclass
class OfficialResult:
    event_id: int
    event_name: str
    club: str
    date: dt.date
    ranking: str
    event_class: str
    place: int | None
    field: int
    version: int
    in_this_list: bool


@dataclass
class PlayerCard:
    ranking: Ranking
    snapshot: RankingSnapshot | None
    player: Player
    line: dict | None
    official: list[OfficialResult]
    can_manage: bool = False

    @property
    def name(self) -> str:
        return (
            self.line["name"]
            if self.line
            else f"{self.player.given_name} {self.player.family_name}"
        )


def official_results(player: Player, ranking: Ranking | None = None) -> list[OfficialResult]:
    """Every approved event version of any ranking with the player, newest first, outside
    the ranking's window too (one query on the rows the computations write)."""
    rows = (
        OfficialRow.objects.filter(player=player)
        .select_related("version__status__event__club", "version__status__ranking")
        .order_by("-date", "-version__status__event_id", "version__status__ranking__name")
    )
    out = []
    for row in rows:
        version = row.version
        status, event = version.status, version.status.event
        out.append(
            OfficialResult(
                event_id=event.pk,
                event_name=event.name,
                club=event.club.short_name if event.club_id else "",
                date=event.start_date,
                ranking=status.ranking.name,
                event_class=status.get_event_class_display(),
                place=row.place,
                field=version.field_size,
                version=version.number,
                in_this_list=ranking is not None and status.ranking_id == ranking.pk,
            )
        )
    return out


def player_card(user, ranking: Ranking, player_id: int) -> PlayerCard | None:
    """The player's line in the newest list and their official results; None when the
    player is neither in the list nor has an approved result (the page answers 404)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return None
    snapshot = newest_snapshot(ranking)
    line = None
    row = (
        SnapshotLine.objects.filter(snapshot=snapshot, player=player.pk)
        .values_list("line", shared_results())
        .first()
        if snapshot
        else None
    )
    if row is not None:
        line = decorate(row[0] | {"results": unpack(row[1], snapshot.events)})
        line["results"] = [r | {"points_text": local_number(r["points"]),
                                "day": dt.date.fromisoformat(r["date"]),
                                "reason_text": _(r["reason"]) if r["reason"] else ""}
                           for r in line["results"]]  # fmt: skip
    official = official_results(player, ranking)
    if line is None and not official:
        return None
    manage = user is not None and can_manage(user, ranking.association)
    return PlayerCard(ranking, snapshot, player, line, official, manage)
