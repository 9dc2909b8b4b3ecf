"""Pages of an event received from a laptop (``live.models.ReceivedEvent``) say so:

{% live_stand event %}: "live aus dem Saal, Stand 14:32" while the laptop owns the event,
else "" (one query): the public page and the hall display. The public page is cached per
results version, and every applied batch raises it, so the time follows.

{% live_received_box event %}: the event page's box: the state for everyone who may see the
page, and "Übernehmen", "An einen Laptop zurückgeben" or "Rückgabe abbrechen" for the club's
directors (one query, one more for a received event; none of it for other events).
"""

from django import template
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, has_role
from live.models import HandBack, ReceivedEvent
from live.server.services import (
    clock,
    handed_back_message,
    owner_text,
    received_for,
    taken_over_message,
    waiting_handback,
)

register = template.Library()


@register.simple_tag
def live_stand(event) -> str:
    pushed = (
        ReceivedEvent.objects.filter(event_id=event.pk, owner=ReceivedEvent.Owner.LAPTOP)
        # Given back but not yet sent by the laptop: the server's copy, not live.
        .exclude(handbacks__state=HandBack.State.PENDING)
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
    waiting = waiting_handback(received) if laptop else None
    return {
        "received": received,
        "event": event,
        "laptop": laptop and waiting is None,
        "stand": clock(received.last_push_at),
        "owner": owner_text(received) if laptop else "",
        "taken_over": "" if laptop else taken_over_message(received),
        "handed_back": handed_back_message(waiting) if waiting else "",
        "can_take_over": director and laptop and waiting is None,
        "can_hand_back": director and not laptop,
        "can_cancel": director and waiting is not None,
    }
