"""The archive section "categories": the event's categories (women, seniors, youth, the
club's own) with the director's choices per participant (by ref). Categories are named
uniquely per event; other sections name them by ``name`` (the fees of a category)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from scoring.archive.sections import CheckContext, DumpContext, LoadContext, Section, register
from scoring.archive.validate import ArchiveError, json_path
from tournaments.models import Category, CategoryChoice

NAME = "categories"

SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["kind", "name"],
        "properties": {
            "kind": {"enum": list(Category.Kind.values)},
            "name": {"type": "string", "minLength": 1, "maxLength": 60},
            "age_limit": {"type": ["integer", "null"], "minimum": 0, "maximum": 200},
            "order": {"type": "integer", "minimum": 0, "maximum": 32767},
            "choices": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["participant", "included"],
                    "properties": {
                        "participant": {"$ref": "#/$defs/ref"},
                        "included": {"type": "boolean"},
                    },
                    "additionalProperties": False,
                },
            },
        },
    },
}


def dump(event, ctx: DumpContext) -> list[dict]:
    choices: dict[int, list[dict]] = {}
    for choice in CategoryChoice.objects.filter(category__event=event).order_by("pk"):
        choices.setdefault(choice.category_id, []).append(
            {"participant": ctx.ref_of[choice.participant_id], "included": choice.included}
        )
    out = []
    for category in Category.objects.filter(event=event).order_by("order", "pk"):
        data = ctx.fields(category, Category)
        data["choices"] = sorted(choices.get(category.pk, []), key=lambda c: c["participant"])
        out.append(data)
    return out


def check(value, ctx: CheckContext) -> None:
    names = set()
    for i, category in enumerate(value):
        if category["name"] in names:
            raise ArchiveError(
                json_path([NAME, i, "name"]),
                _("category %(name)s appears twice") % {"name": repr(category["name"])},
            )
        names.add(category["name"])
        chosen = set()
        for j, choice in enumerate(category.get("choices", [])):
            where = json_path([NAME, i, "choices", j, "participant"])
            ref = choice["participant"]
            if ref not in ctx.refs:
                raise ArchiveError(where, _("no participant with ref %(ref)s") % {"ref": ref})
            if ref in chosen:
                raise ArchiveError(
                    where,
                    _("participant %(ref)s is chosen twice for category %(name)s")
                    % {"ref": ref, "name": repr(category["name"])},
                )
            chosen.add(ref)


def load(value, ctx: LoadContext) -> None:
    categories = [
        ctx.fill(Category(event=ctx.event), data, [NAME, i], extra=("choices",))
        for i, data in enumerate(value)
    ]
    categories = bulk_create_with_history(
        categories, Category, default_user=ctx.actor, default_change_reason=ctx.reason
    )
    ctx.shared["categories"] = {c.name: c.pk for c in categories}
    choices = [
        CategoryChoice(
            category=category, participant_id=ctx.pid[c["participant"]], included=c["included"]
        )
        for category, data in zip(categories, value, strict=True)
        for c in data.get("choices", [])
    ]
    bulk_create_with_history(
        choices, CategoryChoice, default_user=ctx.actor, default_change_reason=ctx.reason
    )
    if categories:
        ctx.created["categories"] = len(categories)


register(Section(NAME, SCHEMA, dump, load, check, order=10))
