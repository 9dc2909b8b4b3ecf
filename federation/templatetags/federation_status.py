"""{% ranking_status_box event %}: the event page's box of ranking status for the club's
organisers: the statuses under the rankings and the request form while the event has not
started (templates/tournaments/event_detail.html, without tournaments importing federation).
Nothing (no query) for anyone else."""

from django import template

from clubs.permissions import ORGANISER, has_role
from federation.rankings.forms import StatusRequestForm
from federation.rankings.models import RankingStatus
from federation.rankings.status_services import event_started, rankings_for_club

register = template.Library()


@register.inclusion_tag("federation/rankings/status_box.html", takes_context=True)
def ranking_status_box(context, event):
    user = context.get("user") or getattr(context.get("request"), "user", None)
    if user is None or not has_role(user, event.club_id, ORGANISER):
        return {"statuses": [], "form": None}
    statuses = list(RankingStatus.objects.filter(event=event).select_related("ranking"))
    asked = {s.ranking_id for s in statuses if s.state not in ("refused", "withdrawn")}
    rankings = rankings_for_club(event.club_id).exclude(pk__in=asked)
    form = None
    if rankings.exists() and not event_started(event):
        form = StatusRequestForm(rankings=rankings, auto_id="rs_%s")
    return {
        "statuses": statuses,
        "form": form,
        "event": event,
        "csrf_token": context.get("csrf_token"),
    }
