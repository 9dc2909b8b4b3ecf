"""Sortable tables of the federation pages (django-tables2, like the club pages)."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.associations.models import Affiliation


class AssociationTable(tables.Table):
    """The tree: unsorted it reads national first, its regions indented below."""

    name = tables.Column(verbose_name=_("name"))
    short_name = tables.Column(verbose_name=_("short name"))
    kind_label = tables.Column(verbose_name=_("kind"), order_by=("kind",))
    clubs = tables.Column(verbose_name=_("clubs"), attrs={"td": {"class": "num"}})

    class Meta:
        attrs = {"class": "data-table"}
        empty_text = _("You hold no role in an association.")

    def render_name(self, record):
        marker = "└ " * min(record.depth, 1) if record.depth else ""
        above = f" ({record.parent_name})" if record.parent_name else ""
        return format_html(
            '{}<a href="{}">{}</a><span class="muted">{}</span>',
            "\u2003" * max(record.depth - 1, 0) + marker,
            record.url,
            record.name,
            above,
        )


class AffiliationTable(tables.Table):
    club = tables.Column(verbose_name=_("club"), linkify=True, order_by=("club__name",))
    town = tables.Column(verbose_name=_("town"), accessor="club__town")
    number = tables.Column(
        verbose_name=_("association number"), accessor="club__association_number"
    )
    association = tables.Column(
        verbose_name=_("regional association"),
        order_by=("association__name",),
        linkify=lambda record: record.association.get_absolute_url(),
    )
    since = tables.DateColumn(verbose_name=_("since"), short=True)
    note = tables.Column(verbose_name=_("note"))
    manage = tables.LinkColumn(
        "federation:affiliation_detail",
        args=[tables.A("pk")],
        text=_("move or end"),
        verbose_name=_("Actions"),
        orderable=False,
        attrs={"td": {"class": "no-print"}, "th": {"class": "no-print"}},
    )

    class Meta:
        model = Affiliation
        fields = ()
        sequence = ("club", "town", "number", "association", "since", "note", "manage")
        order_by = ("club",)
        attrs = {"class": "data-table"}
        empty_text = _("No club belongs to this association yet.")
