"""The laptop's sender (docs/live.md): brings the server up to the event as it is now.

`push(event)` runs in the task worker (`push_live`, asked for in every change's own
transaction by `wake` and again with backoff after a failure; never in a director's
request): it dumps the event's parts (`live.laptop.dumps`), sends the ones whose fingerprint
differs from what the server acknowledged and the keys that no longer exist, in batches of
at most ``BATCH_BYTES`` (all but the last ``final: false``), answering changes
``acked_seq + 1`` … the last change at dump time. A network error, a timeout, 5xx or 429 is
retried 2, 4, 8 s later, then every 8 s (with jitter, at least the server's
``retry_after``), forever, each try while failing first asking the server's status with a
short timeout (a dead network costs the worker little); a refusal that waiting does not
cure (the token, the event taken over) is kept in ``LiveLink.refused`` for the director and
stops the sending. Nothing here ever raises into a caller for a network problem.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import TaskResultStatus, task

from live.laptop import dumps, outbox, transport
from live.models import Installation, LiveChange, LiveLink
from live.shared import protocol

BATCH_BYTES = 2 * 1024 * 1024
TIMEOUT_S = 20.0
# A failing link is asked again at most this often: the server is back within seconds of
# its return (issue 28: a backlog caught up in 30 s). Each try while failing first asks the
# cheap status with PROBE_TIMEOUT_S, so a dead network holds the worker only that long.
BACKOFF_MAX_S = 8.0
PROBE_TIMEOUT_S = 4.0
# Pushes of one event start at least this far apart: confirmations that come in a burst go
# in one push, and the worker leaves the laptop's CPU to the director in between (bench:
# with a push after every confirmation the worker pushed 82 % of the time).
PUSH_GAP_S = 2.0
# A push still waiting this long after its time has no worker running it (or its marker
# outlived it): the next change asks the task table itself (`schedule_push`).
PUSH_OVERDUE_S = 60.0
# A push that sent something asks for a follow-up PUSH_GAP_S later, and so on while the link
# sent something within this time: during play a change then finds a push waiting.
FOLLOW_UP_S = 30.0
TASK_RESULTS_KEPT = timedelta(hours=1)
REMOVE_EVERY_S = 600.0
# Kinds of parts in the order a server can apply them: the event and its people first,
# then the series with their tables, then the sheets at those tables.
_RANK = {protocol.EVENT: 0, protocol.ROSTER: 1, protocol.SERIES: 2, protocol.SHEET: 3}


@dataclass
class PushResult:
    """What one push did. state: "done" (the server holds everything), "nothing" (it
    already did), "retry" (try again in ``retry_in`` s), "refused" (waiting does not help)
    or "off" (no enabled link)."""

    state: str
    last_seq: int = 0
    sent: int = 0  # parts sent
    removed: int = 0  # keys sent as removed
    batches: int = 0
    retry_in: float | None = None
    message: str = ""
    more: bool = False  # changes came in while sending: push again at once
    keys: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.state in ("done", "nothing")

    def as_dict(self) -> dict:
        return asdict(self)


# ----- transport ---------------------------------------------------------------------------


def endpoint(link: LiveLink, path: str) -> str:
    return link.server_url.strip().rstrip("/") + path


def status_url(link: LiveLink, origin: str) -> str:
    query = urllib.parse.urlencode({"origin": origin, "event": link.event_id})
    return endpoint(link, protocol.STATUS_PATH) + "?" + query


def origin_key() -> str:
    installation = Installation.objects.order_by("pk").first()
    if installation is None:
        installation, _created = Installation.objects.get_or_create(pk=1)
    return installation.key


# ----- the push ------------------------------------------------------------------------------


def _rank(key: str) -> tuple:
    kind, args = protocol.parse_key(key)
    return (_RANK.get(kind, 4), args)


def split_batches(parts: dict, keys: list[str], limit: int = BATCH_BYTES) -> list[list[str]]:
    """``keys`` (in the order to apply) in groups of at most ``limit`` bytes of JSON; a part
    larger than that travels alone. Always at least one group (maybe empty)."""
    batches: list[list[str]] = [[]]
    size = 0
    for key in keys:
        part_size = len(json.dumps(parts[key], ensure_ascii=False).encode("utf-8")) + len(key)
        if batches[-1] and size + part_size > limit:
            batches.append([])
            size = 0
        batches[-1].append(key)
        size += part_size
    return batches


def _clean(text, limit: int = 300) -> str:
    text = "".join(ch if ch.isprintable() else " " for ch in str(text or ""))
    return text.strip()[:limit]


def backoff_seconds(failures: int, retry_after=None) -> float:
    """2, 4, 8 s after the 1st, 2nd, 3rd failure in a row, then every BACKOFF_MAX_S, ±20 %
    (never two laptops in step), and at least what the server asked for."""
    base = min(BACKOFF_MAX_S, 2.0 ** max(1, failures))
    delay = base * random.uniform(0.8, 1.2)
    try:
        asked = float(retry_after) if retry_after is not None else 0.0
    except (TypeError, ValueError):
        asked = 0.0
    return round(min(max(delay, min(asked, 3600.0)), 3600.0), 2)


def _failed(link: LiveLink, message: str, now: datetime, retry_after=None) -> PushResult:
    failures = link.failures + 1
    LiveLink.objects.filter(pk=link.pk).update(
        failures=failures,
        failing_since=link.failing_since or now,
        last_error=_clean(message),
    )
    return PushResult(
        "retry",
        last_seq=link.acked_seq,
        retry_in=backoff_seconds(failures, retry_after),
        message=_clean(message),
    )


def _refused(link: LiveLink, answer: dict, status: int) -> PushResult:
    text = _clean(answer.get("error")) or _("The server refused the token (HTTP %(status)s).") % {
        "status": status
    }
    link.refused = text
    link.save(update_fields=["refused"])  # with history: the director's log shows it
    return PushResult("refused", last_seq=link.acked_seq, message=text)


def _changed(dumped: dumps.Dump, sent_parts: dict) -> list[str]:
    """The keys of the parts the server lacks as they are, in the order to apply them."""
    prints = dumped.prints
    return sorted((k for k in dumped.parts if sent_parts.get(k) != prints[k]), key=_rank)


def push(
    event, *, now: datetime | None = None, timeout: float = TIMEOUT_S, marked: bool = False
) -> PushResult:
    """Send what the server lacks of ``event`` (see the module's docstring). ``marked``:
    the worker's push (`push_live`), whose running ``LiveLink.push_after`` marks: the
    acknowledgement clears it unless changes came in meanwhile (``more``)."""
    now = now or timezone.now()
    link = LiveLink.objects.filter(event_id=event.pk).first()
    if link is None or not link.enabled:
        return PushResult("off", message=_("Live publishing is switched off for this event."))
    if link.refused:
        return PushResult("refused", last_seq=link.acked_seq, message=link.refused)
    problem = transport.url_problem(link.server_url)
    if problem:
        return PushResult("refused", last_seq=link.acked_seq, message=problem)

    if link.failures:
        try:
            transport.get_json(status_url(link, origin_key()), link.token, PROBE_TIMEOUT_S)
        except (OSError, ValueError) as error:
            return _failed(link, _network_message(error), now)
    sent_parts = link.sent_parts if isinstance(link.sent_parts, dict) else {}
    dumped = dumps.dump(event, link, sent_parts)
    changed = _changed(dumped, sent_parts)
    to_seq = dumped.next_seq - 1
    if to_seq <= link.acked_seq:
        if not changed and not dumped.removed:
            _clear_failures(link, now, touch=False)
            return PushResult("nothing", last_seq=link.acked_seq)
        # Parts differ without a numbered change (sending was off, the first push, a
        # restored server): number one, so the server's count moves with the content.
        numbered = outbox.allocate_change(event.pk)
        if numbered is None:
            return PushResult("off", message=_("Live publishing is switched off for this event."))
        to_seq = numbered
        if numbered != dumped.next_seq:
            # Changes came in between the dump and this number, which stands for them too:
            # the parts must hold them (CI once lost a sheet confirmed then). The change just
            # numbered names no sheet, so this dump is the whole event's.
            dumped = dumps.dump(event, link, sent_parts)
            changed, to_seq = _changed(dumped, sent_parts), dumped.next_seq - 1
    parts, prints, removed = dumped.parts, dumped.prints, dumped.removed

    origin = origin_key()
    url = endpoint(link, protocol.BATCHES_PATH)
    batches = split_batches(parts, changed, BATCH_BYTES)
    for number, keys in enumerate(batches, start=1):
        final = number == len(batches)
        payload = {
            "protocol": protocol.PROTOCOL,
            "version": protocol.VERSION,
            "origin": origin,
            "event": event.pk,
            "from_seq": link.acked_seq + 1,
            "to_seq": to_seq,
            "final": final,
            "parts": [{"key": key, "data": parts[key]} for key in keys],
            "removed": removed if final else [],
        }
        try:
            status, answer = transport.post_json(url, link.token, payload, timeout)
        except (OSError, ValueError) as error:  # URLError, timeouts, refused connections
            return _failed(link, _network_message(error), now)
        if status == 200 and not final:
            continue
        if status == 200:
            return _acknowledged(
                link, answer, to_seq, prints, changed, removed, now, batches, marked
            )
        code = answer.get("code")
        if status == 409 and code == protocol.GAP:
            return _gap(link, answer, now)
        if (status == 409 and code == protocol.TAKEN_OVER) or status in (401, 403):
            return _refused(link, answer, status)
        if status == 429:
            return _failed(
                link,
                _("The server asks to wait (too many requests)."),
                now,
                answer.get("retry_after"),
            )
        if status >= 500:
            return _failed(
                link, _("The server has a fault (HTTP %(status)s).") % {"status": status}, now
            )
        # 400, 413, anything else: the server cannot take it as it is; try again later
        # (a newer program on either side may), and say why.
        reason = _clean(answer.get("error"), 200)
        message = _("The server did not accept the changes (HTTP %(status)s).") % {"status": status}
        return _failed(link, f"{message} {reason}".strip(), now)
    raise AssertionError("unreachable: the last batch is final")


def _network_message(error: Exception) -> str:
    reason = getattr(error, "reason", error)
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return _("No connection: the server did not answer in time.")
    return _("No connection to the server.")


def _clear_failures(link: LiveLink, now: datetime, *, touch: bool) -> None:
    values = {"failures": 0, "failing_since": None, "last_error": ""}
    if touch:
        values["last_sent_at"] = now
    if link.failures or link.failing_since or link.last_error or touch:
        LiveLink.objects.filter(pk=link.pk).update(**values)


def _acknowledged(
    link, answer, to_seq, prints, changed, removed, now, batches, marked
) -> PushResult:
    last_seq = answer.get("last_seq")
    if not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0:
        last_seq = to_seq
    sent_parts = dict(link.sent_parts or {})
    for key in changed:
        sent_parts[key] = prints[key]
    for key in removed:
        sent_parts.pop(key, None)
    with transaction.atomic():
        LiveLink.objects.filter(pk=link.pk).update(
            acked_seq=last_seq,
            sent_parts=sent_parts,
            last_sent_at=now,
            failures=0,
            failing_since=None,
            last_error="",
        )
        LiveChange.objects.filter(event_id=link.event_id, seq__lte=last_seq).delete()
        if marked:  # cleared in the same transaction as the reading of what waits
            more = not _unmark(link.event_id, waiting_after=last_seq)
        else:
            next_seq = LiveLink.objects.filter(pk=link.pk).values_list("next_seq", flat=True)
            more = next_seq.get() - 1 > last_seq
    return PushResult(
        "done",
        last_seq=last_seq,
        sent=len(changed),
        removed=len(removed),
        batches=len(batches),
        more=more,
        keys=list(changed),
    )


def _gap(link: LiveLink, answer: dict, now: datetime) -> PushResult:
    """The server holds another number than the laptop thought: go on from the server's.
    Less than acknowledged (a server restored from a backup): send every part again."""
    last_seq = answer.get("last_seq")
    if not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0:
        return _failed(link, _("The server's answer could not be read."), now)
    if last_seq == link.acked_seq:  # it asks for what was sent: a server fault, wait
        return _failed(link, _("The server's answer could not be read."), now)
    values = {"acked_seq": last_seq}
    if last_seq < link.acked_seq:
        values["sent_parts"] = {}
    LiveLink.objects.filter(pk=link.pk).update(**values)
    return PushResult("retry", last_seq=last_seq, retry_in=0.0, message="gap", more=True)


# ----- the task --------------------------------------------------------------------------


def _database_backend():
    from django_tasks_db.backend import DatabaseBackend

    return DatabaseBackend


def schedule_push(
    event_id: int, delay: float = 0.0, *, wake: bool = False, none_waiting: bool = False
) -> None:
    """Ask the worker for a push of the event ``delay`` s from now: one waiting task per
    event. A change (``wake``) brings a waiting retry forward only while the link is not
    failing (a dead network is not asked again with every confirmation). With the
    database's queue, ``LiveLink.push_after`` follows the waiting task's time, so that a
    change finds it with its receiver's query (`push_window`); ``none_waiting``: that
    column says no push waits, and the task table is not asked again."""
    now = timezone.now()
    when = now + timedelta(seconds=max(0.0, delay))
    row = LiveLink.objects.filter(event_id=event_id).values_list("last_sent_at", "failures")
    last, failing = row[0] if row else (None, 0)
    if last is not None and last <= now:  # (a clock set back does not hold sending up)
        when = max(when, last + timedelta(seconds=PUSH_GAP_S))
        delay = (when - now).total_seconds()
    backend = push_live.get_backend()
    database = isinstance(backend, _database_backend())
    if database and not none_waiting:
        from django_tasks_db.models import DBTaskResult, get_date_max

        waiting = DBTaskResult.objects.filter(
            task_path=push_live.module_path,
            status=TaskResultStatus.READY,
            args_kwargs__kwargs__event_id=event_id,
        )
        first = waiting.order_by("run_after").values_list("run_after", flat=True).first()
        if first is not None:
            if not wake:
                waiting.update(run_after=when)
                first = when
            elif not failing and first > when:
                waiting.filter(run_after__gt=when).update(run_after=when)
                first = when
            _mark_waiting(event_id, now if first == get_date_max() else first)
            return
    if delay > 0 and backend.supports_defer:
        push_live.using(run_after=when).enqueue(event_id=event_id)
    else:
        push_live.enqueue(event_id=event_id)
    if database:
        _mark_waiting(event_id, when)


def _mark_waiting(event_id: int, when: datetime | None) -> None:
    LiveLink.objects.filter(event_id=event_id).update(push_after=when)


def _sent_lately(event_id: int) -> bool:
    """Whether the link sent something within ``FOLLOW_UP_S``."""
    since = timezone.now() - timedelta(seconds=FOLLOW_UP_S)
    return LiveLink.objects.filter(event_id=event_id, last_sent_at__gte=since).exists()


def _unmark(event_id: int, waiting_after: int | None = None) -> bool:
    """The end of a running push: clear the link's marker, with ``waiting_after`` only
    when no change after that number waits (one statement: a change that commits later
    finds the marker cleared and asks for its push itself). False: the marker stays, the
    caller asks for the next push."""
    links = LiveLink.objects.filter(event_id=event_id)
    if waiting_after is not None:
        links = links.filter(next_seq__lte=waiting_after + 1)
    return bool(links.update(push_after=None))


def push_window() -> list:
    """The bounds (as the database stores them) within which a waiting push counts as
    due: from ``PUSH_OVERDUE_S`` ago to ``PUSH_GAP_S`` from now."""
    adapt, now = connection.ops.adapt_datetimefield_value, timezone.now()
    return [
        adapt(now - timedelta(seconds=PUSH_OVERDUE_S)),
        adapt(now + timedelta(seconds=PUSH_GAP_S)),
    ]


def wake(event_id: int, push_due: int | None) -> None:
    """Inside a change's transaction: ask for a push. ``push_due`` is the receiver's
    reading of ``LiveLink.push_after`` (`push_window`): 1, a push waits to run within
    ``PUSH_GAP_S`` (during play: nearly always) and is left as it is, as `schedule_push`
    would, with no further query; None, none waits. With the database's task queue the
    task row is written in the change's transaction (the director's write commits once,
    and a committed change never lacks its push). Any other backend is asked after the
    commit (an immediate one would push inside the transaction)."""
    if not isinstance(push_live.get_backend(), _database_backend()):
        transaction.on_commit(lambda: schedule_push(event_id, wake=True))
    elif push_due != 1:
        schedule_push(event_id, wake=True, none_waiting=push_due is None)


_last_removal = [0.0]  # this worker's last removal of old task results (monotonic s)
_clock = time.monotonic


def _remove_old_task_results() -> None:
    """At most every ``REMOVE_EVERY_S`` per worker process, not with every push: each
    removal takes the laptop's write lock, which a director's save then waits for."""
    now = _clock()
    if _last_removal[0] and now - _last_removal[0] < REMOVE_EVERY_S:
        return
    _last_removal[0] = now
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.filter(
        task_path=push_live.module_path, finished_at__lt=timezone.now() - TASK_RESULTS_KEPT
    ).delete()


# Its own queue (the hall's "live" worker) and, where one worker takes every queue, before
# the prints and exports waiting there: a push is short and what the hall's audience waits
# for (a confirmation visible in 5 s, issue 28).
@task(priority=50, queue_name="live")
def push_live(event_id: int) -> dict:
    """The worker's push of one event; asks for the next one (backoff, or at once when
    changes came in meanwhile)."""
    from tournaments.models import Event

    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return {"state": "gone"}
    database = isinstance(push_live.get_backend(), _database_backend())
    if database:
        # Marked as running, not cleared: a change while it runs asks for no push of its
        # own (a task row and two queries in the director's save, issue 38); the push's
        # end clears the marker when nothing waits, else asks for the next push.
        _mark_waiting(event_id, timezone.now())
        _remove_old_task_results()
    try:
        result = push(event, marked=database)
    except Exception:
        if database:  # the next change asks for its push again
            _unmark(event_id)
        raise
    if result.state == "retry":
        schedule_push(event_id, result.retry_in or 0.0)
    elif result.more:
        schedule_push(event_id)
    elif database and result.ok and _sent_lately(event_id):
        # A follow-up push, the marker kept: during play the next change finds it waiting
        # and asks for none (a task row and its queries in the director's save, issue 38).
        schedule_push(event_id, PUSH_GAP_S)
    elif database and result.state != "done":
        # Nothing sent ("nothing"), or nowhere to send ("off", "refused").
        waiting_after = result.last_seq if result.ok else None
        if not _unmark(event_id, waiting_after) and result.ok:
            schedule_push(event_id)
    return result.as_dict()
