"""A task queued before the house moved its module still runs after the upgrade: the
migrations rewrite the dotted paths of queued tasks, and every new path is a real task."""

import importlib

import pytest
from django.apps import apps
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult

MIGRATIONS = ("live.migrations.0003_task_paths", "federation.migrations.0006_task_paths")


@pytest.mark.parametrize("name", MIGRATIONS)
def test_every_new_path_is_a_task(name):
    for _old, new in importlib.import_module(name).MOVED:
        assert isinstance(import_string(new), Task)


@pytest.mark.django_db
@pytest.mark.parametrize("name", MIGRATIONS)
def test_queued_tasks_follow_their_module(name):
    migration = importlib.import_module(name)
    queued = [
        DBTaskResult.objects.create(
            task_path=old, args_kwargs={"args": [], "kwargs": {}}, backend_name="default",
            run_after=timezone.now(), exception_class_path="", traceback="",
        )
        for old, _new in migration.MOVED
    ]  # fmt: skip
    other = DBTaskResult.objects.create(
        task_path="scoring.exports.jobs.run_export_job", args_kwargs={}, backend_name="default",
        run_after=timezone.now(), exception_class_path="", traceback="",
    )  # fmt: skip

    migration.forward(apps, None)
    assert [DBTaskResult.objects.get(pk=r.pk).task_path for r in queued] == [
        new for _old, new in migration.MOVED
    ]
    assert DBTaskResult.objects.get(pk=other.pk).task_path == "scoring.exports.jobs.run_export_job"

    migration.backward(apps, None)
    assert [DBTaskResult.objects.get(pk=r.pk).task_path for r in queued] == [
        old for old, _new in migration.MOVED
    ]
