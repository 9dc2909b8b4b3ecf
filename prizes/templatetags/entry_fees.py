"""The entry fee beside the check-in on the event page (a tournaments template), without
tournaments importing prizes: ``{% load entry_fees %}{% entry_fee_states event as fee_states %}``
reads every participant's fee state once (a fixed number of queries, directors only: {}
for anyone else), and the check-in cell includes ``prizes/fees/checkin_fee.html``, which
looks its row up with ``fee_states|fee_row:record.pk``."""

from django import template

from clubs.permissions import ORGANISER, has_role
from prizes.fees.selectors import payment_rows

register = template.Library()


@register.simple_tag(takes_context=True)
def entry_fee_states(context, event) -> dict:
    request = context.get("request")
    if request is None or not has_role(request.user, event.club, ORGANISER):
        return {}
    return {row.participant_id: row for row in payment_rows(event)}


@register.filter
def fee_row(states, pk):
    return states.get(pk) if states else None
