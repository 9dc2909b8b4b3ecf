"""Export: the player registry of a club (members with numbers, in German name order)."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.selectors import club_members
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable


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
