"""The sortable ranking list of the members' page (django-tables2, like the club pages)."""

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableListData
from django_tables2.utils import OrderBy

from clubs.models import fold_german

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}
# On a phone rank, name and points; these columns open on a tap (static/js/standings.js).
DETAIL = {"td": {"class": "detail"}, "th": {"class": "detail"}}
NUM_DETAIL = {"td": {"class": "num detail"}, "th": {"class": "num detail"}}


# A column's sort accessor -> SnapshotLine's column in the same order (the list's own
# order, "position", decides ties as the stable sort of a list does).
LINE_COLUMNS = {
    "rank": "rank",
    "national_rank": "rank",
    "sort_name": "sort_name",
    "sort_club": "sort_club",
    "events_counted": "events_counted",
    "points": "points",
}


class LazyLinesData(TableListData):
    """federation.rankings.snapshots.LazyLines sorted by the database (one page read), not in Python
    (every line read and decorated: 10,000 of them on a federation's list)."""

    def order_by(self, aliases):
        columns = []
        for alias in aliases:
            bound = self.table.columns[OrderBy(alias).bare]
            flip = alias[0] != bound.order_by_alias[0]
            for accessor in bound.order_by.opposite if flip else bound.order_by:
                column = LINE_COLUMNS.get(accessor.bare)
                if column is None:
                    return super().order_by(aliases)
                columns.append(f"-{column}" if accessor.is_descending else column)
        self.data.order_by(*columns)


class RankingLinesTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUM)
    name = tables.Column(verbose_name=_("Name"), order_by=("sort_name",))
    club = tables.Column(verbose_name=_("Club"), order_by=("sort_club",), attrs=DETAIL)
    events_counted = tables.Column(verbose_name=_("Events counted"), attrs=NUM_DETAIL)
    points = tables.Column(verbose_name=_("Points"), attrs=NUM)
    results_text = tables.Column(verbose_name=_("Results"), orderable=False, attrs=DETAIL)
    national_rank = tables.Column(verbose_name=_("National rank"), attrs=NUM_DETAIL)

    class Meta:
        attrs = {"class": "data-table phone-rows", "data-ranking-list": ""}
        # The cells written out there (the render_ methods below say the same for others).
        template_name = "federation/lists/_ranking_lines_table.html"
        empty_text = _("Nobody is listed yet.")

    def __init__(self, lines, ranking, *, regional=False, **kwargs):
        self.ranking_pk = ranking.pk
        # federation.rankings.snapshots.LazyLines: rows made a slice at a time.
        if hasattr(lines, "prepare"):
            lines.prepare = lambda chosen: [self.row(line) for line in chosen]
            rows = LazyLinesData(lines)
        else:
            rows = [self.row(line) for line in lines]
        exclude = () if regional else ("national_rank",)
        self.regional = regional
        # A card's address without the player ("…/players/"): one reverse() for the page.
        self.card_prefix = reverse("federation:player_card", args=[ranking.pk, 0])[:-2]
        super().__init__(rows, exclude=exclude, **kwargs)

    @staticmethod
    def row(line: dict) -> dict:
        return line | {
            "points": Decimal(line["value"] or 0),
            "sort_name": fold_german(line["name"]),
            "sort_club": fold_german(line["club"] or ""),
        }

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
