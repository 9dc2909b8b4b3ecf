"""An event's categories (women, seniors, youth, the club's own), the director's choices
of who is in one, and disqualifications: the writes (one transaction each, organisers of
the event's club only, with history) and :func:`category_members`, the one reading of who
belongs where (the rule itself is ``rules.categories``).

Every write changes a standing a public page shows (the category standings, the
"disqualified" mark), so each raises the event's results version.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.permissions import ORGANISER, require_role
from common.history import delete_with_history, save_with_history
from rules import categories as rule
from tournaments.models import Category, CategoryChoice, Event, Participant
from tournaments.results import bump_results_version

NAME_MAX = Category._meta.get_field("name").max_length
REASON_MAX = Participant._meta.get_field("disqualification_reason").max_length
AGE_KINDS = (Category.Kind.SENIORS, Category.Kind.YOUTH)


def standard_name(kind: str, age_limit: int | None = None) -> str:
    """The German (or English) name a standard category gets: Damen, Senioren ab 60, ..."""
    if kind == Category.Kind.WOMEN:
        return _("Women")
    if kind == Category.Kind.SENIORS:
        return _("Seniors from %(age)d") % {"age": age_limit or rule.SENIOR_AGE}
    if kind == Category.Kind.YOUTH:
        return _("Youth up to %(age)d") % {"age": age_limit or rule.YOUTH_AGE}
    raise ValueError(f"no standard name for {kind!r}")


# --------------------------------------------------------------------------- checks


def _clean_name(event: Event, name: str, *, exclude_pk: int | None = None) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"name": _("Enter a name for the category.")})
    if len(name) > NAME_MAX:
        raise ValidationError(
            {"name": _("A category name has at most %(max)d characters.") % {"max": NAME_MAX}}
        )
    # Compared in Python: SQLite's iexact folds ASCII only (Ärzte = ärzte).
    names = (
        Category.objects.filter(event=event).exclude(pk=exclude_pk).values_list("name", flat=True)
    )
    if any(n.casefold() == name.casefold() for n in names):
        raise ValidationError(
            {"name": _("The event already has a category “%(name)s”.") % {"name": name}}
        )
    return name


def _clean_age_limit(kind: str, age_limit) -> int | None:
    if kind not in AGE_KINDS:
        return None
    if age_limit in (None, ""):
        return rule.DEFAULT_AGE_LIMITS[kind]
    try:
        value = int(age_limit)
    except (TypeError, ValueError):
        value = None
    if value is None or not rule.MIN_AGE_LIMIT <= value <= rule.MAX_AGE_LIMIT:
        raise ValidationError(
            {
                "age_limit": _("The age limit must be a whole number from %(min)d to %(max)d.")
                % {"min": rule.MIN_AGE_LIMIT, "max": rule.MAX_AGE_LIMIT}
            }
        )
    return value


def _next_order(event: Event) -> int:
    return (Category.objects.filter(event=event).aggregate(m=Max("order"))["m"] or 0) + 1


# --------------------------------------------------------------------------- writes


@transaction.atomic
def add_standard_categories(actor, event: Event) -> list[Category]:
    """Add women, seniors (60 and older) and youth (18 and younger) where the event has no
    category of that kind yet (nor one of the same name); returns the ones added."""
    require_role(actor, event.club, ORGANISER)
    existing = list(Category.objects.filter(event=event).values_list("kind", "name"))
    kinds = {k for k, _n in existing}
    names = {n.casefold() for _k, n in existing}
    order = _next_order(event)
    added = []
    for kind in (Category.Kind.WOMEN, Category.Kind.SENIORS, Category.Kind.YOUTH):
        limit = rule.DEFAULT_AGE_LIMITS.get(kind)
        name = standard_name(kind, limit)
        if kind in kinds or name.casefold() in names:
            continue
        category = Category(event=event, kind=kind, name=name, age_limit=limit, order=order)
        added.append(save_with_history(category, actor, _("Standard category added")))
        order += 1
    if added:
        bump_results_version(event.pk)
    return added


@transaction.atomic
def add_category(actor, event: Event, name: str, kind: str = Category.Kind.CUSTOM,
                 age_limit=None) -> Category:  # fmt: skip
    """A category of the event; a club category (``custom``) has only chosen members."""
    require_role(actor, event.club, ORGANISER)
    if kind not in Category.Kind.values:
        raise ValidationError({"kind": _("There is no category of this kind.")})
    category = Category(
        event=event,
        kind=kind,
        name=_clean_name(event, name),
        age_limit=_clean_age_limit(kind, age_limit),
        order=_next_order(event),
    )
    save_with_history(category, actor)
    bump_results_version(event.pk)
    return category


@transaction.atomic
def update_category(actor, category: Category, *, name: str | None = None,
                    age_limit=None) -> Category:  # fmt: skip
    """Rename a category or change its age limit (seniors and youth). A standard name that
    states the old limit ("Senioren ab 60") follows a new limit unless renamed as well."""
    event = category.event
    require_role(actor, event.club, ORGANISER)
    old_standard = (
        standard_name(category.kind, category.age_limit) if category.kind != "custom" else None
    )
    new_name = category.name if name is None else _clean_name(event, name, exclude_pk=category.pk)
    new_limit = category.age_limit
    if category.kind in AGE_KINDS and age_limit not in (None, ""):
        new_limit = _clean_age_limit(category.kind, age_limit)
    if new_limit != category.age_limit and new_name == old_standard:
        new_name = _clean_name(
            event, standard_name(category.kind, new_limit), exclude_pk=category.pk
        )
    if (new_name, new_limit) == (category.name, category.age_limit):
        return category
    category.name, category.age_limit = new_name, new_limit
    save_with_history(category, actor)
    bump_results_version(event.pk)
    return category


@transaction.atomic
def delete_category(actor, category: Category) -> None:
    """Delete a category with the director's choices in it (the history keeps both)."""
    require_role(actor, category.event.club, ORGANISER)
    for choice in category.choices.all():
        delete_with_history(choice, actor)
    event_id = category.event_id
    delete_with_history(category, actor)
    bump_results_version(event_id)


@transaction.atomic
def set_category_choice(actor, category: Category, participant: Participant,
                        included: bool | None) -> CategoryChoice | None:  # fmt: skip
    """The director's word: in (True), out (False) or follow the registry (None)."""
    require_role(actor, category.event.club, ORGANISER)
    if participant.event_id != category.event_id:
        raise ValidationError(_("The player is not registered for this event."))
    choice = CategoryChoice.objects.filter(category=category, participant=participant).first()
    if included is None:
        if choice is None:
            return None
        delete_with_history(choice, actor)
        bump_results_version(category.event_id)
        return None
    if choice is not None and choice.included == bool(included):
        return choice
    if choice is None:
        choice = CategoryChoice(category=category, participant=participant)
    choice.included = bool(included)
    save_with_history(choice, actor)
    bump_results_version(category.event_id)
    return choice


@transaction.atomic
def set_category_choices(actor, event: Event, wanted: dict[tuple[int, int], bool | None]) -> int:
    """Several choices at once (the page's table): (category id, participant id) → in,
    out or None (follow the registry). All or nothing; returns how many changed."""
    require_role(actor, event.club, ORGANISER)
    categories = {c.pk: c for c in Category.objects.filter(event=event)}
    for category in categories.values():
        category.event = event  # the role check reads the event's club once
    participants = {p.pk: p for p in Participant.objects.filter(event=event)}
    if any(c not in categories or p not in participants for c, p in wanted):
        raise ValidationError(_("The choice names a category or player not of this event."))
    current = choices_of(event)
    changed = 0
    for (c, p), included in wanted.items():
        if current.get((c, p)) == included:
            continue
        set_category_choice(actor, categories[c], participants[p], included)
        changed += 1
    return changed


@transaction.atomic
def disqualify(actor, participant: Participant, reason: str) -> Participant:
    """Disqualify a participant: they stay in every standing, marked, and win no prize."""
    require_role(actor, participant.event.club, ORGANISER)
    reason = " ".join((reason or "").split())
    if not reason:
        raise ValidationError({"reason": _("Give the reason for the disqualification.")})
    if len(reason) > REASON_MAX:
        raise ValidationError(
            {"reason": _("The reason has at most %(max)d characters.") % {"max": REASON_MAX}}
        )
    participant.disqualified = True
    participant.disqualification_reason = reason
    save_with_history(participant, actor, _("Disqualified: %(reason)s") % {"reason": reason})
    bump_results_version(participant.event_id)
    return participant


@transaction.atomic
def undo_disqualification(actor, participant: Participant) -> Participant:
    require_role(actor, participant.event.club, ORGANISER)
    if not participant.disqualified:
        return participant
    participant.disqualified = False
    participant.disqualification_reason = ""
    save_with_history(participant, actor, _("Disqualification lifted"))
    bump_results_version(participant.event_id)
    return participant


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class CategoryInfo:
    id: int
    name: str
    kind: str
    age_limit: int | None


def event_categories(event: Event) -> list[CategoryInfo]:
    """The event's categories in their order (one query)."""
    return [
        CategoryInfo(*row)
        for row in Category.objects.filter(event=event)
        .order_by("order", "name")
        .values_list("id", "name", "kind", "age_limit")
    ]


def choices_of(event: Event) -> dict[tuple[int, int], bool]:
    """The director's choices: (category id, participant id) → in (one query)."""
    return {
        (c, p): included
        for c, p, included in CategoryChoice.objects.filter(category__event=event).values_list(
            "category_id", "participant_id", "included"
        )
    }


def members_of(event: Event, categories, choices, people) -> dict[int, set[int]]:
    """Members per category from read data: ``people`` are (participant id, gender, birth
    year) triples. No query."""
    year = event.start_date.year
    out: dict[int, set[int]] = {}
    for category in categories:
        out[category.id] = {
            pid
            for pid, gender, birth_year in people
            if rule.in_category(
                category.kind,
                event_year=year,
                gender=gender,
                birth_year=birth_year,
                age_limit=category.age_limit,
                choice=choices.get((category.id, pid)),
            )
        }
    return out


def category_membership(event: Event) -> tuple[list[CategoryInfo], dict[int, set[int]]]:
    """The categories and their member participant ids: three queries (none for the choices
    and participants when the event has no category)."""
    categories = event_categories(event)
    if not categories:
        return [], {}
    return categories, members_for(event, categories)


def members_for(event: Event, categories: list[CategoryInfo]) -> dict[int, set[int]]:
    """Members of categories already read: two queries (choices, participants)."""
    people = list(
        Participant.objects.filter(event=event)
        .order_by()
        .values_list("id", "player__gender", "player__birth_year")
    )
    return members_of(event, categories, choices_of(event), people)


def category_members(event: Event) -> dict[int, set[int]]:
    """Participant ids per category id, by the registry and the director's choices."""
    return category_membership(event)[1]


# The participants table of the categories page, sorted by one of these (``-`` descending).
PAGE_SORTS = ("name", "number", "club", "gender", "birth_year", "disqualified")


def category_page(event: Event, sort: str = "name") -> dict:
    """What the categories page shows: the categories with their member counts and the
    participants with gender, birth year, per category the choice and the outcome, and
    the disqualification. Three queries (categories, choices, participants)."""
    categories = event_categories(event)
    choices = choices_of(event) if categories else {}
    people = list(
        Participant.objects.filter(event=event)
        .order_by()
        .values_list(
            "id", "player__given_name", "player__family_name", "player__sort_key",
            "player__player_number", "club__short_name", "player__gender", "player__birth_year",
            "disqualified", "disqualification_reason",
        )
    )  # fmt: skip
    members = members_of(event, categories, choices, [(p[0], p[6], p[7]) for p in people])
    year = event.start_date.year
    rows = [
        {
            "id": pid,
            "name": f"{given} {family}",
            "sort_key": sort_key,
            "number": number or "",
            "club": club or "",
            "gender": gender or "",
            "birth_year": birth_year,
            "age": rule.age_in_year(year, birth_year),
            "disqualified": disqualified,
            "reason": reason,
            "cells": [
                {
                    "category": c.id,
                    "choice": {True: "in", False: "out"}.get(choices.get((c.id, pid)), "auto"),
                    "member": pid in members[c.id],
                }
                for c in categories
            ],
        }
        for (pid, given, family, sort_key, number, club, gender, birth_year, disqualified,
             reason) in people
    ]  # fmt: skip
    key = sort.removeprefix("-")
    if key not in PAGE_SORTS:
        key, sort = "name", "name"
    rows.sort(key=lambda r: r["sort_key"])
    if key != "name":
        # None (no birth year) and "" last in either direction: sorted apart from the rest.
        known = [r for r in rows if r[key] not in (None, "")]
        unknown = [r for r in rows if r[key] in (None, "")]
        known.sort(key=lambda r: r[key], reverse=sort.startswith("-"))
        rows = known + unknown
    elif sort.startswith("-"):
        rows.reverse()
    return {
        "categories": [
            {"category": c, "members": len(members[c.id]), "has_age": c.kind in AGE_KINDS}
            for c in categories
        ],
        "rows": rows,
        "sort": sort,
    }
