"""Export: the entry fee list of an event (Startgeldliste) for the cash box: name, club,
amount, status, who took it and when; the cash summary below. Registered with the
exporter registry by `prizes.apps.PrizesConfig.ready` (scoring never imports prizes)."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.permissions import ORGANISER
from prizes.fees import selectors
from prizes.models import EntryPayment
from scoring.exports.registry import Exporter, register
from scoring.exports.tables import Column, ExportTable

EURO_FORMAT = '#,##0.00 "€"'


def _when(row) -> str:
    if row.recorded_at is None:
        return ""
    # Day and time: an event's payments fall within its few days ("25.11. 20:00").
    when = formats.date_format(timezone.localtime(row.recorded_at), _("d.m. H:i"))
    return when.replace(" ", "\N{NO-BREAK SPACE}")  # one line in the narrow column


def _status(row) -> str:
    text = row.status_label
    if row.withdrawn_from_series:
        text += " · " + _("withdrawn from series %(number)d") % {
            "number": row.withdrawn_from_series
        }
    if row.disqualified:
        text += " · " + _("disqualified")
    return text


@register
class EntryFeeExporter(Exporter):
    slug = "entry-fees"
    name = gettext_lazy("Entry fee list")
    scope = "event"
    permission = ORGANISER
    description = gettext_lazy(
        "Every participant with the entry fee: amount, paid in cash or by transfer, waived "
        "or open, who took it and when; the cash summary."
    )

    def header_text(self, event):
        return event.name

    def tables(self, event) -> list[ExportTable]:
        rows = selectors.payment_rows(event)
        summary = selectors.summarise(rows)
        columns = [
            # Who and when apart: each fits its column, one line per participant.
            Column("name", _("Name"), width=24),
            Column("club", _("Club"), width=11),
            Column("amount", _("Amount (€)"), "decimal", width=10, number_format=EURO_FORMAT),
            Column("status", _("Status"), width=22),
            Column("who", _("Who"), width=12),
            Column("when", _("When"), width=12),
        ]
        out = [
            {
                "name": row.name,
                "club": row.club,
                # What was taken (or waived); for the open ones what they owe now.
                "amount": row.due if row.status == EntryPayment.Status.OPEN else row.amount,
                "status": _status(row),
                "who": str(row.recorded_by or "") if row.recorded_at else "",
                "when": _when(row),
            }
            for row in rows
        ]
        footer = {"name": _("Collected"), "amount": summary.collected}
        totals = [
            (_("Collected"), summary.collected, summary.paid_count),
            (_("in cash"), summary.cash, summary.cash_count),
            (_("by transfer"), summary.transfer, summary.transfer_count),
            (_("Waived"), summary.waived, summary.waived_count),
            (_("Still owed"), summary.owed, summary.open_count),
        ]
        summary_table = ExportTable(
            _("Cash summary"),
            [
                Column("what", _("Item"), width=20),
                Column("amount", _("Amount (€)"), "decimal", width=12, number_format=EURO_FORMAT),
                Column("count", _("Participants"), "int", width=12),
            ],
            [{"what": what, "amount": amount, "count": count} for what, amount, count in totals],
            same_page=True,  # five lines below the list, not a page of their own
        )
        return [ExportTable(_("Entry fee list"), columns, out, footer), summary_table]
