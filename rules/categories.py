"""Who belongs to a category of an event (women, seniors, youth, the club's own).

Pure Python: the registry gives a gender and a birth year, the director may say "in" or
"out" for any participant. The director's word wins; without it, women are the players of
gender "f", seniors those of ``age_limit`` years or older in the event's year (event year
minus birth year, as the registry holds the year only), youth those of ``age_limit`` or
younger; a club category (``custom``) has only the members the director chose. A missing
gender or birth year keeps a player out unless chosen.
"""

from __future__ import annotations

WOMEN = "women"
SENIORS = "seniors"
YOUTH = "youth"
CUSTOM = "custom"
KINDS = (WOMEN, SENIORS, YOUTH, CUSTOM)

SENIOR_AGE = 60  # seniors: this age or older in the event's year
YOUTH_AGE = 18  # youth: this age or younger in the event's year
DEFAULT_AGE_LIMITS = {SENIORS: SENIOR_AGE, YOUTH: YOUTH_AGE}

# A plausible age limit: the pages refuse anything outside (an age of 0 or 130 is a typo).
MIN_AGE_LIMIT = 1
MAX_AGE_LIMIT = 120


def age_in_year(event_year: int, birth_year: int | None) -> int | None:
    """The age a player reaches in the event's year, or None without a birth year."""
    if birth_year is None:
        return None
    return event_year - birth_year


def in_category(
    kind: str,
    *,
    event_year: int,
    gender: str | None,
    birth_year: int | None,
    age_limit: int | None = None,
    choice: bool | None = None,
) -> bool:
    """Whether a participant belongs to a category of ``kind``.

    ``choice`` is the director's word (True in, False out, None: follow the registry).
    ``age_limit`` None means the default of the kind (:data:`DEFAULT_AGE_LIMITS`).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown category kind {kind!r}")
    if choice is not None:
        return bool(choice)
    if kind == WOMEN:
        return gender == "f"
    if kind == CUSTOM:
        return False
    age = age_in_year(event_year, birth_year)
    if age is None:
        return False
    limit = DEFAULT_AGE_LIMITS[kind] if age_limit is None else age_limit
    if kind == SENIORS:
        return age >= limit
    return age <= limit  # youth
