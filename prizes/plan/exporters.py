"""Export: the prize list of an event (Preisliste) as an A4 PDF with a column to sign for
receipt, as XLSX (Platz, Name, Verein, Wertung, Preis, Betrag; the amounts as numbers in
euros) and as print page, through the exporter registry (scoring.exports.registry).

Registered by `prizes.apps.PrizesConfig.ready` (scoring never imports prizes). The director's
export (organisers of the event's club): it counts entered, unconfirmed sheets exactly as
the prize list page, and then says VORLÄUFIG."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import ORGANISER
from common.money import format_euro
from prizes.plan.selectors import prize_list
from scoring.exports.grids import event_facts
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable

EURO_FORMAT = '#,##0.00 "€"'


def list_table(listing) -> ExportTable:
    columns = [
        Column("place", _("Place"), "int", width=7),
        Column("name", _("Name"), width=28),
        Column("club", _("Club"), width=18),
        Column("standing", _("Standing"), width=18),
        Column("prize", _("Prize"), width=30),
        Column("amount", _("Amount"), "decimal", width=12, number_format=EURO_FORMAT),
    ]
    rows = [
        {
            "place": r.place,
            "name": r.name,
            "club": r.club,
            "standing": r.standing,
            "prize": r.prize,
            "amount": r.amount,
        }
        for r in listing.rows
    ]
    title = _("Prize list")
    if listing.provisional:
        title = f"{title} (" + _("provisional") + ")"
    footer = {"name": _("Paid out"), "amount": listing.paid}
    return ExportTable(title, columns, rows, footer=footer, sheet_name=str(_("Prize list")))


def totals(listing) -> list[tuple[str, object]]:
    return [
        (_("Paid out"), listing.paid),
        (_("Collected entry fees"), listing.collected),
        (_("Costs"), listing.costs),
        (_("Pot"), listing.pot),
        (_("Left over"), listing.left_over),
        (_("Rounding remainder (not paid)"), listing.remainder),
        (_("Places nobody takes"), listing.unawarded),
    ]


def totals_table(listing) -> ExportTable:
    columns = [
        Column("what", _("Total"), width=30),
        Column("amount", _("Amount"), "decimal", width=14, number_format=EURO_FORMAT),
    ]
    rows = [{"what": what, "amount": amount} for what, amount in totals(listing)]
    rows += [{"what": note} for note in listing.notes + listing.warnings]
    return ExportTable(_("Totals"), columns, rows, sheet_name=str(_("Totals")))


@register
class PrizeListExporter(Exporter):
    slug = "prize-list"
    name = gettext_lazy("Prize list")
    scope = "event"
    permission = ORGANISER
    description = gettext_lazy(
        "Who wins which prize under the prize plan: place, name, club, standing, prize and "
        "amount, with a column to sign for receipt, and the totals (paid out, pot, left over)."
    )
    template = "prizes/plan/print.html"

    def header_text(self, event):
        return event.name

    def title(self, event):
        return _("Prize list") + f" – {event}"

    def tables(self, event) -> list[ExportTable]:
        listing = prize_list(event, include_entered=True)
        return [list_table(listing), totals_table(listing)]

    def context(self, event, *, base_url: str = ""):
        listing = prize_list(event, include_entered=True)
        return {
            "listing": listing,
            "rows": [
                {
                    "place": r.place,
                    "name": r.name,
                    "club": r.club,
                    "standing": r.standing,
                    "prize": r.prize,
                    "amount": format_euro(r.amount) if r.amount else "",
                }
                for r in listing.rows
            ],
            "totals": [(what, format_euro(amount)) for what, amount in totals(listing)],
            "facts": event_facts(event),
            "provisional": listing.provisional,
        }

    def expected_pages(self, event) -> int:
        return 1
