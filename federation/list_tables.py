"""The sortable ranking list of the members' page (django-tables2, like the club pages)."""

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class RankingLinesTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUM)
    name = tables.Column(verbose_name=_("Name"), order_by=("sort_name",))
    club = tables.Column(verbose_name=_("Club"), order_by=("sort_club",))
    events_counted = tables.Column(verbose_name=_("Events counted"), attrs=NUM)
    points = tables.Column(verbose_name=_("Points"), attrs=NUM)
    results_text = tables.Column(verbose_name=_("Results"), orderable=False)
    national_rank = tables.Column(verbose_name=_("National rank"), attrs=NUM)

    class Meta:
        attrs = {"class": "data-table", "data-ranking-list": ""}
        empty_text = _("Nobody is listed yet.")

    def __init__(self, lines, ranking, *, regional=False, **kwargs):
        self.ranking_pk = ranking.pk
        rows = [
            line | {"points": Decimal(line["value"] or 0), "sort_name": line["name"].casefold(),
                    "sort_club": (line["club"] or "").casefold()}
            for line in lines
        ]  # fmt: skip
        exclude = () if regional else ("national_rank",)
        super().__init__(rows, exclude=exclude, **kwargs)

    def render_name(self, record):
        url = reverse("federation:player_card", args=[self.ranking_pk, record["player"]])
        if record["hidden"]:
            return format_html(
                '<a href="{}">{}</a> <span class="badge">{}</span>',
                url, record["name"], _("not public"),
            )  # fmt: skip
        return format_html('<a href="{}">{}</a>', url, record["name"])

    def render_points(self, record):
        return record["value_text"]

    def render_club(self, value):
        return value or "–"
