"""The tables of an event's series as the standings pages and the publishing ask for them:
the playoffs with their table and sheet, and the tables whose sheet is not confirmed."""

from __future__ import annotations

from scoring.standings.aggregate import counted_statuses
from tournaments.models import Event, Series, Table


def playoffs(event: Event) -> list[dict]:
    """The event's playoff series, each with its table number and sheet status (one query)."""
    rows = (
        Table.objects.filter(series__event=event, series__kind=Series.Kind.PLAYOFF)
        .order_by("series__number", "number")
        .values(
            "series_id", "series__number", "series__status", "series__published",
            "series__playoff_of", "number", "sheet__status",
        )
    )  # fmt: skip
    return [
        {
            "id": r["series_id"],
            "number": r["series__number"],
            "status": r["series__status"],
            "published": r["series__published"],
            "playoff_of": r["series__playoff_of"] or {},
            "table": r["number"],
            "sheet_status": r["sheet__status"],
        }
        for r in rows
    ]


def unconfirmed_tables(series) -> list[int]:
    """The numbers of ``series``' tables without a confirmed sheet (none, draft, entered,
    disputed): one query."""
    # The standings' own definition of a sheet that counts (as in `_visible_series`).
    counting = counted_statuses(include_entered=False)
    open_tables = Table.objects.filter(series=series).exclude(sheet__status__in=counting)
    return list(open_tables.order_by("number").values_list("number", flat=True))
