"""The category prints' data in the bench (issue 38: every category print timed): the standard
categories on a data set's event, each with members, no total changed; the demo's prize plan
pays the categories an event already has."""

from __future__ import annotations

import pytest

from bench.rigs.datasets import add_categories, build
from clubs.models import ClubRole
from prizes.demo import seed_prizes
from prizes.models import PrizePlan
from scoring.standings import selectors
from tournaments.categories import category_members
from tournaments.models import Category

pytestmark = pytest.mark.django_db


def totals(event) -> list[tuple[int, int]]:
    return [(r.participant_id, r.total) for r in selectors.event_standing(event).rows]


def test_every_standard_category_gets_members_and_no_total_changes(django_user_model):
    event = build("small")  # 24 players born 1940-1963, no gender
    before, version = totals(event), event.results_version
    add_categories(event)
    add_categories(event)  # a second call adds nothing
    kinds = list(Category.objects.filter(event=event).values_list("kind", flat=True))
    assert kinds == [Category.Kind.WOMEN, Category.Kind.SENIORS, Category.Kind.YOUTH]
    members = category_members(event)
    sizes = {c.kind: len(members[c.pk]) for c in Category.objects.filter(event=event)}
    assert sizes == {"women": 12, "seniors": 21, "youth": 3}
    event.refresh_from_db()
    assert event.results_version > version  # the pages' caches see the new categories
    assert totals(event) == before

    user = django_user_model.objects.create(username="kassenwart")
    ClubRole.objects.create(user=user, club=event.club, role=ClubRole.Role.ORGANISER)
    seed_prizes(tournament=event)
    paid = {line["ref"] for line in PrizePlan.objects.get(event=event).prizes
            if line["competition"] == "category"}  # fmt: skip
    women, seniors = (Category.objects.get(event=event, kind=k) for k in ("women", "seniors"))
    assert paid == {str(women.pk), str(seniors.pk)}
    assert Category.objects.filter(event=event).count() == 3  # none added beside them
