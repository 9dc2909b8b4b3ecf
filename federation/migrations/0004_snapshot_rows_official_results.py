"""A snapshot's lines become rows (SnapshotLine, one per player) instead of one JSON
document; a player's place in every approved event version is kept as a row
(OfficialResult). Existing snapshots and approved versions are carried over."""

import django.db.models.deletion
from django.db import migrations, models


def _rows(SnapshotLine, snapshot, lines):
    """As federation.rankings.snapshot_rows.pack (a migration keeps its own copy), the results
    kept as they are (readers take dicts as well as packed results)."""
    rows, seen = [], {}
    for position, line in enumerate(lines):
        regions = line.get("regions") or []
        region = regions[0] if regions else None
        region_rank = None
        if region is not None:
            count, previous, regional = seen.get(region, (0, None, None))
            count += 1
            if line.get("listed") and line.get("rank") is not None:
                if line["rank"] != previous:
                    regional, previous = count, line["rank"]
                region_rank = regional
            seen[region] = (count, previous, regional)
        rows.append(
            SnapshotLine(
                snapshot=snapshot,
                position=position,
                player=line["player"],
                region=region,
                rank=line.get("rank"),
                region_rank=region_rank,
                listed=bool(line.get("listed")),
                hidden=bool(line.get("hidden")),
                line={k: v for k, v in line.items() if k != "results"},
                results=line.get("results") or [],
            )
        )
    return rows


def forwards(apps, schema_editor):
    RankingSnapshot = apps.get_model("federation", "RankingSnapshot")
    SnapshotLine = apps.get_model("federation", "SnapshotLine")
    EventVersion = apps.get_model("federation", "EventVersion")
    OfficialResult = apps.get_model("federation", "OfficialResult")
    Player = apps.get_model("clubs", "Player")
    for snapshot in RankingSnapshot.objects.iterator(chunk_size=1):
        SnapshotLine.objects.bulk_create(
            _rows(SnapshotLine, snapshot, snapshot.lines or []), batch_size=500
        )
    players = set(Player.objects.values_list("pk", flat=True))
    approved = EventVersion.objects.filter(state="approved").select_related("status__event")
    for version in approved.iterator(chunk_size=50):
        OfficialResult.objects.bulk_create(
            [
                OfficialResult(
                    version=version,
                    player_id=row["player"],
                    date=version.status.event.start_date,
                    place=row.get("place"),
                )
                for row in version.results or []
                if row.get("player") in players
            ],
            batch_size=500,
            ignore_conflicts=True,
        )


def _unpacked(result, events):
    """As federation.rankings.snapshot_rows.unpack, one result."""
    if not isinstance(result, list):
        return result
    version, event, name, day, size = events[result[0]]
    return {
        "version": version,
        "event": event,
        "event_name": name,
        "date": day,
        "place": result[1],
        "field": size,
        "points": result[2],
        "counted": result[3],
        "reason": result[4],
    }


def backwards(apps, schema_editor):
    RankingSnapshot = apps.get_model("federation", "RankingSnapshot")
    SnapshotLine = apps.get_model("federation", "SnapshotLine")
    for snapshot in RankingSnapshot.objects.iterator(chunk_size=1):
        rows = SnapshotLine.objects.filter(snapshot=snapshot).order_by("position")
        snapshot.lines = [
            r.line | {"results": [_unpacked(x, snapshot.events) for x in r.results]} for r in rows
        ]
        snapshot.save(update_fields=["lines"])


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_player_gender"),
        ("federation", "0003_submission_received"),
    ]

    operations = [
        migrations.CreateModel(
            name="OfficialResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("date", models.DateField()),
                ("place", models.PositiveIntegerField(blank=True, null=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="clubs.player",
                    ),
                ),
                (
                    "version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="official_results",
                        to="federation.eventversion",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["player", "-date"], name="officialresult_player")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("version", "player"), name="officialresult_once_per_version"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="SnapshotLine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveIntegerField()),
                ("player", models.BigIntegerField()),
                ("region", models.BigIntegerField(blank=True, null=True)),
                ("rank", models.PositiveIntegerField(blank=True, null=True)),
                ("region_rank", models.PositiveIntegerField(blank=True, null=True)),
                ("listed", models.BooleanField(default=True)),
                ("hidden", models.BooleanField(default=False)),
                ("line", models.JSONField(default=dict)),
                ("results", models.JSONField(default=list)),
                (
                    "snapshot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rows",
                        to="federation.rankingsnapshot",
                    ),
                ),
            ],
            options={
                "ordering": ["snapshot", "position"],
                "indexes": [
                    models.Index(fields=["snapshot", "player"], name="snapshotline_player"),
                    models.Index(
                        fields=["snapshot", "region", "position"], name="snapshotline_region"
                    ),
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("snapshot", "position"), name="snapshotline_unique_position"
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="rankingsnapshot",
            name="events",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="rankingsnapshot", name="lines"),
    ]
