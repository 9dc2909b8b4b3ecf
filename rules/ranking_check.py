"""Checking a federation ranking's results (`rules.ranking`): each result's own values, each
event's facts agreeing across its results, places that fit the field. A list computed again
after one more event checks only that event's results (`check_results`, `Checked`): the
check of the others is kept while the settings check the same way (`check_key`)."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date, datetime

from .ranking_settings import (
    AVERAGE_PER_HAND,
    MAX_COUNT,
    MAX_FIELD,
    MAX_HANDS,
    MAX_SCORE,
    RankingError,
    RankingSettings,
    _error,
    _whole,
)


@dataclass(frozen=True, slots=True)
class EventResult:
    """One player's result in one event. Tied players share `place`; `field_size`, `date`,
    `event_class` and `series` (how many series the event had) are the event's and must
    agree across its results. `score` and `hands` matter for "average_per_hand" only."""

    player: Hashable
    event: Hashable
    date: date
    event_class: str
    field_size: int
    place: int
    score: int = 0
    hands: int = 0
    series: int = 0
    disqualified: bool = False


def _check_event(r: EventResult, number: int, settings: RankingSettings) -> None:
    """The event's own facts, checked on its first result."""
    ev = r.event
    if not isinstance(r.date, date) or isinstance(r.date, datetime):
        raise _error("ranking.date", number, event=ev)
    if r.event_class not in settings.class_factors:
        raise _error("ranking.event-class", number, event=ev, event_class=r.event_class)
    if not _whole(r.field_size, 1, MAX_FIELD):
        raise _error("ranking.field-size", number, event=ev, max=MAX_FIELD)
    if not _whole(r.series, 0, MAX_COUNT):
        raise _error("ranking.series", number, event=ev, max=MAX_COUNT)


def _result_error(r: EventResult, number: int) -> RankingError:
    """Which of a result's own values is wrong (the fast check found one)."""
    ev, who = r.event, r.player
    if not _whole(r.place, 1, r.field_size):
        return _error(
            "ranking.place", number, event=ev, player=who, place=r.place, field_size=r.field_size
        )
    if not _whole(r.hands, 0, MAX_HANDS):
        return _error("ranking.hands", number, event=ev, player=who, hands=r.hands, max=MAX_HANDS)
    if not _whole(r.score, -MAX_SCORE, MAX_SCORE):
        return _error("ranking.score", number, event=ev, player=who)
    return _error("ranking.score-without-hands", number, event=ev, player=who)


def _check(results: Iterable[EventResult], settings: RankingSettings) -> dict:
    """Every result checked; returns event -> [meta, {place: count}, [results], players]."""
    events: dict = {}
    average = settings.formula == AVERAGE_PER_HAND
    for number, r in enumerate(results, 1):
        if not isinstance(r, EventResult):
            raise _error("ranking.not-a-result", number, position=number)
        meta = (r.date, r.event_class, r.field_size, r.series)
        got = events.get(r.event)
        if got is None:
            _check_event(r, number, settings)
            got = events[r.event] = [meta, {}, [], set()]
        elif got[0] != meta:
            raise _error("ranking.event-mismatch", number, event=r.event)
        place, hands, score = r.place, r.hands, r.score
        # one fast test per result (200,000 in a federation); _result_error says which
        if not (
            type(place) is int
            and 1 <= place <= meta[2]
            and type(hands) is int
            and 0 <= hands <= MAX_HANDS
            and type(score) is int
            and -MAX_SCORE <= score <= MAX_SCORE
        ) or (average and score and not hands):
            raise _result_error(r, number)
        players = got[3]
        if r.player in players:
            raise _error("ranking.duplicate", number, event=r.event, player=r.player)
        players.add(r.player)
        places = got[1]
        places[place] = places.get(place, 0) + 1
        got[2].append(r)
    for ev, (meta, places, rows, _players) in events.items():
        if len(rows) > meta[2]:
            raise _error("ranking.field-overfull", event=ev, results=len(rows), field_size=meta[2])
        order = sorted(places)
        for place, following in itertools.pairwise(order):
            if place + places[place] > following:
                raise _error(
                    "ranking.place-overlap",
                    event=ev,
                    tied=places[place],
                    place=place,
                    next=place + places[place],
                    given=following,
                )
    return events


def check_key(settings: RankingSettings) -> tuple:
    """What checking results reads of the settings: results checked under settings of one
    key are checked under any other settings of that key."""
    return (frozenset(settings.class_factors), settings.formula == AVERAGE_PER_HAND)


@dataclass(frozen=True)
class Checked:
    """Results checked once (`check_results`), for `compute_ranking(checked=...)` with
    settings of the same `check_key`: a list computed again after one more event checks
    only that event's results."""

    key: tuple
    events: dict  # event -> [(date, class, field size, series), {place: count}, [results]]


def check_results(results: Iterable[EventResult], settings: RankingSettings) -> Checked:
    """`results` checked as `compute_ranking` checks them (RankingError when bad)."""
    events = _check(results, settings)
    return Checked(check_key(settings), {ev: entry[:3] for ev, entry in events.items()})


def _merged(events: dict, checked: Iterable[Checked], settings: RankingSettings) -> dict:
    """The checked results of `events` and of the parts together. An event in two of them
    has its results checked again all together (as one list would be)."""
    key, out = check_key(settings), dict(events)
    parts = list(checked)
    for part in parts:
        if part.key != key:
            raise ValueError("results checked under settings of another check_key")
        if not out.keys().isdisjoint(part.events):
            rows = [r for entry in events.values() for r in entry[2]]
            rows += [r for p in parts for entry in p.events.values() for r in entry[2]]
            return _check(rows, settings)
        out.update(part.events)
    return out
