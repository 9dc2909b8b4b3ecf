"""The prize list page's table: sortable by each column (django-tables2, as every list)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from common.money import format_euro


class EuroColumn(tables.Column):
    def render(self, value):
        return format_euro(value)


class PrizeTable(tables.Table):
    place = tables.Column(verbose_name=_("Place"), order_by=("order", "place", "name"))
    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Club"), default="–")
    standing = tables.Column(verbose_name=_("Standing"), order_by=("order", "place"))
    prize = tables.Column(verbose_name=_("Prize"))
    amount = EuroColumn(
        verbose_name=_("Amount"), attrs={"td": {"class": "n"}, "th": {"class": "n"}}
    )

    class Meta:
        attrs = {"class": "data-table prize-list"}
        empty_text = _("No prizes to hand out yet.")


def rows_of(prize_list, *, amounts: bool = True) -> list[dict]:
    rows = [
        {
            "place": r.place,
            "name": r.name,
            "club": r.club,
            "standing": r.standing,
            "prize": r.prize,
            "amount": r.amount,
            "order": r.order,
        }
        for r in prize_list.rows
    ]
    if not amounts:
        for row in rows:
            row.pop("amount")
    return rows
