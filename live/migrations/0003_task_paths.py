"""Tasks still queued when this version is installed keep working: their task moved module
(issue 35, the house), and the worker finds a task by its dotted path."""

from django.db import migrations

MOVED = (
    ("live.sender.push_live", "live.laptop.sender.push_live"),
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
        ("live", "0002_handback"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(forward, backward)]
