"""Pages of an event received from a laptop (``live.models.ReceivedEvent``) say so:

{% live_stand event %}: "live aus dem Saal, Stand 14:32" while the laptop owns the event,
else "" (one query): the public page and the hall display. The public page is cached per
results version, and every applied batch raises it, so the time follows.

{% live_received_box event %}: the event page's box: the state for everyone who may see the
page, and "Übernehmen" for the club's directors (one query; none of it for other events).
"""

from django import template
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, has_role
from live.models import ReceivedEvent
from live.server_services import clock, owner_text, received_for, taken_over_message

register = template.Library()


@register.simple_tag
def live_stand(event) -> str:
    pushed = (
        ReceivedEvent.objects.filter(event_id=event.pk, owner=ReceivedEvent.Owner.LAPTOP)
        .values_list("last_push_at", flat=True)
        .first()
    )
    if pushed is None:
        return ""
    return _("live from the hall, as of %(time)s") % {"time": clock(pushed)}


@register.inclusion_tag("live/server_event_box.html", takes_context=True)
def live_received_box(context, event):
    received = received_for(event)
    if received is None:
        return {"received": None}
    user = context.get("user") or getattr(context.get("request"), "user", None)
    director = user is not None and has_role(user, event.club_id, ORGANISER)
    laptop = received.owner == ReceivedEvent.Owner.LAPTOP
    return {
        "received": received,
        "event": event,
        "laptop": laptop,
        "stand": clock(received.last_push_at),
        "owner": owner_text(received) if laptop else "",
        "taken_over": "" if laptop else taken_over_message(received),
        "can_take_over": director and laptop,
    }
