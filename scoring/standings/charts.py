"""The SVG chart of a player's results: geometry only, numbers never localised."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.standings import season


def results_chart(results: list[season.PlayerSeries], width=640, height=220, pad=36) -> dict | None:
    """Coordinates of an inline SVG line chart of the series totals (server-rendered)."""
    if not results:
        return None
    values = [r.total for r in results]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    step = (width - 2 * pad) / max(1, len(values) - 1)

    def y(v):
        return round(pad + (high - v) * (height - 2 * pad) / span, 1)

    points = [
        {
            "x": round(pad + i * step, 1),
            "y": y(r.total),
            "label": f"{r.event_name} · "
            + _("Series %(number)d") % {"number": r.number}
            + f": {r.total}",
        }
        for i, r in enumerate(results)
    ]
    return {
        "width": width,
        "height": height,
        "points": points,
        "path": " ".join(f"{p['x']},{p['y']}" for p in points),
        "zero": y(0),
        "high": high,
        "low": low,
        "y_high": y(high),
        "y_low": y(low),
        "right": width - pad,
        "pad": pad,
    }
