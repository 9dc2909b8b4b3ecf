"""The "Verlauf" of an association: every change of it, of the associations below it, of
their clubs' affiliations (a club moved away included) and of their roles, newest first,
with who, when and why. A fixed number of queries (6), whatever the length of the history."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils import formats
from django.utils.translation import gettext as _

from clubs.models import Club
from federation.associations.models import Affiliation, Association, AssociationRole
from federation.associations.tree import subtree_ids

LIMIT = 300
# The fields a change is shown for, per model (the rest never change after creation).
_FIELDS = {
    Association: ["name", "short_name", "kind", "parent"],
    Affiliation: ["association", "since", "note"],
    AssociationRole: ["role"],
}


@dataclass
class Entry:
    when: object
    who: str
    subject: str
    action: str
    changes: list  # (field label, old, new)
    reason: str


def association_history(association: Association, limit: int = LIMIT) -> list[Entry]:
    tree = {pk: (parent, name) for pk, parent, name in Association.objects.order_by()
            .values_list("pk", "parent_id", "name")}  # fmt: skip
    ids = subtree_ids(association.pk, {pk: parent for pk, (parent, _n) in tree.items()})
    names = {pk: name for pk, (_p, name) in tree.items()}
    affiliation_model = Affiliation.history.model
    clubs_ever = affiliation_model.objects.filter(association_id__in=ids).values("club_id")
    groups = [
        (Association, Association.history.model.objects.filter(id__in=ids)),
        (Affiliation, affiliation_model.objects.filter(club_id__in=clubs_ever)),
        (AssociationRole, AssociationRole.history.model.objects.filter(association_id__in=ids)),
    ]
    loaded = [
        (model, list(records.select_related("history_user").order_by("id", "history_date")))
        for model, records in groups
    ]
    club_names = dict(
        Club.objects.filter(pk__in={r.club_id for r in loaded[1][1]}).values_list("pk", "name")
    )
    user_names = dict(
        get_user_model()
        .objects.filter(pk__in={r.user_id for r in loaded[2][1]})
        .values_list("pk", "username")
    )
    context = {"associations": names, "clubs": club_names, "users": user_names}
    entries = []
    for model, records in loaded:
        previous = None
        for record in records:
            older = previous if previous is not None and previous.id == record.id else None
            entries.append(_entry(model, record, older, context))
            previous = record
    entries.sort(key=lambda e: e.when, reverse=True)
    return entries[:limit]


def _entry(model, record, older, context) -> Entry:
    actions = {"+": _("created"), "~": _("changed"), "-": _("deleted")}
    changes = []
    if older is not None and record.history_type == "~":
        for name in _FIELDS[model]:
            old, new = _shown(model, name, older, context), _shown(model, name, record, context)
            if old != new:
                changes.append((str(model._meta.get_field(name).verbose_name), old, new))
    return Entry(
        when=record.history_date,
        who=record.history_user.get_username() if record.history_user else _("system"),
        subject=_subject(model, record, context),
        action=actions.get(record.history_type, record.history_type),
        changes=changes,
        reason=record.history_change_reason or "",
    )


def _shown(model, name, record, context) -> str:
    if name in ("parent", "association"):
        value = getattr(record, f"{name}_id")
        return context["associations"].get(value, "–") if value else "–"
    value = getattr(record, name)
    field = model._meta.get_field(name)
    if field.choices:
        return str(dict(field.choices).get(value, value))
    if hasattr(value, "strftime"):
        return formats.date_format(value, "SHORT_DATE_FORMAT")
    return str(value) if value not in (None, "") else "–"


def _subject(model, record, context) -> str:
    if model is Association:
        return _("Association %(name)s") % {"name": record.name}
    if model is Affiliation:
        return _("Club %(name)s") % {"name": context["clubs"].get(record.club_id, "?")}
    return _("Role of %(user)s in %(association)s") % {
        "user": context["users"].get(record.user_id, "?"),
        "association": context["associations"].get(record.association_id, "?"),
    }
