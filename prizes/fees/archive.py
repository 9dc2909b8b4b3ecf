"""The archive section "prizes": the event's entry fees (the general one, and per category
by the category's name), every recorded payment (by participant ref, who took it as a
username) and the prize plan with all its fields. Registered with
`scoring.archive.sections` by `prizes.apps` (scoring never imports prizes); loaded after
the section "categories" (order 10), whose categories the fees name."""

from __future__ import annotations

from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from prizes.models import EntryFee, EntryPayment, PrizePlan
from scoring.archive.sections import CheckContext, DumpContext, LoadContext, Section, register
from scoring.archive.validate import ArchiveError, json_path

NAME = "prizes"
MONEY = {"type": "string", "pattern": "^[0-9]{1,7}(\\.[0-9]{1,2})?$"}
WHEN = {"anyOf": [{"$ref": "#/$defs/datetime"}, {"type": "null"}]}

SCHEMA = {
    "type": "object",
    "required": ["fees", "payments", "plan"],
    "properties": {
        "fees": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["category", "amount"],
                "properties": {
                    "category": {"type": ["string", "null"], "minLength": 1, "maxLength": 60},
                    "amount": MONEY,
                },
                "additionalProperties": False,
            },
        },
        "payments": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["participant", "status"],
                "properties": {
                    "participant": {"$ref": "#/$defs/ref"},
                    "status": {"enum": list(EntryPayment.Status.values)},
                    "amount": MONEY,
                    "note": {"type": "string", "maxLength": 200},
                    "recorded_by": {"$ref": "#/$defs/username"},
                    "recorded_at": WHEN,
                },
            },
        },
        "plan": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "properties": {
                        "prizes": {"type": "array", "items": {"type": "object"}},
                        "one_prize_per_player": {"type": "boolean"},
                        "precedence": {"type": "array", "items": {"type": "string"}},
                        "costs": MONEY,
                        "costs_note": {"type": "string", "maxLength": 200},
                        "public_winners": {"type": "boolean"},
                        "public_amounts": {"type": "boolean"},
                        "updated_by": {"$ref": "#/$defs/username"},
                        "updated_at": WHEN,
                    },
                },
            ]
        },
    },
    "additionalProperties": False,
}


def dump(event, ctx: DumpContext) -> dict:
    fees = EntryFee.objects.filter(event=event).select_related("category")
    payments = EntryPayment.objects.filter(participant__event=event).select_related("recorded_by")
    plan = PrizePlan.objects.filter(event=event).select_related("updated_by").first()
    return {
        "fees": sorted(
            (
                {"category": fee.category.name if fee.category else None, "amount": str(fee.amount)}
                for fee in fees
            ),
            key=lambda f: (f["category"] is not None, f["category"] or ""),
        ),
        "payments": sorted(
            (
                {
                    "participant": ctx.ref_of[p.participant_id],
                    **ctx.fields(p, EntryPayment),
                }
                for p in payments
            ),
            key=lambda p: p["participant"],
        ),
        "plan": None if plan is None else ctx.fields(plan, PrizePlan),
    }


def check(value, ctx: CheckContext) -> None:
    names = {c["name"] for c in ctx.data.get("categories") or []}
    seen = set()
    for i, fee in enumerate(value["fees"]):
        where = json_path([NAME, "fees", i, "category"])
        if fee["category"] is not None and fee["category"] not in names:
            raise ArchiveError(
                where, _("no category %(name)s in $.categories") % {"name": repr(fee["category"])}
            )
        if fee["category"] in seen:
            raise ArchiveError(where, _("a second fee for the same category"))
        seen.add(fee["category"])
    paid = set()
    for i, payment in enumerate(value["payments"]):
        ref = payment["participant"]
        where = json_path([NAME, "payments", i, "participant"])
        if ref not in ctx.refs:
            raise ArchiveError(where, _("no participant with ref %(ref)s") % {"ref": ref})
        if ref in paid:
            raise ArchiveError(where, _("participant %(ref)s has two payments") % {"ref": ref})
        paid.add(ref)


def usernames(value) -> set[str]:
    names = {p.get("recorded_by") for p in value["payments"]}
    if value["plan"]:
        names.add(value["plan"].get("updated_by"))
    return {n for n in names if n}


def load(value, ctx: LoadContext) -> None:
    categories = ctx.shared.get("categories", {})
    fees = [
        ctx.fill(
            EntryFee(event=ctx.event, category_id=categories.get(fee["category"])),
            fee,
            [NAME, "fees", i],
            extra=("category",),
        )
        for i, fee in enumerate(value["fees"])
    ]
    bulk_create_with_history(
        fees, EntryFee, default_user=ctx.actor, default_change_reason=ctx.reason
    )
    payments = [
        ctx.fill(
            EntryPayment(participant_id=ctx.pid[p["participant"]]),
            p,
            [NAME, "payments", i],
            extra=("participant",),
        )
        for i, p in enumerate(value["payments"])
    ]
    bulk_create_with_history(
        payments, EntryPayment, default_user=ctx.actor, default_change_reason=ctx.reason
    )
    if value["plan"] is not None:
        plan = ctx.fill(PrizePlan(event=ctx.event), value["plan"], [NAME, "plan"])
        plan._history_user = ctx.actor
        plan._change_reason = ctx.reason
        plan.save()
        ctx.created["prize plans"] = 1
    if fees:
        ctx.created["entry fees"] = len(fees)
    if payments:
        ctx.created["payments"] = len(payments)


register(Section(NAME, SCHEMA, dump, load, check, usernames, order=50))
