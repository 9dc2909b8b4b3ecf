import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Club, Player


class PlayerTable(tables.Table):
    # German alphabetical order (Ä with A, ß as ss) on every database.
    family_name = tables.Column(linkify=True, order_by=("sort_key",))
    given_name = tables.Column(linkify=True)
    current_club_short = tables.Column(verbose_name=_("club"), order_by=("current_club_short",))
    active = tables.BooleanColumn(yesno=("✔", "–"))

    class Meta:
        model = Player
        fields = ("player_number", "family_name", "given_name", "birth_year")
        sequence = ("player_number", "family_name", "given_name", "birth_year", "...")
        order_by = ("family_name",)
        attrs = {"class": "data-table"}
        empty_text = _("No players match.")


class ClubTable(tables.Table):
    name = tables.Column(linkify=True)
    member_count = tables.Column(verbose_name=_("members"))

    class Meta:
        model = Club
        fields = ("name", "short_name", "town", "association_number")
        attrs = {"class": "data-table"}
