"""Tasks still queued when this version is installed keep working: their task moved module
(issue 35, the house), and the worker finds a task by its dotted path."""

from django.db import migrations

MOVED = (
    ("federation.compute.recompute_ranking", "federation.rankings.compute.recompute_ranking"),
    ("federation.submit_jobs.read_submission", "federation.submissions.jobs.read_submission"),
)


def forward(apps, schema_editor):
    rename(apps, MOVED)


def backward(apps, schema_editor):
    rename(apps, tuple((new, old) for old, new in MOVED))


def rename(apps, pairs):
    results = apps.get_model("django_tasks_database", "DBTaskResult")
    for old, new in pairs:
        results.objects.filter(task_path=old).update(task_path=new)


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0005_snapshot_line_sort_columns"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(forward, backward)]
