"""Export: the player registry of a club (members with numbers, in German name order)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.selectors import club_members
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable


@register
class PlayerRegistryExporter(Exporter):
    slug = "players"
    name = gettext_lazy("Player registry")
    scope = "club"
    description = gettext_lazy("The club's current members: number, name, birth year, status.")

    def header_text(self, club):
        return club.name

    def tables(self, club) -> list[ExportTable]:
        players = sorted(club_members(club), key=lambda player: player.sort_key)
        columns = [
            Column("number", _("Number"), width=12),
            Column("family_name", _("Family name")),
            Column("given_name", _("Given name")),
            Column("birth_year", _("Birth year"), "int", width=11, number_format="0"),
            Column("gender", _("Gender"), width=10),
            Column("club", _("Club")),
            Column("active", _("Active"), width=8),
        ]
        rows = [
            {
                "number": p.player_number,
                "family_name": p.family_name,
                "given_name": p.given_name,
                "birth_year": p.birth_year,
                "gender": p.get_gender_display() if p.gender else "",
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
