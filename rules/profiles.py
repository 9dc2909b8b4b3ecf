"""Scoring profiles: points per seat for one hand under a rule set.

All profiles return higher-is-better points; penalties are negative. ``m`` below is
``hand_romme_multiplier`` after a hand Rommé, else 1; ``h[i]`` a seat's hand points,
``g[i]`` its melded value, ``w`` the winner.

* ``minus`` (seeds 000, 002, 003): ``w`` scores 0, every other seat ``-h[i] * m``.
* ``melded_minus_held`` (seed 001): ``w`` scores ``g[w]``, others ``g[i] - h[i] * m``.
* ``ranking_points``: ``w`` scores ``win_points`` (``hand_romme_points`` after a hand
  Rommé); others the points of the first band ``(up_to, points)`` with
  ``h[i] <= up_to``, else 0.
* ``skat_style``: ``w`` scores ``win_bonus``; others ``bonus(table_size) - h[i] * m``.
* ``treppenromme`` (seed 004): ``w`` scores ``g[w] + m * sum(h)``; others ``g[i]``.
* ``ranking_table`` (the DRoV-style table of issue 12, values unverified): ``w`` scores
  ``win_points`` (``hand_romme_points`` after a hand Rommé); a loser who melded
  (``g[i] > 0``) the points of the first ``melded_loser_bands`` band with
  ``h[i] <= up_to``, else ``melded_loser_rest``; a loser who never melded
  ``unmelded_loser_points``; plus ``joker_in_hand_points`` per joker a loser holds
  (needs the loser's cards when not 0).

With nobody out (``stock_may_run_out``) every seat is scored as a loser, with no
table bonus (nobody won) and ``m = 1``.

Each profile scores the common hand written as points (a valid winner, every seat's
values present, no cards) in one loop over the seats; anything else goes to its general
form (``_*_general``), which reads cards and raises :class:`ScoringError`. Both give the
same points.
"""

from __future__ import annotations

from collections.abc import Callable

from .hands import HandResult
from .ruleset import RuleSet
from .table_cards import CARD_KEY


class ScoringError(ValueError):
    """A hand lacks a value its profile needs (run ``check_hand`` first)."""


def _points(result: HandResult, ruleset: RuleSet) -> list[int]:
    values = ruleset.hand_values
    out = []
    winner = result.winner
    for i, s in enumerate(result.seats):
        if i == winner:
            out.append(0)
        elif s.cards is not None:
            out.append(sum(values[c.rank] for c in s.cards))
        elif s.hand_points is None:
            raise ScoringError(f"seat {i}: hand points missing")
        else:
            out.append(s.hand_points)
    return out


def _melded(result: HandResult) -> list[int]:
    out = [s.melded for s in result.seats]
    if None in out:
        raise ScoringError(f"seat {out.index(None)}: melded value missing")
    return out  # type: ignore[return-value]


def _mult(result: HandResult, ruleset: RuleSet) -> int:
    return ruleset.hand_romme_multiplier if result.is_hand_romme else 1


def _minus_general(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    m = _mult(result, ruleset)
    return tuple(-p * m for p in _points(result, ruleset))


def _melded_minus_held_general(
    result: HandResult, ruleset: RuleSet, table_size: int
) -> tuple[int, ...]:
    m = _mult(result, ruleset)
    return tuple(g - p * m for g, p in zip(_melded(result), _points(result, ruleset), strict=True))


def _ranking_points_general(
    result: HandResult, ruleset: RuleSet, table_size: int
) -> tuple[int, ...]:
    winner = result.winner
    bands = ruleset.loser_bands
    out = []
    for i, p in enumerate(_points(result, ruleset)):
        if i == winner:
            out.append(ruleset.hand_romme_points if result.is_hand_romme else ruleset.win_points)
            continue
        for up_to, pts in bands:
            if p <= up_to:
                out.append(pts)
                break
        else:
            out.append(0)
    return tuple(out)


def _skat_style_general(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    winner = result.winner
    m = _mult(result, ruleset)
    bonus = 0 if winner is None else ruleset.bonus_for(table_size)
    return tuple(
        ruleset.win_bonus if i == winner else bonus - p * m
        for i, p in enumerate(_points(result, ruleset))
    )


def _treppenromme_general(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    melded = _melded(result)
    winner = result.winner
    if winner is None:
        return tuple(melded)
    pts = _points(result, ruleset)
    melded[winner] += sum(pts) * _mult(result, ruleset)
    return tuple(melded)


def _ranking_table(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    # Fast path: every value present, losers' cards given (hand points and jokers from one
    # pass over the card keys); anything else takes the general form below.
    winner = result.winner
    values = ruleset.hand_values_by_key
    bands = ruleset.melded_loser_bands
    rest = ruleset.melded_loser_rest
    never = ruleset.unmelded_loser_points
    joker = ruleset.joker_in_hand_points
    out = []
    for i, s in enumerate(result.seats):
        cards = s.cards
        if s.melded is None or cards is None:
            return _ranking_table_general(result, ruleset, table_size)
        if i == winner:
            out.append(0)  # set after the loop: the general form's winner value
            continue
        keys = list(map(CARD_KEY, cards))
        p = sum(map(values.__getitem__, keys))
        if s.melded:
            pts = rest
            for up_to, band in bands:
                if p <= up_to:
                    pts = band
                    break
        else:
            pts = never
        out.append(pts + joker * keys.count(0))
    if winner is not None:
        if type(winner) is not int or not 0 <= winner < len(out):
            return _ranking_table_general(result, ruleset, table_size)
        out[winner] = ruleset.hand_romme_points if result.is_hand_romme else ruleset.win_points
    return tuple(out)


def _ranking_table_general(
    result: HandResult, ruleset: RuleSet, table_size: int
) -> tuple[int, ...]:
    winner = result.winner
    melded = _melded(result)
    bands = ruleset.melded_loser_bands
    joker = ruleset.joker_in_hand_points
    out = []
    for i, p in enumerate(_points(result, ruleset)):
        if i == winner:
            out.append(ruleset.hand_romme_points if result.is_hand_romme else ruleset.win_points)
            continue
        if melded[i]:
            pts = next((pts for up_to, pts in bands if p <= up_to), ruleset.melded_loser_rest)
        else:
            pts = ruleset.unmelded_loser_points
        if joker:
            cards = result.seats[i].cards
            if cards is None:
                raise ScoringError(f"seat {i}: cards needed to count jokers in hand")
            pts += joker * sum(1 for c in cards if not c.rank)
        out.append(pts)
    return tuple(out)


# ----- the profiles: a fast path for hands written as points, else the general form ------
# In the loops the winner's entry is computed like a loser's and then overwritten, as the
# general forms give the winner a fixed value whatever the sheet says. The preamble that
# finds the winner and the multiplier is repeated inline: a helper call costs as much as
# a seat here.


def _minus(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    seats = result.seats
    w = result.winner
    m = 1
    if w is not None:
        if type(w) is not int or not 0 <= w < len(seats):
            return _minus_general(result, ruleset, table_size)
        if result.hand_romme or seats[w].hand_romme:  # result.is_hand_romme
            m = ruleset.hand_romme_multiplier
    out = []
    for s in seats:
        p = s.hand_points
        if p is None or s.cards is not None:
            return _minus_general(result, ruleset, table_size)
        out.append(-p * m)
    if w is not None:
        out[w] = 0
    return tuple(out)


def _melded_minus_held(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    seats = result.seats
    w = result.winner
    m = 1
    if w is not None:
        if type(w) is not int or not 0 <= w < len(seats):
            return _melded_minus_held_general(result, ruleset, table_size)
        if result.hand_romme or seats[w].hand_romme:
            m = ruleset.hand_romme_multiplier
    out = []
    for s in seats:
        p = s.hand_points
        g = s.melded
        if p is None or g is None or s.cards is not None:
            return _melded_minus_held_general(result, ruleset, table_size)
        out.append(g - p * m)
    if w is not None:
        out[w] = seats[w].melded - 0 * m  # as the general form computes it (bool -> int)
    return tuple(out)


def _ranking_points(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    seats = result.seats
    w = result.winner
    if w is not None and (type(w) is not int or not 0 <= w < len(seats)):
        return _ranking_points_general(result, ruleset, table_size)
    try:
        table = ruleset.memo["loser_band_table"]
    except KeyError:
        table = _loser_band_table(ruleset)
    top = len(table) - 1
    out = []
    try:  # free in 3.11 unless raised: a non-integer value (5.0) takes the general form
        for s in seats:
            p = s.hand_points
            if p is None or s.cards is not None or p < 0:
                return _ranking_points_general(result, ruleset, table_size)
            out.append(table[p] if p <= top else 0)  # above every band: nothing
    except TypeError:
        return _ranking_points_general(result, ruleset, table_size)
    if w is not None:
        romme = result.hand_romme or seats[w].hand_romme
        out[w] = ruleset.hand_romme_points if romme else ruleset.win_points
    return tuple(out)


def _loser_band_table(ruleset: RuleSet) -> tuple[int, ...]:
    """A loser's points for every hand-point value the bands name (index: hand points), so
    the fast path looks a value up instead of walking the bands; memoised on the rule set."""
    bands = ruleset.loser_bands
    top = max((up_to for up_to, _pts in bands), default=-1)
    table = tuple(
        next((pts for up_to, pts in bands if p <= up_to), 0) for p in range(max(top, 0) + 1)
    )
    ruleset.memo["loser_band_table"] = table
    return table


def _skat_style(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    seats = result.seats
    w = result.winner
    m = 1
    bonus = 0
    if w is not None:
        if type(w) is not int or not 0 <= w < len(seats):
            return _skat_style_general(result, ruleset, table_size)
        if result.hand_romme or seats[w].hand_romme:
            m = ruleset.hand_romme_multiplier
        bonus = ruleset.bonus_for(table_size)
    out = []
    for s in seats:
        p = s.hand_points
        if p is None or s.cards is not None:
            return _skat_style_general(result, ruleset, table_size)
        out.append(bonus - p * m)
    if w is not None:
        out[w] = ruleset.win_bonus
    return tuple(out)


def _treppenromme(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    seats = result.seats
    w = result.winner
    if w is not None and (type(w) is not int or not 0 <= w < len(seats)):
        return _treppenromme_general(result, ruleset, table_size)
    out = []
    pts = []
    for s in seats:
        p = s.hand_points
        g = s.melded
        if p is None or g is None or s.cards is not None:
            return _treppenromme_general(result, ruleset, table_size)
        out.append(g)
        pts.append(p)
    if w is not None:
        pts[w] = 0
        m = ruleset.hand_romme_multiplier if result.hand_romme or seats[w].hand_romme else 1
        out[w] += sum(pts) * m
    return tuple(out)


PROFILES: dict[str, Callable[[HandResult, RuleSet, int], tuple[int, ...]]] = {
    "minus": _minus,
    "melded_minus_held": _melded_minus_held,
    "ranking_points": _ranking_points,
    "skat_style": _skat_style,
    "treppenromme": _treppenromme,
    "ranking_table": _ranking_table,
}


def score_hand(result: HandResult, ruleset: RuleSet, table_size: int) -> tuple[int, ...]:
    """Points per seat (in seat order) for one hand under the rule set's profile.

    Does not check plausibility; raises :class:`ScoringError` when a needed value is
    missing.
    """
    return PROFILES[ruleset.profile](result, ruleset, table_size)
