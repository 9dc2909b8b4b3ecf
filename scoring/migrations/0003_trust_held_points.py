"""HandSeat.held_points: the hand points a seat held, derived when a sheet is saved.

Existing rows are filled in from their raw facts by the rules engine (``SeatResult.points``
under the event's rule set): cards count by their value, a typed number as typed.
"""

from collections import defaultdict

from django.db import migrations, models


def backfill(apps, schema_editor):
    from rules import CardParseError, SeatResult, parse_hand_cards, ruleset_from
    from rules.ruleset import RuleSetError

    HandSeat = apps.get_model("scoring", "HandSeat")
    Event = apps.get_model("tournaments", "Event")
    rulesets = {}
    for event in Event.objects.only("pk", "ruleset_slug", "ruleset_overrides"):
        try:
            rulesets[event.pk] = ruleset_from(event.ruleset_slug, event.ruleset_overrides)
        except RuleSetError:
            continue
    by_event = defaultdict(list)
    rows = HandSeat.objects.values_list(
        "pk", "hand_points", "cards", "hand__sheet__table__series__event_id"
    )
    for pk, hand_points, cards, event_id in rows.iterator(chunk_size=2000):
        by_event[event_id].append((pk, hand_points, cards))
    changed = []
    for event_id, seats in by_event.items():
        ruleset = rulesets.get(event_id)
        for pk, hand_points, cards in seats:
            parsed = None
            if cards and ruleset is not None:
                try:
                    parsed = tuple(parse_hand_cards(cards))
                except CardParseError:
                    parsed = None
            held = SeatResult(hand_points=hand_points, cards=parsed).points(ruleset)
            if held is not None:
                changed.append(HandSeat(pk=pk, held_points=held))
    HandSeat.objects.bulk_update(changed, ["held_points"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_initial"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="handseat",
            name="held_points",
            field=models.IntegerField(blank=True, null=True, verbose_name="hand points held"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
