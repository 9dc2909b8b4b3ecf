"""What ran while the hall's slowest phone saves waited (`python -m bench load --phones --hall`).

A phone's save in the hall waits for SQLite's one write lock and for one of two cores: behind
another request, a task worker's job (the standings PDF rendered ahead and stored) or the
backup loop (an event's archive, a copy of the database). The phones and the director keep
each save's start and length (`PhoneStats.save_times`, `ScorerTally.save_times`); after a pass
this lists the phones' saves of at least ``SLOW_S`` beside the director's sheet saves and the
task worker's jobs that ran then (their start and end in the task results of the pass's
database) and the backups written within a few seconds of them (their files' times), so that
the run's maximum says what it waited for.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

SLOW_S = 0.5
SHOWN = 5
NEAR_S = 3.0  # a backup file written this long before or after a save counts as beside it


def slow_saves(
    save_times: Sequence[tuple[float, float]],
    backup_folder: Path,
    director: Sequence[tuple[float, float]] = (),
) -> list[str]:
    """One line a slow save, the slowest first (at most ``SHOWN``); the pass's database must
    be the connection's."""
    slow = sorted((t for t in save_times if t[1] >= SLOW_S), key=lambda t: -t[1])[:SHOWN]
    if not slow:
        return []
    origin = min(start for start, _ in save_times)
    jobs = _task_runs()
    backups = _backup_files(backup_folder)
    lines = []
    for start, seconds in slow:
        end = start + seconds
        beside = (
            [
                f"the director's sheet save {begin - origin:.1f} s, {took * 1000:.0f} ms"
                for begin, took in director
                if begin < end and begin + took > start
            ]
            + [
                f"{name} {begin - origin:.1f}-{finish - origin:.1f} s"
                for name, begin, finish in jobs
                if begin < end and finish > start
            ]
            + [
                f"backup {name} written at {written - origin:.1f} s"
                for name, written in backups
                if start - NEAR_S <= written <= end + NEAR_S
            ]
        )
        lines.append(
            f"slow save at {start - origin:.1f} s: {seconds * 1000:.0f} ms; beside it: "
            + ("; ".join(beside) or "no sheet, no task and no backup")
        )
    return lines


def _task_runs() -> list[tuple[str, float, float]]:
    from django_tasks_db.models import DBTaskResult

    rows = DBTaskResult.objects.filter(started_at__isnull=False, finished_at__isnull=False)
    return [
        (path.rsplit(".", 1)[-1], begun.timestamp(), ended.timestamp())
        for path, begun, ended in rows.values_list("task_path", "started_at", "finished_at")
    ]


def _backup_files(folder: Path) -> list[tuple[str, float]]:
    if not folder.is_dir():
        return []
    return [(p.parent.name, p.stat().st_mtime) for p in folder.rglob("*") if p.is_file()]
