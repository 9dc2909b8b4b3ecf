"""{% public_prizes_url event as url %}: the public prize page of an event when its plan
shows the winners, else "" (one query). Lets the public standings page (scoring's
template) link to it without scoring importing prizes."""

from django import template
from django.urls import reverse

from prizes.models import PrizePlan

register = template.Library()


@register.simple_tag
def public_prizes_url(event) -> str:
    shown = (
        PrizePlan.objects.filter(event_id=event.pk, public_winners=True).exclude(prizes=[]).exists()
    )
    return reverse("prizes:public_prizes", args=[event.pk]) if shown else ""
