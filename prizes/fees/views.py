"""The entry fee page (Startgeld) of an event, for its directors: the fees, the cash
summary, every participant with what they owe and quick buttons to record a payment.

Thin: the form reads the typed amounts, `prizes.fees.services` checks and writes,
`prizes.fees.selectors` reads. Directors only (organisers of the event's club), on GET too.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubs.permissions import ORGANISER, require_role
from common.forms import add_validation_errors
from common.money import format_euro
from common.safety import safe_next
from prizes.fees import selectors, services
from prizes.fees.forms import FeeForm, initial_fees
from prizes.fees.tables import PaymentTable
from prizes.models import EntryPayment
from tournaments.models import Category, Event, Participant


@login_required
def fees_page(request, pk):
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require_role(request.user, event.club, ORGANISER)
    categories = list(Category.objects.filter(event=event).order_by("order", "pk"))
    schedule = selectors.fee_schedule(event)
    form = FeeForm(request.POST or None, categories=categories, initial=initial_fees(schedule))
    if request.method == "POST" and form.is_valid():
        try:
            change = services.set_fees(
                request.user,
                event,
                general=form.cleaned_data["general"],
                categories=form.category_values(),
            )
        except ValidationError as error:
            add_validation_errors(form, error)
        else:
            if change.changed:
                messages.success(request, _("The entry fees are saved."))
            else:
                messages.info(request, _("The entry fees are unchanged."))
            for text in change.messages:
                messages.warning(request, text)
            return redirect("prizes:fees", pk=event.pk)
    rows = selectors.payment_rows(event)
    summary = selectors.summarise(rows)
    only_open = request.GET.get("open") == "1"
    table = PaymentTable([r for r in rows if r.owes] if only_open else rows)
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "prizes/fees/fees.html",
        {
            "event": event,
            "form": form,
            "summary": summary,
            "table": table,
            "only_open": only_open,
            "statuses": EntryPayment.Status,
            "fee_set": schedule.general is not None or bool(schedule.by_category),
        },
    )


@login_required
@require_POST
def payment_set(request, pk):
    """A quick button of a row: cash, transfer, waived or open again (the page reloads
    without JavaScript; `next` brings the director back to the same list)."""
    participant = get_object_or_404(
        Participant.objects.select_related("event__club", "player"), pk=pk
    )
    require_role(request.user, participant.event.club, ORGANISER)
    try:
        payment = services.record_payment(
            request.user,
            participant,
            request.POST.get("status", ""),
            request.POST.get("note", ""),
            seen=request.POST.get("seen", ""),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("%(name)s: %(status)s (%(amount)s).")
            % {
                "name": participant.player,
                "status": payment.get_status_display(),
                "amount": format_euro(payment.amount),
            },
        )
    fallback = reverse("prizes:fees", args=[participant.event_id])
    return redirect(f"{safe_next(request, fallback)}#fee-{participant.pk}")
