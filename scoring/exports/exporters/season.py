"""Export: the season ranking of a club's season (published series only, dropped results
marked)."""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import SCORER
from scoring.exports.grids import grids, season_facts
from scoring.exports.parts import ranking_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable
from scoring.standings import season as standings_season
from tournaments.models import Season


@register
class SeasonRankingExporter(Exporter):
    """Exports have no season scope (club, event, series): the club's newest season."""

    slug = "season-ranking"
    name = gettext_lazy("Season ranking")
    scope = "club"
    # Like the season page for directors: unpublished series count too.
    permission = SCORER
    description = gettext_lazy(
        "The club's newest season: rank, series played, counted total and average, "
        "dropped results. All confirmed sheets count, published or not."
    )

    # Bordered grid, A4 portrait (templates/exports/ranking.html).
    template = "exports/ranking.html"

    def context(self, club, *, base_url: str = ""):
        return {"grids": grids(self.tables(club)), "facts": season_facts(self.season(club))}

    def season(self, club):
        return Season.objects.filter(club=club).order_by("-start_date", "-pk").first()

    def header_text(self, club):
        return club.name

    def title(self, club):
        season = self.season(club)
        label = season.name if season is not None else _("(no season yet)")
        return _("Season ranking") + f" {label} – {club}"

    def pdf_parts(self, context, workers):
        return ranking_parts(context, workers)

    def tables(self, club) -> list[ExportTable]:
        season = self.season(club)
        columns = [
            Column("rank", _("Rank"), "int", width=7),
            Column("player", _("Player"), width=28),
            Column("played", _("Series played"), "int", width=10),
            Column("counted_total", _("Counted total"), "int", width=11),
            Column("average", _("Average"), "decimal", width=10),
            Column("dropped_count", _("Dropped"), "int", width=9),
            Column("dropped", _("Dropped results"), width=40),
            Column("note", _("Note"), width=16),
        ]
        if season is None:
            return [ExportTable(_("Season ranking"), columns, [])]
        standing = standings_season.season_standing(season, only_published=False)
        rows = []
        for line in standing.lines:
            row = line.row
            rows.append(
                {
                    "rank": row.rank,
                    "player": line.name,
                    "played": row.played,
                    "counted_total": row.counted_total,
                    "average": round(row.average, 2),
                    "dropped_count": len(line.dropped),
                    "dropped": "; ".join(_dropped_text(d) for d in line.dropped),
                    "note": "" if row.qualified else _("not yet ranked"),
                }
            )
        mode = season.get_ranking_mode_display()
        title = _("Season %(season)s, ranked by %(mode)s") % {"season": season.name, "mode": mode}
        title = f"{title} · " + _("ties: shared rank")
        return [
            ExportTable(
                title,
                columns,
                rows,
                sheet_name=_("Season %(season)s") % {"season": season.name},
            )
        ]


def _dropped_text(result) -> str:
    """A dropped result in brackets, formatted like the counted totals: "[-1.401] Spielabend
    6, Serie 1" (the print keeps each one on a line, scoring.exports.grids)."""
    series = _("Series %(number)d") % {"number": result.number}
    total = formats.number_format(int(result.total), force_grouping=True)
    return f"[{total}] {result.event_name}, {series}"


# ----- whole-event workbook ------------------------------------------------------------------
