"""SnapshotLine.snapshot without an index of its own (issue 38): the unique (snapshot,
position) serves every look-up by snapshot, and a computation fills one index fewer for its
10,000 rows. The index is dropped by name: on SQLite Django would copy the whole table to
drop it (a federation's snapshots are gigabytes)."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "federation_snapshotline_snapshot_id_bce5a880"  # Django's name for the FK's index


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0008_snapshot_line_json_text"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{INDEX}"',
                    reverse_sql=(
                        f'CREATE INDEX "{INDEX}" ON "federation_snapshotline" ("snapshot_id")'
                    ),
                )
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="snapshotline",
                    name="snapshot",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rows",
                        to="federation.rankingsnapshot",
                    ),
                )
            ],
        ),
    ]
