"""Exports: the standing of one series (Serienwertung) and of one day (Tageswertung), each
as an A4 print with bordered grids (XLSX and print page as well) and as an A3 wall list,
for the wall after every series.

Individual, then pairs and teams when the event has them, ranked by
`scoring.standings.selectors.event_standings(scope="series" | "day")` exactly as the
standings page's series and day tabs; all confirmed sheets count, published or not (the
scorer role, as the `standings` export), unconfirmed ones never do ("VORLÄUFIG" then).

A day is not an object of its own: every one of these exports has the series scope, and
the day standings print the day of the series they are opened for
(`/exports/series/<pk>/day-standings.pdf` is the day of series <pk>), so the URLs, the
menu, the jobs and the permission checks are those of every series export and no
parameter needs validating. The four exporters differ only in these words, so they are
made from one table (`SCOPED`)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.exports.exporters.standings import ScopedStandingsExporter
from scoring.exports.exporters.wall import ScopedWallExporter
from scoring.exports.registry import register
from scoring.standings import labels


def series_scope(series) -> tuple[str, int, str]:
    return labels.SERIES, series.number, _("Series %(number)d") % {"number": series.number}


def day_scope(series) -> tuple[str, int, str]:
    return labels.DAY, series.day, _("Day %(day)d") % {"day": series.day}


# slug, scope of the standing, heading, wall list's name, descriptions (A4, wall)
SCOPED = (
    (
        "series-standings",
        series_scope,
        gettext_lazy("Series standing"),
        gettext_lazy("Series standing for the wall (A3)"),
        gettext_lazy(
            "The standing of this series: individual, pairs and teams, with the tie-break "
            "values. All confirmed sheets count, published or not; unconfirmed ones never do."
        ),
        gettext_lazy(
            "The standing of this series in large type on A3 portrait, to hang up in the hall."
        ),
    ),
    (
        "day-standings",
        day_scope,
        gettext_lazy("Day standing"),
        gettext_lazy("Day standing for the wall (A3)"),
        gettext_lazy(
            "The standing of this series' day: individual, pairs and teams, with the "
            "tie-break values. All confirmed sheets count, published or not; unconfirmed "
            "ones never do."
        ),
        gettext_lazy(
            "The standing of this series' day in large type on A3 portrait, to hang up in the hall."
        ),
    ),
)


def _exporter(base, slug: str, scoped, name, heading, description):
    title = "".join(part.title() for part in slug.split("-"))
    attributes = {
        "slug": slug,
        "name": name,
        "heading": heading,
        "description": description,
        "scoped": lambda self, series: scoped(series),
        "__module__": __name__,
        "__qualname__": f"{title}Exporter",
    }
    return register(type(f"{title}Exporter", (base,), attributes))


for _slug, _scoped, _heading, _wall_name, _description, _wall_description in SCOPED:
    _exporter(ScopedStandingsExporter, _slug, _scoped, _heading, _heading, _description)
    _exporter(ScopedWallExporter, f"{_slug}-wall", _scoped, _wall_name, _heading, _wall_description)
