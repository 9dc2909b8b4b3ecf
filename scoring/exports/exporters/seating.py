"""Export: the seating list of a series (table, seat, player, club) for the wall and the
tables; the draw's warnings and seed stay on the director's page."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.exports.parts import table_parts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable
from scoring.sheets.codes import absolute, link_problem, qr_data_uri
from scoring.sheets.table.links import live_links, phone_path
from tournaments.models import Seat, Series


def _seats(series: Series) -> list[Seat]:
    return list(
        Seat.objects.filter(series=series)
        .select_related("table", "participant__player", "participant__club")
        .order_by("table__number", "position")
    )


def club_short(participant) -> str:
    return participant.club.short_name if participant.club_id else ""


@register
class SeatingListExporter(Exporter):
    slug = "seating"
    name = gettext_lazy("Seating list")
    scope = "series"
    description = gettext_lazy("Who sits where: by table, and by name to hang up at the door.")
    template = "exports/seating.html"

    def header_text(self, series):
        return series.event.name

    def title(self, series):
        return _("Seating list") + f" – {series}"

    def tables(self, series) -> list[ExportTable]:
        seats = _seats(series)
        by_table = ExportTable(
            _("By table"),
            [
                Column("table", _("Table"), "int", width=8),
                Column("seat", _("Seat"), "int", width=8),
                Column("player", _("Player"), width=32),
                Column("club", _("Club"), width=14),
            ],
            [
                {
                    "table": seat.table.number,
                    "seat": seat.position + 1,
                    "player": str(seat.participant.player),
                    "club": club_short(seat.participant),
                }
                for seat in seats
            ],
            group_by="table",
        )
        table_count = len({seat.table_id for seat in seats})
        by_table.footer = {
            "table": _("Total"),
            "player": ngettext(
                "%(players)d player at %(tables)d tables",
                "%(players)d players at %(tables)d tables",
                len(seats),
            )
            % {"players": len(seats), "tables": table_count},
        }
        alphabetical = sorted(seats, key=lambda seat: seat.participant.player.sort_key)
        by_name = ExportTable(
            _("By name"),
            [
                Column("player", _("Player"), width=32),
                Column("table", _("Table"), "int", width=8),
                Column("seat", _("Seat"), "int", width=8),
            ],
            [
                {
                    "player": str(seat.participant.player),
                    "table": seat.table.number,
                    "seat": seat.position + 1,
                }
                for seat in alphabetical
            ],
        )
        return [by_table, by_name]

    def context(self, series, *, base_url: str = ""):
        """Each table's QR to its table link while the series is in play (the token alone
        shows that table's sheet; writing needs a seat code from the score sheet)."""
        cards = []
        problem = link_problem(base_url)
        for number, link in sorted(live_links(series).items()):
            url = absolute(base_url, phone_path(link))
            cards.append({"table": number, "url": url, "qr": "" if problem else qr_data_uri(url)})
        return {"table_links": cards, "qr_problem": problem}

    def pdf_parts(self, context, workers):
        """By table and by name in two processes; the tables' codes after the last."""
        parts = table_parts(context, workers)
        for part in parts[:-1]:
            part["table_links"] = []
        return parts

    def expected_pages(self, series) -> int:
        seats = Seat.objects.filter(series=series).count()
        return max(1, 2 * (seats // 45 + 1))

    def is_long(self, series, fmt) -> bool:
        return fmt == "pdf" and Seat.objects.filter(series=series).count() > 200


# ----- pre-filled score sheets -------------------------------------------------------------
