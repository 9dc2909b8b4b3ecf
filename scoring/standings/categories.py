"""Category standings (women, seniors, youth, the club's own): the overall individual
standing's rows of a category's members, re-ranked among themselves in the overall order.

A member's category rank is 1 + the number of members strictly ahead of them overall, so
rows tied overall stay tied and the tie-break of the overall standing (chain, playoffs,
lots) decides here as well; nothing is ranked twice. Disqualified players stay in, marked
(``StandingRow.disqualified``). Who is a member: ``tournaments.categories`` (the registry's
gender and birth year under ``rules.categories``, and the director's choices).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _

from scoring.standings.labels import INDIVIDUAL
from scoring.standings.selectors import EventStanding, StandingRow
from tournaments.categories import (
    CategoryInfo,
    category_membership,
    event_categories,
    members_for,
)
from tournaments.models import Event


@dataclass
class CategoryStanding:
    category: CategoryInfo  # id, name, kind, age_limit
    rows: list[StandingRow] = field(default_factory=list)
    members: int = 0  # members of the category, with or without a result yet


def rerank(rows: list[StandingRow], members: set[int]) -> list[StandingRow]:
    """The rows of ``members`` (participant ids) with their rank among themselves.

    ``rows`` are in the standing's order (ranks ascending); a row's new rank is 1 + the
    number of member rows with a strictly better (smaller) overall rank. The rows are
    copies: the overall standing keeps its ranks.
    """
    chosen = [r for r in rows if r.participant_id in members]
    out = []
    ahead = 0
    previous_rank = None
    for index, row in enumerate(chosen):
        if row.rank != previous_rank:
            ahead = index
            previous_rank = row.rank
        out.append(replace(row, rank=ahead + 1))
    return out


def category_standings(
    event: Event,
    standing: EventStanding,
    members: dict[int, set[int]] | None = None,
) -> list[CategoryStanding]:
    """Each category of the event with its standing, in the categories' order.

    ``standing`` is the individual standing the categories are cut from (normally the
    overall one; a series or day standing gives that series' or day's category standing).
    ``members`` (category id → participant ids, from ``tournaments.categories``) may be
    passed when the caller has read them; otherwise they are read here. Queries: three
    (categories, choices, participants' gender and birth year), or one with ``members``,
    none more however large the field.
    """
    if standing.competition != INDIVIDUAL:
        raise ValueError("categories rank individual standings only")
    if members is None:
        categories, members = category_membership(event)
    else:
        categories = event_categories(event)
    return [
        CategoryStanding(
            category=category,
            rows=rerank(standing.rows, members.get(category.id, set())),
            members=len(members.get(category.id, ())),
        )
        for category in categories
    ]


def find(standings: list[CategoryStanding], category_id: int | None) -> CategoryStanding | None:
    """The standing of one category of a list (None when not there)."""
    return next((s for s in standings if s.category.id == category_id), None)


# --------------------------------------------------------------------------- the pages

CATEGORY_PARAM = "category"


def page_cut(event: Event, standing: EventStanding, wanted, *, categories=None) -> dict:
    """The category tabs' data of a standings page: ``categories`` (read here unless given:
    one query), the chosen one's standing (``cut``, None for the whole field; two queries
    more). Only individual standings have categories."""
    if standing.competition != INDIVIDUAL:
        return {"categories": [], "cut": None}
    if categories is None:
        categories = event_categories(event)
    chosen = next((c for c in categories if str(c.id) == str(wanted or "")), None)
    cut = None
    if chosen is not None:
        members = members_for(event, [chosen])
        cut = CategoryStanding(
            category=chosen,
            rows=rerank(standing.rows, members[chosen.id]),
            members=len(members[chosen.id]),
        )
    return {"categories": categories, "cut": cut}


def category_links(categories, cut, link, *, print_url: str = "", wall_url: str = "") -> list:
    """The tabs: the whole field, then each category; ``link(category_id)`` builds a URL."""
    if not categories:
        return []
    active = cut.category.id if cut else None
    tabs = [{"label": _("All players"), "url": link(None), "active": active is None}]
    for category in categories:
        tabs.append(
            {
                "label": category.name,
                "category_id": category.id,
                "url": link(category.id),
                "active": category.id == active,
                "print_url": print_url,
                "wall_url": wall_url,
            }
        )
    return tabs
