"""The one aggregate query behind every standing: per participant and series, the points,
the hand points held in lost hands, the hands won and the hand Rommés of the counted
sheets: one GROUP BY over the stored per-sheet seat totals (``SeatTotal``, a few rows per
sheet, derived when the hands are stored), turned into the core's `Entry` rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from rules.standings import metrics
from scoring.models import SeatTotal, Sheet


@dataclass
class SeriesResult:
    """One participant's aggregates in one series."""

    participant_id: int
    series_id: int
    number: int
    day: int
    kind: str
    total: int
    hand_points: int
    hands_won: int
    hand_rommes: int
    unconfirmed: int


def counted_statuses(include_entered: bool) -> list[str]:
    if include_entered:
        return [Sheet.Status.CONFIRMED, Sheet.Status.ENTERED]
    return [Sheet.Status.CONFIRMED]


def aggregate(
    series: list[dict], *, include_entered: bool = False, by: str = "participant_id"
) -> list[SeriesResult]:
    """One GROUP BY query: per participant (or ``by``) and series over the counted sheets of
    ``series`` (dicts with id, number, day, kind, as :func:`_visible_series` gives them).

    Sums of the seat totals' points, hand points held in lost hands, hands won and hand
    Rommés, and COUNT(seat totals on entered sheets). Grouped by the table's
    series id only (number, day and kind come from ``series``), read as tuples: the cheapest
    form of the query on SQLite and PostgreSQL alike.
    """
    if not series:
        return []
    info = {s["id"]: s for s in series}
    rows = (
        SeatTotal.objects.filter(
            sheet__table__series_id__in=list(info),
            sheet__status__in=counted_statuses(include_entered),
        )
        .values_list(by, "sheet__table__series_id")
        .annotate(
            total=Sum("points"),
            lost_hand_points=Sum("lost_hand_points"),
            won=Sum("hands_won"),
            rommes=Sum("hand_rommes"),
            unconfirmed=Count("id", filter=Q(sheet__status=Sheet.Status.ENTERED)),
        )
        .order_by()
    )
    out = []
    for key, series_id, total, lost, hands_won, rommes, unconfirmed in rows:
        s = info[series_id]
        out.append(
            SeriesResult(
                participant_id=key,
                series_id=series_id,
                number=s["number"],
                day=s["day"],
                kind=s["kind"],
                total=total or 0,
                hand_points=lost or 0,
                hands_won=hands_won,
                hand_rommes=rommes,
                unconfirmed=unconfirmed,
            )
        )
    return out


def to_entry(key, results: list[SeriesResult]) -> metrics.Entry:
    """An Entry from one participant's series results (in order of play)."""
    return metrics.Entry(
        key=key,
        total=sum(r.total for r in results),
        hands_won=sum(r.hands_won for r in results),
        hand_rommes=sum(r.hand_rommes for r in results),
        hand_points=sum(r.hand_points for r in results),
        series_totals=tuple(r.total for r in results),
        provisional=any(r.unconfirmed for r in results),
    )


def playoff_places(playoff_results: list[SeriesResult], higher_is_better: bool) -> dict[int, int]:
    """Playoff places (1 = best) from the playoff series' totals, earlier playoffs first.

    Each participant's key is its totals in the playoffs in order (a playoff it did not
    play counts as worst); equal keys get the same place, so a tie that holds is proposed
    again. Places only ever compare players the chain could not separate.
    """
    if not playoff_results:
        return {}
    order = sorted({(r.number, r.series_id) for r in playoff_results})
    index = {sid: i for i, (_n, sid) in enumerate(order)}
    worst = float("inf")
    keys: dict[int, list[float]] = defaultdict(lambda: [worst] * len(order))
    for r in playoff_results:
        keys[r.participant_id][index[r.series_id]] = -r.total if higher_is_better else r.total
    ranked = sorted(keys.items(), key=lambda kv: kv[1])
    places: dict[int, int] = {}
    for i, (pid, key) in enumerate(ranked):
        if i and ranked[i - 1][1] == key:
            places[pid] = places[ranked[i - 1][0]]
        else:
            places[pid] = i + 1
    return places


# --------------------------------------------------------------------------- event standings
