"""live.laptop.resume: when the task worker starts, every event whose changes wait gets a push, so
a laptop killed between a commit and its send catches up without anyone opening a page."""

import os
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from live.laptop import sender
from live.laptop.resume import resume_pushes
from live.models import LiveLink
from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


def waiting_pushes():
    return DBTaskResult.objects.filter(
        task_path=sender.push_live.module_path, status=TaskResultStatus.READY
    )


def link(event, **fields):
    return LiveLink.objects.create(
        event=event, server_url="https://ergebnisse.example", token="tok", **fields
    )


def test_only_enabled_unrefused_links_with_waiting_changes_get_a_push():
    waiting = link(EventFactory(), next_seq=5, acked_seq=2)  # changes 3 and 4 wait
    link(EventFactory(), next_seq=5, acked_seq=4)  # all acknowledged
    link(EventFactory(), next_seq=5, acked_seq=2, enabled=False)  # the director stopped it
    link(EventFactory(), next_seq=5, acked_seq=2, refused="Token widerrufen")
    EventFactory()  # never sent live

    assert resume_pushes() == [waiting.event_id]
    pushes = list(waiting_pushes())
    assert [p.args_kwargs["kwargs"]["event_id"] for p in pushes] == [waiting.event_id]


def test_a_push_already_waiting_is_brought_forward_not_doubled():
    waiting = link(EventFactory(), next_seq=3, acked_seq=0, failures=6)
    later = timezone.now() + timedelta(seconds=30)  # a backoff's retry from before the kill
    sender.push_live.using(run_after=later).enqueue(event_id=waiting.event_id)

    assert resume_pushes() == [waiting.event_id]
    (push,) = waiting_pushes()
    assert push.run_after <= timezone.now()


def test_the_hall_live_worker_resumes_before_it_takes_tasks(monkeypatch):
    """romme.hall's "live" child calls resume_pushes, then runs db_worker on the live queue;
    the "worker" child takes the default queue; both workers lower their priority."""
    from romme import hall

    calls = []
    monkeypatch.delenv("HALL_SQLITE_SYNC", raising=False)  # the live child sets it: undone after
    monkeypatch.setattr(hall, "freeze_startup_heap", lambda: calls.append("freeze"))
    monkeypatch.setattr(hall, "_watch_parent", lambda: None)
    monkeypatch.setattr(hall.os, "nice", lambda n: calls.append(("nice", n)), raising=False)
    monkeypatch.setattr("live.laptop.resume.resume_pushes", lambda: calls.append("resume") or [])
    monkeypatch.setattr(
        hall, "_django", lambda: lambda name, **kw: calls.append((name, kw.get("queue_name")))
    )
    assert hall.run_child("live") == 0
    assert calls == [("nice", hall.CHILD_NICENESS), "freeze", "resume", ("db_worker", "live")]
    assert os.environ["HALL_SQLITE_SYNC"] == "NORMAL"  # its commits unsynced (settings)
    monkeypatch.delenv("HALL_SQLITE_SYNC")
    calls.clear()
    assert hall.run_child("worker") == 0
    assert calls == [("nice", hall.CHILD_NICENESS), "freeze", ("db_worker", "default")]
    assert "HALL_SQLITE_SYNC" not in os.environ
    calls.clear()
    hall.run_child("backups")
    assert calls == ["freeze", ("hall_backups", None)]  # the backups keep their priority
