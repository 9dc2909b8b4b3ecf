"""The hall display (``/public/events/<pk>/display/``): every competition's published
standing in panels of `DISPLAY_ROWS` rows for a projector; the page's script rotates them
and reloads when the results version changes."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from scoring.standings import labels, selectors
from scoring.standings.public import public_event, public_view

DISPLAY_ROWS = 20


@require_safe
@public_view("display", ())
def display(request, pk):
    event = public_event(request, pk)
    panels = []
    # One read of the results and one ranking per competition (not one aggregate each).
    standings = selectors.event_standings(event, only_published=True)
    for competition in labels.COMPETITIONS:
        standing = standings[competition]
        if not standing.rows:
            continue
        incomplete = " · ".join(labels.incomplete_short(s) for s in standing.incomplete_series)
        # Every row is shown: larger fields are paged through, DISPLAY_ROWS rows a page.
        pages = (len(standing.rows) + DISPLAY_ROWS - 1) // DISPLAY_ROWS
        for start in range(0, len(standing.rows), DISPLAY_ROWS):
            rows = [
                {
                    "rank": row.rank,
                    "name": row.name,
                    "club": row.club,
                    "total": row.total,
                    "cells": [row.series_totals.get(n, "–") for n in standing.counted_series],
                }
                for row in standing.rows[start : start + DISPLAY_ROWS]
            ]
            panels.append(
                {
                    "title": labels.COMPETITION_LABELS[competition],
                    "incomplete": incomplete,
                    "page": start // DISPLAY_ROWS + 1,
                    "pages": pages,
                    "rows": rows,
                    "series": standing.counted_series,
                }
            )
    return render(
        request,
        "standings/display.html",
        {
            "event": event,
            "panels": panels,
            "refresh_seconds": 30,
            "rotate_seconds": 10,
            "poll_seconds": 5,
            "version_url": reverse("standings:version", args=[event.pk]),
        },
    )
