"""The laptop's live state in one German line (the event page and "Live veröffentlichen"):
"live: zuletzt gesendet 14:32:05 · 0 Änderungen warten", "keine Verbindung seit 14:20 ·
37 Änderungen warten", or the server's refusal."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from live.laptop.outbox import waiting
from live.models import LiveLink

# A push that should have happened by now (the laptop was stopped between a change's commit
# and its wake-up): the page showing the state asks the worker again.
NUDGE_AFTER = timedelta(seconds=30)


@dataclass(frozen=True)
class LinkStatus:
    text: str
    level: str  # "ok", "waiting", "failing", "refused", "off"
    waiting: int


def _waiting_text(count: int) -> str:
    return ngettext("%(count)s change waiting", "%(count)s changes waiting", count) % {
        "count": count
    }


def link_status(link: LiveLink | None, *, now=None) -> LinkStatus | None:
    if link is None:
        return None
    now = now or timezone.now()
    count = waiting(link)
    tail = _waiting_text(count)
    if link.refused:
        text = _("live: refused by the server – %(reason)s") % {"reason": link.refused}
        return LinkStatus(f"{text} · {tail}", "refused", count)
    if not link.enabled:
        return LinkStatus(f"{_('live: sending stopped')} · {tail}", "off", count)
    if link.failing_since:
        since = time_format(timezone.localtime(link.failing_since), "H:i")
        text = _("no connection since %(time)s") % {"time": since}
        return LinkStatus(f"{text} · {tail}", "failing", count)
    if link.last_sent_at:
        at = time_format(timezone.localtime(link.last_sent_at), "H:i:s")
        text = _("live: last sent %(time)s") % {"time": at}
        level = "ok" if count == 0 else "waiting"
    else:
        text, level = _("live: nothing sent yet"), "waiting"
    if level == "waiting" and (link.last_sent_at is None or now - link.last_sent_at > NUDGE_AFTER):
        from live.laptop.sender import schedule_push

        schedule_push(link.event_id, wake=True)
    return LinkStatus(f"{text} · {tail}", level, count)
