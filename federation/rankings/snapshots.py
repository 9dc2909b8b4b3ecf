"""Reading a ranking's snapshots: the newest one, its lines (all, one region's, with or
without their results: its rows, `federation.rankings.snapshot_rows`), what a page shows
beside the stored values (`decorate`, numbers in the reader's language), and `LazyLines` for
a page that shows a slice. A fixed number of queries each, however many lines."""

from __future__ import annotations

import re
from decimal import Decimal

from django.db.models import Q
from django.utils import formats
from django.utils.translation import gettext as _

from federation.rankings.models import Ranking, RankingSnapshot, SnapshotLine
from federation.rankings.snapshot_rows import read_lines, shared_results, unpack


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
    found = dict(rows.values_list("player", shared_results()))
    for line in lines:
        line.update(results_fields(unpack(found.get(line["player"], []), snapshot.events)))


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
