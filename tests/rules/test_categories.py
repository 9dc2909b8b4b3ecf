"""The category membership rule (rules.categories)."""

import pytest

from rules.categories import (
    CUSTOM,
    DEFAULT_AGE_LIMITS,
    SENIOR_AGE,
    SENIORS,
    WOMEN,
    YOUTH,
    YOUTH_AGE,
    age_in_year,
    in_category,
)


def member(kind, *, year=2024, gender="", birth=None, limit=None, choice=None):
    return in_category(
        kind, event_year=year, gender=gender, birth_year=birth, age_limit=limit, choice=choice
    )


def test_defaults_are_sixty_and_eighteen():
    assert SENIOR_AGE == 60 and YOUTH_AGE == 18
    assert DEFAULT_AGE_LIMITS == {SENIORS: 60, YOUTH: 18}


def test_age_is_event_year_minus_birth_year():
    assert age_in_year(2024, 1964) == 60
    assert age_in_year(2024, None) is None


@pytest.mark.parametrize(
    "gender, expected", [("f", True), ("m", False), ("d", False), ("", False), (None, False)]
)
def test_women_follow_the_gender(gender, expected):
    assert member(WOMEN, gender=gender) is expected


@pytest.mark.parametrize("birth, expected", [(1964, True), (1965, False), (1930, True)])
def test_seniors_from_exactly_the_limit(birth, expected):
    assert member(SENIORS, birth=birth) is expected


@pytest.mark.parametrize("birth, expected", [(2006, True), (2005, False), (2020, True)])
def test_youth_up_to_exactly_the_limit(birth, expected):
    assert member(YOUTH, birth=birth) is expected


def test_own_age_limits():
    assert member(SENIORS, birth=1959, limit=65) is True
    assert member(SENIORS, birth=1960, limit=65) is False
    assert member(YOUTH, birth=2010, limit=14) is True
    assert member(YOUTH, birth=2009, limit=14) is False


@pytest.mark.parametrize("kind", [SENIORS, YOUTH])
def test_unknown_birth_year_is_not_in(kind):
    assert member(kind, birth=None, gender="f") is False


def test_club_category_only_by_choice():
    assert member(CUSTOM, gender="f", birth=1950) is False
    assert member(CUSTOM, choice=True) is True
    assert member(CUSTOM, choice=False) is False


@pytest.mark.parametrize("kind", [WOMEN, SENIORS, YOUTH, CUSTOM])
def test_the_choice_wins_both_ways(kind):
    # Registry says in (a woman born 1940 and 2010 cannot both be; use each kind's "in").
    registry_in = {"gender": "f", "birth": 1940 if kind == SENIORS else 2010}
    assert member(kind, **registry_in, choice=False) is False
    assert member(kind, gender="m", birth=None, choice=True) is True


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        member("veterans")
