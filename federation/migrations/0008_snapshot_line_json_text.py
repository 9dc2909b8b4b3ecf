"""A snapshot line's JSON kept as text (common.json_text): PostgreSQL no longer parses
10,000 values into jsonb when a ranking is computed (issue 38). The values stay as they are."""

import common.json_text
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0007_snapshot_line_public"),
    ]

    operations = [
        migrations.AlterField(
            model_name="snapshotline",
            name="line",
            field=common.json_text.JSONTextField(default=dict),
        ),
        migrations.AlterField(
            model_name="snapshotline",
            name="results",
            field=common.json_text.JSONTextField(default=list),
        ),
    ]
