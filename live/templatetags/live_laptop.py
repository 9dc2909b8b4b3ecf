"""{% live_link_status event as live %}: the laptop's live state of the event (a
`live.laptop.status.LinkStatus`, or None when the event is not sent live; one query), for the
event page (templates/tournaments/event_detail.html) without tournaments importing live."""

from django import template

from live.laptop.status import link_status
from live.models import LiveLink

register = template.Library()


@register.simple_tag
def live_link_status(event):
    return link_status(LiveLink.objects.filter(event_id=event.pk).first())
