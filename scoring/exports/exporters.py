"""The exports whose data exists today: player registry, seating list, pre-filled sheets."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.selectors import club_members
from tournaments.models import Seat, Series, Table

from .base import Column, Exporter, ExportTable, register
from .codes import absolute, qr_data_uri, sheet_code, sheet_entry_path


def collation_key(text: str) -> str:
    """German phone-book-free order: "Äbersold" next to "Abel", "Weiß" as "Weiss"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def player_key(player) -> tuple[str, str, str]:
    return (
        collation_key(player.family_name),
        collation_key(player.given_name),
        player.player_number,
    )


# ----- player registry ---------------------------------------------------------------------


@register
class PlayerRegistryExporter(Exporter):
    slug = "players"
    name = gettext_lazy("Player registry")
    scope = "club"
    description = gettext_lazy("The club's current members: number, name, birth year, status.")

    def header_text(self, club):
        return club.name

    def tables(self, club) -> list[ExportTable]:
        players = sorted(club_members(club), key=player_key)
        columns = [
            Column("number", _("Number"), width=12),
            Column("family_name", _("Family name")),
            Column("given_name", _("Given name")),
            Column("birth_year", _("Birth year"), "int", width=11, number_format="0"),
            Column("club", _("Club")),
            Column("active", _("Active"), width=8),
        ]
        rows = [
            {
                "number": p.player_number,
                "family_name": p.family_name,
                "given_name": p.given_name,
                "birth_year": p.birth_year,
                "club": p.current_club_short or "",
                "active": _("yes") if p.active else _("no"),
            }
            for p in players
        ]
        count = len(rows)
        footer = {
            "number": _("Total"),
            "family_name": ngettext("%(count)d player", "%(count)d players", count)
            % {"count": count},
        }
        return [ExportTable(_("Player registry"), columns, rows, footer)]

    def expected_pages(self, club) -> int:
        return max(1, club_members(club).count() // 40 + 1)


# ----- seating list ------------------------------------------------------------------------


def _seats(series: Series) -> list[Seat]:
    return list(
        Seat.objects.filter(series=series)
        .select_related("table", "participant__player", "participant__club")
        .order_by("table__number", "position")
    )


def _club_short(participant) -> str:
    return participant.club.short_name if participant.club_id else ""


@register
class SeatingListExporter(Exporter):
    slug = "seating"
    name = gettext_lazy("Seating list")
    scope = "series"
    description = gettext_lazy("Who sits where: by table, and by name to hang up at the door.")

    def header_text(self, series):
        return series.event.name

    def title(self, series):
        return f"{_('Seating list')} – {series}"

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
                    "club": _club_short(seat.participant),
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
        alphabetical = sorted(seats, key=lambda seat: player_key(seat.participant.player))
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

    def expected_pages(self, series) -> int:
        seats = Seat.objects.filter(series=series).count()
        return max(1, 2 * (seats // 45 + 1))

    def is_long(self, series, fmt) -> bool:
        return fmt == "pdf" and Seat.objects.filter(series=series).count() > 200


# ----- pre-filled score sheets -------------------------------------------------------------


@dataclass
class SheetPlayer:
    seat: int
    name: str
    club: str
    number: str


@dataclass
class SheetHand:
    number: int
    dealer: int  # seat position, 0-based

    dealer_name: str = ""


@dataclass
class PrefilledSheet:
    table: int
    players: list[SheetPlayer]
    first_dealer: int
    hands: list[SheetHand] = field(default_factory=list)
    code: str = ""
    url: str = ""
    short_url: str = ""
    qr: str = ""


def prefilled_sheets(series: Series, *, base_url: str = "", with_qr: bool = True):
    """Every table of a series with players in seat order and the dealer of each hand
    (2 queries)."""
    seats = Seat.objects.select_related("participant__player", "participant__club").order_by(
        "position"
    )
    tables = (
        Table.objects.filter(series=series)
        .select_related("sheet")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    sheets = []
    for table in tables:
        players = [
            SheetPlayer(
                seat=seat.position + 1,
                name=str(seat.participant.player),
                club=_club_short(seat.participant),
                number=seat.participant.player.player_number,
            )
            for seat in table.seats.all()
        ]
        size = len(players)
        sheet = getattr(table, "sheet", None)
        first_dealer = sheet.first_dealer if sheet is not None and size else 0
        if size:
            first_dealer %= size
        hands = []
        for i in range(series.planned_rounds * size):
            dealer = (first_dealer + i) % size
            hands.append(SheetHand(i + 1, dealer, players[dealer].name))
        code = sheet_code(series.pk, table.number)
        path = sheet_entry_path(series.pk, table.number)
        url = absolute(base_url, path)
        sheets.append(
            PrefilledSheet(
                table=table.number,
                players=players,
                first_dealer=first_dealer,
                hands=hands,
                code=code,
                url=url,
                short_url=absolute(base_url, reverse("exports:sheet_code", args=[code])),
                qr=qr_data_uri(url) if with_qr else "",
            )
        )
    return sheets


@register
class ScoreSheetsExporter(Exporter):
    slug = "score-sheets"
    name = gettext_lazy("Pre-filled score sheets")
    scope = "series"
    description = gettext_lazy(
        "One sheet per table: players in seat order, the dealer of each hand, an empty grid, "
        "signature lines and a QR code to the sheet's entry page."
    )
    template = "exports/score_sheets.html"

    def header_text(self, series):
        return series.event.name

    def title(self, series):
        return f"{_('Score sheets')} – {series}"

    def tables(self, series) -> list[ExportTable]:
        needs_melded = series.event.ruleset.needs_melded
        result = []
        for sheet in prefilled_sheets(series, with_qr=False):
            columns = [
                Column("hand", _("Hand"), "int", width=7),
                Column("dealer", _("Dealer"), width=24),
            ]
            for player in sheet.players:
                columns.append(Column(f"p{player.seat}", f"{player.seat}. {player.name}", "int"))
                if needs_melded:
                    columns.append(
                        Column(f"m{player.seat}", f"{player.seat}. {_('melded')}", "int")
                    )
            rows = [{"hand": hand.number, "dealer": hand.dealer_name} for hand in sheet.hands]
            label = _("Table %(number)d") % {"number": sheet.table}
            result.append(
                ExportTable(
                    f"{label} ({sheet.code})",
                    columns,
                    rows,
                    footer={"hand": _("Total")},
                    sheet_name=label,
                )
            )
        return result

    def context(self, series, *, base_url: str = ""):
        sheets = prefilled_sheets(series, base_url=base_url)
        hands = max((len(s.hands) for s in sheets), default=0)
        # The grid fills what the header, signatures and margins leave of an A4 page.
        row_mm = max(4.4, min(7.5, 132 / hands)) if hands else 8.0
        return {
            "series": series,
            "event": series.event,
            "sheets": sheets,
            "needs_melded": series.event.ruleset.needs_melded,
            "row_height": f"{row_mm:.1f}mm",
        }

    def expected_pages(self, series) -> int:
        return max(1, Table.objects.filter(series=series).count())

    def is_long(self, series, fmt) -> bool:
        return fmt == "pdf" and Table.objects.filter(series=series).count() > 4
