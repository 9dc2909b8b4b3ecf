"""What a draw is asked: the players to seat and the options. Both the draw and its repair
search read these types; pure Python like them."""

from __future__ import annotations

from dataclasses import dataclass

LOT = "lot"
RANKED = "ranked"


@dataclass(frozen=True)
class DrawPlayer:
    """A player to seat. ``groups`` are labels such as ``"pair:3"`` or ``"team:1"``;
    ``rank`` is the standing (1 = best) used by ranked draws."""

    id: int
    club: int | None = None
    groups: tuple[str, ...] = ()
    rank: int | None = None


@dataclass(frozen=True)
class DrawOptions:
    """How to draw: ``method`` is ``"lot"`` or ``"ranked"``; the flags switch on the
    optional constraints; ``max_iterations`` bounds the repair search (moves tried)."""

    method: str = LOT
    avoid_same_club: bool = False
    avoid_repeat_opponents: bool = False
    max_iterations: int = 20000
