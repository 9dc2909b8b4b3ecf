"""Reads of the public federation pages and the JSON API (issue 27, points 5 and 6): the
calendar of sanctioned events, the archive of approved events, the public ranking lists and
player cards, all from the newest RankingSnapshot of a public ranking.

Privacy (DSGVO): what leaves here is built field by field from a whitelist (name, club,
results; never birth year, PIN or player number). A hidden line keeps its rank and points and
loses its name, club, player id and results.

A snapshot of 10,000 lines with their results is tens of megabytes; its lines are rows
(`SnapshotLine`), so a list page reads one page of them and a card one row."""

from __future__ import annotations

import datetime as dt
import zlib
from dataclasses import dataclass, field

import orjson
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from federation.associations.models import Association
from federation.rankings.models import (
    EventVersion,
    OfficialResult,
    Ranking,
    RankingSnapshot,
    RankingStatus,
    SnapshotLine,
)
from federation.rankings.public_lines import public_line
from federation.rankings.snapshot_rows import read_lines, shared_results, unpack
from tournaments.models import Event, Series

SANCTIONED = (
    RankingStatus.State.GRANTED,
    RankingStatus.State.SUBMITTED,
    RankingStatus.State.APPROVED,
)
PAST_DAYS = 400  # the calendar's past: a little over a year
CALENDAR_CAP = 300
LINES_SECONDS = 6 * 3600  # old snapshots' entries are never read again


# --------------------------------------------------------------------------- rankings


@dataclass(frozen=True)
class RankingState:
    """What keys a cached answer: the ranking, its newest snapshot and what the page names."""

    pk: int
    name: str
    association_id: int
    association_name: str
    association_kind: str
    created_at: dt.datetime
    snapshot_id: int | None
    number: int
    computed_at: dt.datetime | None
    # The newest snapshot of any ranking: the official results on a card change with it.
    latest_snapshot_id: int | None = None

    @property
    def stamp(self) -> str:
        """Part of a cache key: changes with a new snapshot, a rename or a rebuilt database."""
        created = int(self.created_at.timestamp() * 1_000_000)
        names = zlib.crc32(f"{self.name}\n{self.association_name}".encode())
        return f"{self.pk}:{created}:{self.number}:{names}"

    def as_cache_state(self) -> tuple:
        """(version, changed, created) as scoring.standings.public keys its answers."""
        return (self.number, self.computed_at, self.created_at)


def ranking_state(pk) -> RankingState | None:
    """One query: a public ranking and its newest snapshot's number; None if not public."""
    newest = RankingSnapshot.objects.filter(ranking=OuterRef("pk")).order_by("-number")
    row = (
        Ranking.objects.filter(pk=pk, public=True)
        .annotate(
            snap_id=Subquery(newest.values("pk")[:1]),
            snap_number=Subquery(newest.values("number")[:1]),
            snap_at=Subquery(newest.values("computed_at")[:1]),
            latest=Subquery(RankingSnapshot.objects.order_by("-pk").values("pk")[:1]),
        )
        .values_list(
            "pk",
            "name",
            "association_id",
            "association__name",
            "association__kind",
            "created_at",
            "snap_id",
            "snap_number",
            "snap_at",
            "latest",
        )
        .first()
    )
    if row is None:
        return None
    pk, name, assoc, assoc_name, kind, created, snap_id, number, at, latest = row
    return RankingState(
        pk, name, assoc, assoc_name, kind, created, snap_id, number or 0, at, latest
    )


def ranking_regions(state: RankingState) -> list[Association]:
    """The regional associations a national ranking is split into (none for a regional one)."""
    if state.association_kind != Association.Kind.NATIONAL:
        return []
    return list(Association.objects.filter(parent_id=state.association_id).order_by("name"))


def public_rankings() -> list[dict]:
    """Every public ranking with its association and newest snapshot (two queries)."""
    newest = RankingSnapshot.objects.filter(ranking=OuterRef("pk")).order_by("-number")
    rankings = list(
        Ranking.objects.filter(public=True)
        .select_related("association")
        .annotate(
            snap_number=Subquery(newest.values("number")[:1]),
            snap_at=Subquery(newest.values("computed_at")[:1]),
            snap_as_of=Subquery(newest.values("as_of")[:1]),
        )
        .order_by("association__kind", "association__name", "name")
    )
    national = [r.association_id for r in rankings if r.association.kind == "national"]
    regions: dict[int, list[Association]] = {}
    for region in Association.objects.filter(parent_id__in=national).order_by("name"):
        regions.setdefault(region.parent_id, []).append(region)
    return [{"ranking": r, "regions": regions.get(r.association_id, [])} for r in rankings]


def snapshot_lines(state: RankingState) -> list[dict]:
    """The lines of the newest snapshot without their results, in the snapshot's order (one
    query on its rows); kept in the shared cache, so the JSON's regions and languages read
    the rows once between them (a snapshot never changes: its key is its number)."""
    if state.snapshot_id is None:
        return []
    key = f"fedpub:lines:{state.stamp}:{state.snapshot_id}"
    lines = cache.get(key)
    if lines is None:
        lines = read_lines(SnapshotLine, state.snapshot_id)
        cache.set(key, lines, LINES_SECONDS)
    return lines


def lines_page(state: RankingState, region_id: int | None, number, size: int):
    """One page of the newest snapshot's lines without results, national or of one region
    (with ``region_rank``): a count and one page of rows, however long the list."""
    rows = SnapshotLine.objects.filter(snapshot_id=state.snapshot_id).order_by("position")
    if region_id is not None:
        rows = rows.filter(region=region_id)
    found = rows.values_list("line", "region_rank")
    page = Paginator(_Numbered(found) if region_id is None else found, size).get_page(number)
    if region_id is None:
        page.object_list = [line for line, _rank in page.object_list]
    else:
        page.object_list = [line | {"region_rank": rank} for line, rank in page.object_list]
    return page


class _Numbered:
    """A whole snapshot's rows for the paginator: positions run 0 … n-1 (snapshot_rows.pack),
    so their number is the last position + 1, one probe of the (snapshot, position) index.
    PostgreSQL's COUNT(*) reads every row's page of the snapshot until a VACUUM has marked
    them all visible (7-8 ms of a 70 ms page at 10,000 lines, performance log)."""

    def __init__(self, rows):
        self.rows = rows

    def count(self) -> int:
        last = self.rows.order_by("-position").values_list("position", flat=True).first()
        return 0 if last is None else last + 1

    def __getitem__(self, key):
        return self.rows[key]


def snapshot_line(snapshot_id: int | None, player_id: int) -> dict | None:
    """One player's line of a snapshot, with results (one row); None if not in it."""
    if snapshot_id is None:
        return None
    row = (
        SnapshotLine.objects.filter(snapshot_id=snapshot_id, player=player_id)
        .values_list("line", shared_results(), "snapshot__events")
        .first()
    )
    return None if row is None else row[0] | {"results": unpack(row[1], row[2])}


def official_results(player_id: int) -> list[dict]:
    """The player's places in every approved event version of a public ranking, newest
    first (one query): date, event, club, ranking, place, field."""
    rows = (
        OfficialResult.objects.filter(player_id=player_id, version__status__ranking__public=True)
        .order_by("-date", "-version__status__event_id", "version__status__ranking__name")
        .values_list(
            "date", "version__status__event__name", "version__status__event__club__short_name",
            "version__status__ranking__name", "place", "version__field_size",
        )
    )  # fmt: skip
    keys = ("date", "event_name", "club", "ranking", "place", "field")
    return [dict(zip(keys, row, strict=True)) for row in rows]


def public_texts(state: RankingState, translate) -> list[str]:
    """The newest snapshot's whole list as the JSON API writes its lines, in order: the
    texts stored with the rows (one query, nothing parsed), except a line with a reason
    (``translate``d for the reader) or a row written before the texts (built from its line)."""
    if state.snapshot_id is None:
        return []
    table = connection.ops.quote_name(SnapshotLine._meta.db_table)
    sql = (
        f"SELECT public, CASE WHEN listed AND public <> '' THEN NULL ELSE line END"
        f" FROM {table} WHERE snapshot_id = %s ORDER BY position"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [state.snapshot_id])
        rows = cursor.fetchall()
    out = []
    for text, line in rows:
        if line is not None:
            found = public_line(orjson.loads(line))
            if found.get("reason"):
                found["reason"] = translate(found["reason"])
            text = orjson.dumps(found).decode()
        out.append(text)
    return out


def region_lines(state: RankingState, region_id: int | None) -> list[dict]:
    """The whole list (cached, `snapshot_lines`) or one region's lines with the regional
    rank beside the national one (one query on the region's rows; the rank is written with
    the rows: `federation.rankings.snapshot_rows.pack`)."""
    if region_id is None:
        return snapshot_lines(state)
    if state.snapshot_id is None:
        return []
    rows = SnapshotLine.objects.filter(snapshot_id=state.snapshot_id, region=region_id)
    return [
        line | {"region_rank": rank}
        for line, rank in rows.order_by("position").values_list("line", "region_rank")
    ]


# --------------------------------------------------------------------------- calendar, archive


@dataclass
class CalendarRow:
    event: Event
    rankings: list[str] = field(default_factory=list)


def calendar(today: dt.date | None = None) -> dict:
    """Sanctioned events of public rankings: upcoming (soonest first) and past (newest first)."""
    today = today or timezone.localdate()
    statuses = (
        RankingStatus.objects.filter(
            state__in=SANCTIONED,
            ranking__public=True,
            event__start_date__gte=today - dt.timedelta(days=PAST_DAYS),
        )
        .select_related("event__club", "ranking")
        .order_by("event__start_date", "event__name", "ranking__name")
    )
    rows: dict[int, CalendarRow] = {}
    for status in statuses[: CALENDAR_CAP * 3]:
        row = rows.setdefault(status.event_id, CalendarRow(status.event))
        row.rankings.append(status.ranking.name)
    upcoming = [r for r in rows.values() if (r.event.end_date or r.event.start_date) >= today]
    past = [r for r in rows.values() if (r.event.end_date or r.event.start_date) < today]
    past.reverse()
    return {"upcoming": upcoming[:CALENDAR_CAP], "past": past[:CALENDAR_CAP]}


def approved_versions():
    """The archive's rows: approved versions of public rankings, with the event's club and
    whether its results are public here (a published series)."""
    published = Series.objects.filter(event=OuterRef("status__event_id"), published=True)
    return (
        EventVersion.objects.filter(state=EventVersion.State.APPROVED, status__ranking__public=True)
        .select_related("status__event__club", "status__ranking")
        .annotate(results_public=Exists(published))
        .order_by("-status__event__start_date", "status__event__name", "status__ranking__name")
    )
