"""The participants table of the entry fee page (sortable, django-tables2)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from common.money import format_euro


class EuroColumn(tables.Column):
    def render(self, value):
        return format_euro(value)


class PaymentTable(tables.Table):
    name = tables.Column(verbose_name=_("Name"), order_by=("sort_key",))
    player_number = tables.Column(verbose_name=_("number"))
    club = tables.Column(verbose_name=_("club"), default="–")
    due = EuroColumn(verbose_name=_("Due"), attrs={"td": {"class": "num"}})
    status = tables.TemplateColumn(
        template_name="prizes/fees/payment_cell.html",
        verbose_name=_("Entry fee"),
        order_by=("status", "sort_key"),
    )
    recorded = tables.TemplateColumn(
        template_name="prizes/fees/recorded_cell.html",
        verbose_name=_("Who / when"),
        order_by=("recorded_at",),
    )

    class Meta:
        attrs = {"class": "data-table compact"}
        order_by = ("name",)
        empty_text = _("No players registered yet.")
        row_attrs = {"id": lambda record: f"fee-{record.participant_id}"}
