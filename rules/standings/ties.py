"""The tie policy of a rule set applied to the ranking chain (pure Python, no Django).

A rule set says how level totals are ranked (``RuleSet.ties``):

* ``"playoff"`` (seed 001: "In the event of a tie, player's involved in the tie should
  play until the tie is broken"): totals alone rank; players level on total share the
  rank, no hands-won or lots separate them, and :func:`scoring.standings.ties_on_lines`
  proposes a playoff wherever the tie crosses a prize line. A played playoff
  (``Entry.playoff_place``) then orders them.
* ``"chain"``: the event's tie-break chain (``scoring.standings.DEFAULT_CHAIN`` unless
  the event sets one) separates them.
"""

from __future__ import annotations

from collections.abc import Sequence

PLAYOFF_POLICY = "playoff"
CHAIN_POLICY = "chain"


def ranking_chain(chain: Sequence[str], policy: str) -> tuple[str, ...]:
    """The chain that ranks under ``policy``: only the total under ``"playoff"``."""
    if policy == PLAYOFF_POLICY:
        return ("total",)
    if policy == CHAIN_POLICY:
        return tuple(chain)
    raise ValueError(f"unknown tie policy {policy!r}")
