"""Rule-set changes as tasks: the page queues the change, a worker recomputes.

`change_ruleset` recomputes every result of the event in one transaction; on the large data
set (10,000 hands, 40,000 results) that took 48-86 s on SQLite and 127 s on PostgreSQL on a
loaded 2-core machine (python -m bench recompute, docs/performance-log.md): too long for a
request. `queue_ruleset_change` checks what the form can check at once (role, reason, the
rule set itself) and enqueues `apply_ruleset_change`; the rule-set page shows the change's
state until it is done. Progress is the state only (queued, running, done): the recompute
is one transaction, so a count written inside it would not be seen before the end.
"""

from __future__ import annotations

import secrets

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from clubs.permissions import ORGANISER, require_role
from scoring.models import JOB_STALE_AFTER, RulesetChange
from scoring.sheets import services
from tournaments.models import Event
from tournaments.services import checked_ruleset

PENDING = (RulesetChange.State.QUEUED, RulesetChange.State.RUNNING)
SHOWN_FOR = JOB_STALE_AFTER * 6  # the last change stays on the page for an hour


def latest_change(event: Event) -> RulesetChange | None:
    """The event's last change of the past hour; a pending one gone quiet reads as failed."""
    change = (
        RulesetChange.objects.filter(event=event, created_at__gte=timezone.now() - SHOWN_FOR)
        .order_by("-created_at")
        .first()
    )
    if (
        change is not None
        and change.state in PENDING
        and timezone.now() - change.updated_at > JOB_STALE_AFTER
    ):
        change.state = RulesetChange.State.FAILED
        change.error = _("No background worker answered.")
    return change


def queue_ruleset_change(
    actor, event: Event, slug: str, overrides: dict | None, reason: str
) -> RulesetChange:
    require_role(actor, event.club, ORGANISER)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Changing the rule set needs a reason.")})
    checked_ruleset(slug, overrides)  # the form's errors now, not in the worker
    _remove_old_changes()
    pending = latest_change(event)
    if pending is not None and pending.state in PENDING:
        raise ValidationError(_("A rule-set change is still being applied. Wait until it is done."))
    change = RulesetChange.objects.create(
        id=secrets.token_urlsafe(18),
        event=event,
        user=actor,
        slug=slug,
        overrides=overrides,
        reason=reason,
        language=translation.get_language() or "de",
    )
    result = apply_ruleset_change.enqueue(change.pk)
    RulesetChange.objects.filter(pk=change.pk).update(task_id=str(result.id))
    return change


def _remove_old_changes() -> None:
    """Changes and their finished task results go after an hour (the event's history keeps
    every rule-set change with its reason)."""
    RulesetChange.remove_old(apply_ruleset_change, SHOWN_FOR)


@task()
def apply_ruleset_change(change_id: str) -> dict:
    """Apply one queued change (in a worker); returns the recompute's counts."""
    rows = RulesetChange.objects.filter(pk=change_id)
    change = rows.select_related("event__club", "user").first()
    if change is None:
        return {}
    rows.update(state=RulesetChange.State.RUNNING, updated_at=timezone.now())
    try:
        with translation.override(change.language):
            result = services.change_ruleset(
                change.user, change.event, change.slug, change.overrides, change.reason
            )
    except (ValidationError, PermissionDenied) as error:  # things changed since it was queued
        is_invalid = isinstance(error, ValidationError)
        message = " ".join(error.messages) if is_invalid else str(error)
        rows.update(
            state=RulesetChange.State.FAILED, error=message[:300], updated_at=timezone.now()
        )
        return {}
    except Exception as error:
        rows.update(
            state=RulesetChange.State.FAILED,
            error=type(error).__name__,
            updated_at=timezone.now(),
        )
        raise  # the task result keeps the traceback for the operator
    counts = {
        "changed": result.changed,
        "hand_seats": result.hand_seats,
        "sheets": result.sheets,
        "problems": result.problems,
        "unscorable": result.unscorable,
    }
    rows.update(state=RulesetChange.State.DONE, result=counts, updated_at=timezone.now())
    return counts
