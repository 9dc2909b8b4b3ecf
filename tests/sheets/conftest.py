"""Helpers for score-sheet tests: a seated series and valid grids from the rules engine."""

import random

import pytest
from django.core.cache import cache
from django.utils import translation

from rules import PRESETS, random_hand


@pytest.fixture(autouse=True)
def english():
    """Messages built outside a request use the default language (German); tests read English."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _clear_cache():
    """Seat-code and PIN attempts are counted in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


def make_series(club, *, tables=4, table_size=4, rounds=5, blind=False, slug="german-minus"):
    """An event of `club` with series 1 seated at `tables` tables of `table_size`, started.

    Table 1 seats Anna Müller, Bernd Becker, Clara Schulz, Dieter Wolf (in this order).
    """
    from tests.factories import EventFactory, ParticipantFactory, SeriesFactory, seated_table

    event = EventFactory(
        club=club, rounds_per_series=rounds, blind_confirmation=blind, ruleset_slug=slug
    )
    series = SeriesFactory(event=event, number=1, status="in_play")
    names = [("Anna", "Müller"), ("Bernd", "Becker"), ("Clara", "Schulz"), ("Dieter", "Wolf")]
    made = []
    for t in range(1, tables + 1):
        people = []
        for k in range(table_size):
            extra = {}
            if t == 1 and k < len(names):
                extra = {"player__given_name": names[k][0], "player__family_name": names[k][1]}
            people.append(ParticipantFactory(event=event, **extra))
        made.append(seated_table(series, people, t))
    return series, made


def random_grid(ruleset=None, *, table_size=4, hands=20, seed=1, first_dealer=0, **kwargs):
    """A valid grid of `hands` hands dealt by rules.random_hand."""
    ruleset = ruleset or PRESETS["german-minus"]
    rng = random.Random(seed)
    out = []
    for i in range(hands):
        hand = random_hand(
            ruleset, table_size, rng, dealer=(first_dealer + i) % table_size, **kwargs
        )
        out.append(
            {
                "dealer": hand.dealer,
                "winner": hand.winner,
                "hand_romme": hand.hand_romme,
                "seats": [
                    {
                        "hand_points": s.hand_points,
                        "cards": None
                        if s.cards is None
                        else " ".join(c.ascii for c in s.cards) or None,
                        "melded": s.melded,
                    }
                    for s in hand.seats
                ],
            }
        )
    return {"first_dealer": first_dealer, "hands": out}


def post_data(grid, *, version=0, action="submit", rows=None, table_size=4, **extra):
    """The entry page's fields for a grid (cards where given, else hand points)."""
    data = {"expected_version": str(version), "action": action}
    data["first_dealer"] = str(grid.get("first_dealer", 0))
    for n, hand in enumerate(grid["hands"], start=1):
        for k, seat in enumerate(hand["seats"], start=1):
            if seat.get("cards") and seat["hand_points"] != 0:
                data[f"cell-{n}-{k}"] = seat["cards"]
            elif seat.get("hand_points") is not None:
                data[f"cell-{n}-{k}"] = str(seat["hand_points"])
            if seat.get("melded") is not None:
                data[f"melded-{n}-{k}"] = str(seat["melded"])
        if hand.get("hand_romme"):
            data[f"romme-{n}"] = "1"
    data.update(extra)
    return data


def scorer(club, username):
    from tests.factories import user_with_role

    return user_with_role(club, "scorer", username=username)
