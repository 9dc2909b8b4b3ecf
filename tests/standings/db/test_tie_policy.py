"""The rule set's tie policy (issue 12, item 4) from stored hands to pages and exports.

Seed 001_0d0d6b688e9eedc9.txt: "In the event of a tie, player's involved in the tie
should play until the tie is broken." Its preset ranks with ``ties="playoff"``: a tie on
total is not separated by hands won; the players share the rank and a playoff is
proposed where the tie matters."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.exports.exporters.standings import standings_tables
from scoring.standings import selectors

from .conftest import add_series, director, make_event

pytestmark = pytest.mark.django_db


def H(winner, *seats):
    return (winner, False, list(seats))


# a wins two hands, b one; both end on 5 points.
HANDS = [
    H(0, (0, 10), (5, -5), (5, -5), (10, -10)),
    H(0, (0, 10), (5, -5), (5, -5), (10, -10)),
    H(1, (15, -15), (0, 15), (5, -5), (10, -10)),
]


def _event(club, slug, overrides=None):
    event, people = make_event(
        club,
        chain=("total", "hands_won", "lots"),
        ruleset_slug=slug,
        ruleset_overrides=overrides or {},
    )
    add_series(event, people, HANDS)
    return event, people


def test_seed_001_preset_plays_off_instead_of_counting_hands_won(club_a):
    event, (a, b, *_rest) = _event(club_a, "melded-minus-held")
    assert event.ruleset.ties == "playoff"
    standing = selectors.event_standing(event, only_published=False)
    assert [(r.key, r.rank, r.total) for r in standing.rows[:2]] == [(a.pk, 1, 5), (b.pk, 1, 5)]
    assert standing.rows[0].reason.metric == "shared"
    assert standing.chain == ("total",)
    assert [[r.key for r in t] for t in standing.ties] == [[a.pk, b.pk]]
    assert event.lots_seed is None  # no lots drawn: the playoff decides


def test_chain_policy_separates_by_hands_won(club_a):
    event, (a, b, *_rest) = _event(club_a, "german-minus")
    assert event.ruleset.ties == "chain"
    standing = selectors.event_standing(event, only_published=False)
    assert [(r.key, r.rank) for r in standing.rows[:2]] == [(a.pk, 1), (b.pk, 2)]
    assert standing.rows[0].reason.metric == "hands_won"
    assert standing.ties == []


def test_the_policy_is_an_event_override(club_a):
    event, _people = _event(club_a, "german-minus", {"ties": "playoff"})
    standing = selectors.event_standing(event, only_published=False)
    assert [r.rank for r in standing.rows[:2]] == [1, 1]
    event2, _people = _event(club_a, "melded-minus-held", {"ties": "chain"})
    assert [r.rank for r in selectors.event_standing(event2, only_published=False).rows[:2]] == [
        1,
        2,
    ]


def test_pages_api_and_exports_say_which_policy_ranked(client, club_a):
    event, _people = _event(club_a, "melded-minus-held")
    client.force_login(director(club_a))
    page = client.get(reverse("standings:event", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert "Gleichstand: Spieler mit gleicher Gesamtpunktzahl teilen sich den Rang" in text
    public = client.get(reverse("standings:public", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Stechen" in public.content.decode()
    data = client.get(reverse("standings:api", args=[event.pk])).json()
    assert data["ties"]["policy"] == "playoff"
    with translation.override("de"):
        titles = [t.title for t in standings_tables(event)]
    assert titles and all("Gleichstand: Stechen" in t for t in titles)
    other, _p = _event(club_a, "german-minus")
    with translation.override("de"):
        assert all("Gleichstand: Feinwertung" in t.title for t in standings_tables(other))


def test_tie_break_page_says_the_chain_does_not_rank_under_playoff(client, club_a):
    event, _people = _event(club_a, "melded-minus-held")
    client.force_login(director(club_a))
    page = client.get(reverse("standings:tie_break", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "diese Feinwertung bestimmt die Ränge nicht" in page.content.decode()


def test_lots_count_only_where_a_tie_needs_them_whether_or_not_a_seed_exists(db):
    """Another competition may have drawn the event's seed: a standing without a shared tie
    still shows no lots, so two renders of the same event never differ in a lots column."""
    from scoring.standings import selectors
    from tests.factories import ClubFactory
    from tests.standings.db.conftest import generated

    event = generated(ClubFactory(), 12, series=2, rounds=1)
    before = selectors.event_standing(event)
    # this generated field (seed 7) has no tie that needs lots
    assert not any(r.reason is not None and r.reason.metric == "shared" for r in before.rows)
    assert event.lots_seed is None
    event.lots_seed = 1234
    event.save(update_fields=["lots_seed"])
    after = selectors.event_standing(event)
    assert [(r.rank, r.key) for r in after.rows] == [(r.rank, r.key) for r in before.rows]
    assert not any("lots" in r.values for r in after.rows)
