"""What the members' ranking list and player card read: the newest RankingSnapshot of a
ranking (its `lines`, docs/federation.md), a regional list ranked again by the rules
(`rules.ranking.rerank`), and a player's official results. A fixed number of
queries each, however many lines the snapshot has."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db.models import Q
from django.utils import formats
from django.utils.translation import gettext as _

from clubs.models import Player, fold_german
from rules.ranking import PlayerLine, rerank

from .models import Association, Ranking, RankingSnapshot
from .permissions import can_manage
from .ranking_models import OfficialResult as OfficialRow
from .ranking_models import SnapshotLine
from .snapshot_rows import read_lines, unpack


def newest_snapshot(ranking: Ranking) -> RankingSnapshot | None:
    return RankingSnapshot.objects.filter(ranking=ranking).order_by("-number").first()


def snapshot_lines(snapshot, region_id=None, *, results: bool = True) -> list[dict]:
    """The snapshot's lines in its order, all or those of one region's clubs, with or
    without their results (one query on its rows)."""
    if snapshot is None:
        return []
    if results:
        rows = read_lines(SnapshotLine, snapshot.pk, region_id, results=True)
        return [line | {"results": unpack(found, snapshot.events)} for line, found in rows]
    return read_lines(SnapshotLine, snapshot.pk, region_id)


def add_results(snapshot, lines: list[dict], region_id=None) -> None:
    """What a page shows of the results (`results_text`, `dropped`) added to `lines` read
    without them: one query for these lines and every unlisted one (the region's)."""
    if snapshot is None:
        return
    unlisted = Q(listed=False) & (Q() if region_id is None else Q(region=region_id))
    rows = SnapshotLine.objects.filter(
        Q(player__in=[ln["player"] for ln in lines if ln["listed"]]) | unlisted,
        snapshot=snapshot,
    )
    found = dict(rows.values_list("player", "results"))
    for line in lines:
        line.update(results_fields(unpack(found.get(line["player"], []), snapshot.events)))


def regions_of(ranking: Ranking) -> list[Association]:
    """The regional associations a list of this ranking can be cut to: those below a
    national association, or the regional association itself (one query)."""
    association = ranking.association
    return list(
        Association.objects.filter(Q(parent_id=association.pk) | Q(pk=association.pk))
        .filter(kind=Association.Kind.REGIONAL)
        .order_by("name")
    )


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


def results_text(results: list[dict]) -> str:
    """Counted points, the dropped ones in brackets: "24 · 20 · (12)"."""
    counted = [r["points"] for r in results if r["counted"]]
    dropped = [f"({r['points']})" for r in results if not r["counted"] and r["reason"]]
    return " · ".join(counted + dropped)


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def local_number(text: str) -> str:
    """The decimal numbers in a stored text in the reader's language ("123,5" in German,
    "123.5" in English); never used inside inputs, SVG or CSS."""
    return _NUMBER.sub(lambda m: formats.number_format(Decimal(m.group())), text or "")


def results_fields(results: list[dict]) -> dict:
    return {
        "results_text": local_number(results_text(results)),
        "dropped": sum(1 for r in results if not r["counted"] and r["reason"]),
    }


def decorate(line: dict) -> dict:
    """A line with what the page and print show beside the stored values (of the results
    only when the line has them: `add_results` adds them later)."""
    out = line | {
        "value_text": local_number(line["value"]),
        "reason_text": _(line["reason"]) if line["reason"] else "",
    }
    if "results" in line:
        out.update(results_fields(line["results"]))
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


class LazyLines:
    """A snapshot's lines (the listed ones, the unlisted or all) decorated, in its order, for
    a page that shows a slice of them: a count and the slice's rows are read (two queries);
    all of them only when sorted (`sort`, as django-tables2 and the ranking page do).
    ``prepare`` turns decorated lines into what the page shows (a table's rows)."""

    def __init__(self, snapshot, listed: bool | None = True, prepare=None):
        self.snapshot, self.listed, self.prepare = snapshot, listed, prepare or (lambda x: x)
        self._all: list | None = None
        self._count: int | None = None
        self._order: tuple[str, ...] = ()

    def _rows(self):
        rows = SnapshotLine.objects.filter(snapshot=self.snapshot)
        rows = rows.order_by(*self._order, "position")
        return rows if self.listed is None else rows.filter(listed=self.listed)

    def order_by(self, *columns: str) -> None:
        """Ordered by SnapshotLine's columns (each ascending or "-" descending), then the
        list's own order: the page's slice is read in that order, nothing sorted here."""
        self._order, self._all = tuple(columns), None

    def __len__(self) -> int:
        if self._all is not None:
            return len(self._all)
        if self._count is None:
            self._count = self._rows().count()
        return self._count

    def __getitem__(self, key):
        if self._all is not None:
            return self._all[key]
        if not isinstance(key, slice):
            return self[key : key + 1][0]
        found = self._rows().values_list("line", flat=True)[key]
        return self.prepare([decorate(line) for line in found])

    def __iter__(self):
        return iter(self.everything())

    def everything(self) -> list:
        if self._all is None:
            if self._order:
                chosen = list(self._rows().values_list("line", flat=True))
            else:
                lines = read_lines(SnapshotLine, self.snapshot.pk)
                chosen = [ln for ln in lines if self.listed is None or ln["listed"] == self.listed]
            self._all = self.prepare([decorate(line) for line in chosen])
        return self._all

    def sort(self, key, reverse: bool = False) -> None:
        self.everything().sort(key=key, reverse=reverse)


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
        .values_list("line", "results")
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
