"""What the members' ranking list and player card read: the newest RankingSnapshot of a
ranking (its `lines`, docs/federation.md), a regional list ranked again by the rules
(`scoring.rules.ranking.rerank`), and a player's official results. A fixed number of
queries each, however many lines the snapshot has."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import Player
from scoring.rules.ranking import PlayerLine, rerank

from .models import Association, EventVersion, Ranking, RankingSnapshot
from .permissions import can_manage


def newest_snapshot(ranking: Ranking) -> RankingSnapshot | None:
    return RankingSnapshot.objects.filter(ranking=ranking).order_by("-number").first()


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


def german(number: str) -> str:
    """A decimal string as German text ("123,5"); never used inside inputs, SVG or CSS."""
    return (number or "").replace(".", ",")


def decorate(line: dict) -> dict:
    """A line with what the page and print show beside the stored values."""
    return line | {
        "value_text": german(line["value"]),
        "results_text": german(results_text(line["results"])),
        "dropped": sum(1 for r in line["results"] if not r["counted"] and r["reason"]),
        "reason_text": _(line["reason"]) if line["reason"] else "",
    }


SORTS = {
    "name": lambda ln: (ln["name"].casefold(),),
    "club": lambda ln: (ln["club"].casefold(), ln["name"].casefold()),
    "events": lambda ln: (-ln["events_counted"], ln["rank"] or 0),
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


def ranking_list(user, ranking: Ranking, region_id=None, sort: str = "") -> ListPage:
    """The newest list, national or of one region (`UnknownRegion` for another id). Three
    queries: snapshot, regions, the role (cached per request; `user` None: a print)."""
    regions = regions_of(ranking)
    region = None
    if region_id not in (None, ""):
        region = next((r for r in regions if str(r.pk) == str(region_id)), None)
        if region is None:
            raise UnknownRegion(region_id)
    snapshot = newest_snapshot(ranking)
    lines = list(snapshot.lines) if snapshot else []
    if region is not None:
        lines = regional(lines, region.pk)
    lines = [decorate(line) for line in lines]
    listed = [ln for ln in lines if ln["listed"]]
    unlisted = [ln for ln in lines if not ln["listed"]]
    if sort in SORTS:  # the snapshot's own order is by rank
        listed.sort(key=SORTS[sort])
    manage = user is not None and can_manage(user, ranking.association)
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
    """Every approved event version of any ranking with the player, newest first (one
    query: the events the player was registered for, the place read from the version)."""
    versions = (
        EventVersion.objects.filter(
            state=EventVersion.State.APPROVED, status__event__participants__player=player
        )
        .select_related("status__event__club", "status__ranking")
        .order_by("-status__event__start_date", "-status__event_id", "status__ranking__name")
        .distinct()
    )
    out = []
    for version in versions:
        status, event = version.status, version.status.event
        row = next((r for r in version.results if r.get("player") == player.pk), None)
        if row is None:
            continue  # registered, but not in the results (no hand played)
        out.append(
            OfficialResult(
                event_id=event.pk,
                event_name=event.name,
                club=event.club.short_name if event.club_id else "",
                date=event.start_date,
                ranking=status.ranking.name,
                event_class=status.get_event_class_display(),
                place=row.get("place"),
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
    for candidate in snapshot.lines if snapshot else ():
        if candidate["player"] == player.pk:
            line = decorate(candidate)
            line["results"] = [r | {"points_text": german(r["points"]),
                                    "day": dt.date.fromisoformat(r["date"]),
                                    "reason_text": _(r["reason"]) if r["reason"] else ""}
                               for r in line["results"]]  # fmt: skip
            break
    official = official_results(player, ranking)
    if line is None and not official:
        return None
    manage = user is not None and can_manage(user, ranking.association)
    return PlayerCard(ranking, snapshot, player, line, official, manage)
