"""The hall bench's slow saves, each beside the task worker's jobs and the backups written then
(bench.load.slow_saves): what the run's maximum waited for."""

import os
from datetime import UTC, datetime

import pytest
from django_tasks_db.models import DBTaskResult

from bench.load.slow_saves import slow_saves

pytestmark = pytest.mark.django_db

T0 = 1_800_000_000.0  # the first save's start (time.time())


def _job(path: str, begun: float, ended: float) -> None:
    at = datetime.fromtimestamp
    DBTaskResult.objects.create(
        task_path=path, args_kwargs={}, backend_name="default", run_after=at(begun, UTC),
        started_at=at(begun, UTC), finished_at=at(ended, UTC), status="SUCCESSFUL",
    )  # fmt: skip


def test_a_slow_save_names_the_job_and_the_backup_beside_it(tmp_path):
    _job("scoring.exports.prerender.prerender_standings", T0 + 9.5, T0 + 12.0)
    _job("scoring.exports.prerender.prerender_standings", T0 + 30.0, T0 + 32.0)  # not beside
    archive = tmp_path / "events" / "e1_20261203-170000Z_r5-s9_event.json"
    archive.parent.mkdir()
    archive.write_text("{}")
    os.utime(archive, (T0 + 11.5, T0 + 11.5))
    copy = tmp_path / "database" / "romme_20261203-170100Z.sqlite3"
    copy.parent.mkdir()
    copy.write_text("")
    os.utime(copy, (T0 + 50.0, T0 + 50.0))  # long after
    saves = [(T0, 0.04), (T0 + 10.0, 1.16), (T0 + 20.0, 0.6), (T0 + 21.0, 0.49)]

    director = [(T0 + 9.0, 1.2), (T0 + 12.0, 0.05)]  # the first overlaps the slow save

    lines = slow_saves(saves, tmp_path, director)

    assert lines == [
        "slow save at 10.0 s: 1160 ms; beside it: the director's sheet save 9.0 s, 1200 ms; "
        "prerender_standings 9.5-12.0 s; backup events written at 11.5 s",
        "slow save at 20.0 s: 600 ms; beside it: no sheet, no task and no backup",
    ]


def test_no_slow_save_no_line(tmp_path):
    assert slow_saves([(T0, 0.1), (T0 + 1, 0.49)], tmp_path / "none") == []
