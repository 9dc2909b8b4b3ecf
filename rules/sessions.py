"""A whole sheet: every hand, the rotation of the deal, and how the session ends: complete
rounds, or a target score (seed 004). `check_series` is the check of a sheet.

Seed 004 (Treppenrommé): "The overall winner of a session is the player who achieves an
agreed number of points - for example 500 or 1000 - after several games." Such a session
ends in the hand in which a player's running total first reaches ``target_score``,
whoever dealt it: the sheet is then complete although the players did not deal equally
often. Without a target (``target_score=None``) a sheet is complete when everyone dealt
equally often (and, when planned, after ``planned_rounds`` rounds).
"""

from __future__ import annotations

from collections.abc import Sequence

from .hands import HandResult, check_hand
from .problems import Problem
from .profiles import ScoringError, score_hand
from .ruleset import RuleSet


def target_hand(
    hands: Sequence[HandResult],
    ruleset: RuleSet,
    table_size: int,
    bad_hands: set[int] | None = None,
) -> int | None:
    """The 1-based number of the hand in which a running total first reaches the target.

    None when there is no target or it is not reached; 0 when a hand before it breaks a
    rule or cannot be scored (then nobody can tell). ``bad_hands`` are the numbers of
    hands already known to break a rule (computed with ``check_hand`` when None).
    """
    target = ruleset.target_score
    if target is None:
        return None
    totals = [0] * table_size
    for no, h in enumerate(hands, start=1):
        if bad_hands is not None:
            if no in bad_hands:
                return 0
        elif check_hand(h, ruleset, table_size):
            return 0
        try:
            points = score_hand(h, ruleset, table_size)
        except ScoringError:
            return 0
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        if max(totals) >= target:
            return no
    return None


def session_problems(
    hands: Sequence[HandResult],
    ruleset: RuleSet,
    table_size: int,
    planned_rounds: int | None,
    *,
    partial: bool,
    bad_hands: set[int] | None = None,
) -> list[Problem]:
    """Whether the sheet ends where its session ends (see the module docstring)."""
    problems: list[Problem] = []
    if ruleset.target_score is not None:
        reached = target_hand(hands, ruleset, table_size, bad_hands)
        if reached == 0:
            return problems  # a hand before the end breaks a rule: it says so itself
        if reached is not None and reached < len(hands):
            problems.append(
                Problem(
                    "series.hand-after-target",
                    reached + 1,
                    None,
                    {
                        "target": ruleset.target_score,
                        "reached_in": reached,
                        "hands": len(hands),
                    },
                )
            )
        elif reached is None and not partial:
            problems.append(
                Problem("series.target-not-reached", params={"target": ruleset.target_score})
            )
        return problems
    if partial:
        return problems
    deals = [0] * table_size
    for h in hands:
        if 0 <= h.dealer < table_size:
            deals[h.dealer] += 1
    if len(set(deals)) > 1:
        problems.append(Problem("series.unequal-deals", params={"deals": deals}))
    if planned_rounds is not None and len(hands) != planned_rounds * table_size:
        problems.append(
            Problem(
                "series.round-count",
                params={
                    "hands": len(hands),
                    "expected_hands": planned_rounds * table_size,
                    "planned_rounds": planned_rounds,
                },
            )
        )
    return problems


def check_series(
    hands: Sequence[HandResult],
    ruleset: RuleSet,
    table_size: int,
    planned_rounds: int | None = None,
    *,
    partial: bool = False,
) -> list[Problem]:
    """Every problem on a whole sheet: each hand's problems (``hand`` 1-based), the
    clockwise rotation of the deal, and where the session ends
    (`session_problems`): with ``ruleset.target_score``, in the hand where a
    player reaches the target (no hand after it; unless ``partial``, the target is
    reached); else, unless ``partial`` (a draft), complete rounds (everyone deals
    equally often) and ``planned_rounds`` rounds when given."""
    problems: list[Problem] = []
    if table_size < 1:
        return [Problem("hand.table-size", params={"table_size": table_size})]
    if not hands:
        if not partial:
            problems.append(Problem("series.no-hands"))
        return problems
    for no, h in enumerate(hands, start=1):
        problems.extend(check_hand(h, ruleset, table_size, hand=no))
    bad = {p.hand for p in problems}  # hands that break a rule cannot count to a target
    first = hands[0].dealer
    for no, h in enumerate(hands, start=1):
        expected = (first + no - 1) % table_size
        if h.dealer != expected:
            problems.append(
                Problem(
                    "series.dealer-rotation", no, None, {"dealer": h.dealer, "expected": expected}
                )
            )
    problems.extend(
        session_problems(hands, ruleset, table_size, planned_rounds, partial=partial, bad_hands=bad)
    )
    return problems
