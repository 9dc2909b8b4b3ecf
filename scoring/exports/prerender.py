"""The standings PDF ready at the click: rendered by a task worker once the results settle.

After the last confirmation of a series the director prints the standings for the wall; for
400 players that PDF takes seconds to lay out. So every change of an event's results
version (``tournaments.results.results_changed``, sent after the write has committed) asks
for a render: one task per event; a further change leaves a waiting one as it is. A change
after a still spell (the previous version's file was stored at least
``STANDINGS_PRERENDER_SETTLE`` seconds before it) is rendered at once: the director who
clicks ten seconds after a confirmation gets the file (issue 38). A change within the
settle time of the one before is part of a run of confirmations: the render waits until the
results have been still for the settle time, so the run renders once, when it stops.
The worker renders the director's standings PDF (every confirmed sheet, published or not:
the only variant of the ``standings`` export) in each of ``STANDINGS_PRERENDER_LANGUAGES``
and keeps it in the database (``PrerenderedExport``), so every app server can answer with it.

The click (``scoring.exports.views``) serves the stored file only when it was rendered from
the event's current results version and the same seats still waiting for a confirmed sheet
(a seating draw changes the "provisional" column without a new version), in the reader's
language. While a worker is rendering it from the current results the click waits for that
file (``STANDINGS_PRERENDER_WAIT`` seconds at most) instead of laying the PDF out a second
time beside it; otherwise it renders as before. A stale file is never served.

Only events with at least ``STANDINGS_PRERENDER_MIN_PARTICIPANTS`` participants are
rendered ahead (a club evening's PDF takes well under a second anyway), and only with a
task backend that can run a task later (the database backend of ``make run``, ``make
serve-prod`` and the hall mode); a backend without a clock renders nothing ahead.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django_tasks import TaskResultStatus, task

from scoring.exports.exporters.standings import pending_series
from scoring.exports.registry import SCOPES, get_exporter
from scoring.exports.rendering import render_export
from scoring.models import ExportJob, PrerenderedExport
from tournaments.models import Event, Participant
from tournaments.results import results_state

logger = logging.getLogger(__name__)

# (exporter, format) rendered ahead: the director's standings PDF.
PRERENDERED = frozenset({("standings", "pdf")})
SLUG, FMT = "standings", "pdf"
DEFAULT_SETTLE_S = 3.0
DEFAULT_WAIT_S = 10.0
POLL_S = 0.2
DEFAULT_LANGUAGES = ("de",)  # English too: ("de", "en"), a second full render
DEFAULT_MIN_PARTICIPANTS = 100
TASK_RESULTS_KEPT = timedelta(hours=1)


def settle_seconds() -> float | None:
    """Seconds the results must stay still before the render; None: nothing is rendered
    ahead (setting ``STANDINGS_PRERENDER_SETTLE`` None or negative)."""
    value = getattr(settings, "STANDINGS_PRERENDER_SETTLE", DEFAULT_SETTLE_S)
    return None if value is None or value < 0 else float(value)


def languages() -> tuple[str, ...]:
    return tuple(getattr(settings, "STANDINGS_PRERENDER_LANGUAGES", DEFAULT_LANGUAGES))


def min_participants() -> int:
    return int(getattr(settings, "STANDINGS_PRERENDER_MIN_PARTICIPANTS", DEFAULT_MIN_PARTICIPANTS))


def seating_key(event_id: int) -> str:
    """A digest of the seats still waiting for a confirmed sheet (`pending_series`, what the
    PDF's "provisional" column shows); 1 query."""
    pending = sorted((pid, sorted(numbers)) for pid, numbers in pending_series(event_id).items())
    return hashlib.sha256(repr(pending).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class StoredFile:
    content: bytes
    filename: str
    content_type: str


def fresh_file(slug: str, event, fmt: str, language: str | None) -> StoredFile | None:
    """The stored file of `event`'s export if it was rendered from the results the event
    has now, in `language`; else None (3 queries)."""
    if (slug, fmt) not in PRERENDERED or settle_seconds() is None or not language:
        return None
    state = results_state(event.pk)
    if state is None:
        return None
    row = (
        PrerenderedExport.objects.filter(
            event_id=event.pk,
            exporter=slug,
            fmt=fmt,
            language=language,
            results_version=state[0],
            seating=seating_key(event.pk),
        )
        .values_list("content", "filename", "content_type")
        .first()
    )
    return None if row is None else StoredFile(bytes(row[0]), row[1], row[2])


def _rendering_since(event_id: int, since) -> bool:
    """Whether a worker is rendering the event's PDF and started after `since`."""
    from django_tasks_db.models import DBTaskResult

    running = DBTaskResult.objects.filter(
        task_path=prerender_standings.module_path,
        status=TaskResultStatus.RUNNING,
        args_kwargs__kwargs__event_id=event_id,
    )
    if since is not None:
        running = running.filter(started_at__gte=since)
    return running.exists()


def fresh_file_soon(slug: str, event, fmt: str, language: str | None) -> StoredFile | None:
    """`fresh_file`, or, while a worker is rendering it from the current results (it started
    after the last change), that file as soon as it is stored: waiting for the rest of a
    render is quicker than laying the PDF out a second time beside it (two cores). At most
    ``STANDINGS_PRERENDER_WAIT`` seconds; None when nothing fresh comes."""
    stored = fresh_file(slug, event, fmt, language)
    if stored is not None or (slug, fmt) not in PRERENDERED or settle_seconds() is None:
        return stored
    if not isinstance(prerender_standings.get_backend(), _database_backend()):
        return None
    state = results_state(event.pk)
    deadline = time.monotonic() + getattr(settings, "STANDINGS_PRERENDER_WAIT", DEFAULT_WAIT_S)
    while state is not None and _rendering_since(event.pk, state[1]):
        if time.monotonic() > deadline:
            return None
        time.sleep(POLL_S)
        stored = fresh_file(slug, event, fmt, language)
        if stored is not None:
            return stored
    return fresh_file(slug, event, fmt, language)


def render_at_click(slug: str, event, fmt: str, render) -> tuple[bytes, str, str]:
    """`render()` (the click's own layout, no fresh file being there), kept as the worker
    keeps its render (`_store`, labelled with the results and seats read before it): the
    render still waiting in the queue then skips it, and the next click gets it at once."""
    language = translation.get_language()
    if (slug, fmt) not in PRERENDERED or settle_seconds() is None or language not in languages():
        return render()
    state, key = results_state(event.pk), seating_key(event.pk)
    started = time.perf_counter()
    rendered = render()
    if state is not None:
        _store(event.pk, language, state[0], key, rendered, time.perf_counter() - started)
    return rendered


def _database_backend():
    from django_tasks_db.backend import DatabaseBackend

    return DatabaseBackend


def finished_job(user, slug: str, event, fmt: str, language: str, stored: StoredFile) -> str:
    """An export job born finished, holding `stored`: the menu's job button answers with it
    at once (its progress bar shows "Ready" and the download at the first poll)."""
    import secrets

    job = ExportJob.objects.create(
        id=secrets.token_urlsafe(18),
        user=user,
        exporter=slug,
        scope=SCOPES["event"].name,
        object_id=event.pk,
        fmt=fmt,
        language=language,
        unit="page",
        done=1,
        total=1,
        state=ExportJob.State.DONE,
        filename=stored.filename,
        content_type=stored.content_type,
        content=stored.content,
        size=len(stored.content),
    )
    return job.pk


# ----- asking for a render ---------------------------------------------------------------


def _postpone_waiting(event_id: int, when: datetime) -> bool:
    """Move the event's render that is still waiting in the database queue to `when`;
    False if none waits (or the backend is not the database's)."""
    from django_tasks_db.models import DBTaskResult

    if not isinstance(prerender_standings.get_backend(), _database_backend()):
        return False
    moved = DBTaskResult.objects.filter(
        task_path=prerender_standings.module_path,
        status=TaskResultStatus.READY,
        args_kwargs__kwargs__event_id=event_id,
    ).update(run_after=when)
    return moved > 0


def schedule(event_id: int, when: datetime) -> bool:
    """Ask for the event's render at `when`. A render still waiting is moved instead of
    queueing another. False if nothing is rendered ahead."""
    settle = settle_seconds()
    if settle is None or not prerender_standings.get_backend().supports_defer:
        return False
    if not _postpone_waiting(event_id, when):
        prerender_standings.using(run_after=when).enqueue(event_id=event_id)
    return True


def _asks_for_render(event_id: int) -> bool:
    """Whether a change of the event's results asks for a render: the event has at least
    ``min_participants()`` participants and no render of it waits in the database queue yet.
    One read (issue 38: each round trip after the commit counts in the director's save +
    confirm; on PostgreSQL over TCP two cost about 0.2-0.7 ms more than one)."""
    from django_tasks_db.models import DBTaskResult

    participants = (
        Participant.objects.filter(event_id=OuterRef("pk"))
        .order_by()
        .values("event_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    if isinstance(prerender_standings.get_backend(), _database_backend()):
        waiting = Exists(
            DBTaskResult.objects.filter(
                task_path=prerender_standings.module_path,
                status=TaskResultStatus.READY,
                args_kwargs__kwargs__event_id=event_id,
            )
        )
    else:
        waiting = Value(False)
    row = (
        Event.objects.filter(pk=event_id)
        .annotate(participant_count=Coalesce(Subquery(participants), 0), render_waiting=waiting)
        .values_list("participant_count", "render_waiting")
        .first()
    )
    if row is None:
        return False
    count, render_waiting = row
    return count >= min_participants() and not render_waiting


def on_results_changed(sender, *, event_id: int, **_kwargs) -> None:
    """Receiver of ``tournaments.results.results_changed`` (connected in ``scoring.apps``).

    A render waiting already is left as it is: when due, it finds the newer change and waits
    again (`prerender_standings`). Moving it instead was a write, a commit of its own after
    every confirmation (issue 38: +13 ms of the director's save + confirm on SQLite)."""
    if settle_seconds() is None or not prerender_standings.get_backend().supports_defer:
        return
    if _asks_for_render(event_id):
        schedule(event_id, timezone.now())  # the task decides whether to wait (`_after_still`)


# ----- the render ------------------------------------------------------------------------


def _store(event_id: int, language: str, version: int, key: str, rendered, seconds: float):
    """Keep a rendered file unless a newer version of it is stored already."""
    content, filename, content_type = rendered
    values = {
        "results_version": version,
        "seating": key,
        "filename": filename,
        "content_type": content_type,
        "content": content,
        "size": len(content),
        "seconds": seconds,
        "rendered_at": timezone.now(),
    }
    where = {"event_id": event_id, "exporter": SLUG, "fmt": FMT, "language": language}
    with transaction.atomic():
        row = PrerenderedExport.objects.select_for_update().filter(**where).first()
        if row is None:
            try:
                with transaction.atomic():
                    PrerenderedExport.objects.create(**where, **values)
            except IntegrityError:  # another worker stored it a moment ago
                return False
            return True
        if row.results_version > version:
            return False
        PrerenderedExport.objects.filter(pk=row.pk).update(**values)
        return True


def _remove_old_task_results() -> None:
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.filter(
        task_path=prerender_standings.module_path,
        finished_at__lt=timezone.now() - TASK_RESULTS_KEPT,
    ).delete()


def _after_still(event_id: int, version: int, changed_at: datetime) -> bool:
    """Whether change `version` (at `changed_at`) came after a still spell: the file of the
    version before it was stored at least the settle time earlier. Then it is no confirmation
    of a run, and waiting would only keep the director waiting."""
    settle = timedelta(seconds=settle_seconds() or 0)
    return PrerenderedExport.objects.filter(
        event_id=event_id,
        exporter=SLUG,
        fmt=FMT,
        results_version=version - 1,
        rendered_at__lte=changed_at - settle,
    ).exists()


@task()
def prerender_standings(event_id: int) -> dict:
    """Render the event's standings PDF for its current results (in a worker), unless they
    are still moving (then once more, when they have been still for the settle time)."""
    settle = settle_seconds()
    state = results_state(event_id)
    if settle is None or state is None:
        return {"state": "off" if state else "gone"}
    version, changed_at = state[0], state[1]
    due = None if changed_at is None else changed_at + timedelta(seconds=settle)
    if due is not None and timezone.now() < due and not _after_still(event_id, version, changed_at):
        schedule(event_id, due)
        return {"state": "waiting", "version": version}
    _remove_old_task_results()
    # Version and seats read before the render: a change during it leaves the file labelled
    # with the older state, which is then never served.
    key = seating_key(event_id)
    event = SCOPES["event"].queryset().get(pk=event_id)
    rendered = []
    for language in languages():
        if PrerenderedExport.objects.filter(
            event_id=event_id,
            exporter=SLUG,
            fmt=FMT,
            language=language,
            results_version=version,
            seating=key,
        ).exists():
            continue
        started = time.perf_counter()
        with translation.override(language):
            result = render_export(get_exporter(SLUG).slug, event, FMT)
        if _store(event_id, language, version, key, result, time.perf_counter() - started):
            rendered.append(language)
        current = results_state(event_id)
        if current is None or current[0] != version:
            break  # moved on while rendering: the change has asked for its own render
    return {"state": "rendered", "version": version, "languages": rendered}
