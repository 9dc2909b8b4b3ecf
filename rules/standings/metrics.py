"""The tie-break metrics: each named once, with its label and description, in one registry.

Pure Python (no Django). Labels and descriptions are English msgids marked with
``gettext_noop``, so ``makemessages`` collects them; the Django layer shows them through
``gettext`` (``scoring.standings.labels``). Adding a metric is one ``Metric`` entry here.
A *chain* is a tuple of keys of :data:`METRICS`; ``"total"`` always decides first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

Key = int | str
Number = int | float

SHARED = "shared"
PLAYOFF = "playoff"
MINIMUM_SERIES = "minimum_series"


def gettext_noop(text: str) -> str:
    """Mark ``text`` for translation without translating it here: Django's own marker has this
    name, so ``makemessages`` collects it, but this module must not import Django."""
    return text


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Entry:
    """One competitor (player, pair or team) with raw aggregates.

    ``key`` is a participant id or a label such as ``"pair:3"``. ``hand_points`` is the sum
    of hand points held at the end of lost hands (lower is better). ``series_totals`` are
    the totals per series in order of play. ``provisional`` is passed through (the total
    includes entered but unconfirmed sheets). ``playoff_place`` is the order a playoff
    decided among tied entries (1 = best); it does not change any total.
    """

    key: Key
    total: Number
    hands_won: int = 0
    hand_rommes: int = 0
    hand_points: int = 0
    series_totals: tuple[Number, ...] = ()
    provisional: bool = False
    playoff_place: int | None = None


@dataclass(frozen=True)
class Metric:
    """A named tie-break metric. ``label`` and ``description`` are msgids (see ``gettext_noop``).

    ``value(entry, profile_higher_is_better)`` derives the value (``None`` for lots, which
    are drawn, not derived). ``higher_is_better_fn(profile_higher_is_better)`` says which
    direction wins for this metric under the profile.
    """

    key: str
    label: str
    value: Callable[[Entry, bool], Number] | None
    higher_is_better_fn: Callable[[bool], bool]
    description: str = ""

    def higher_is_better(self, profile_higher_is_better: bool = True) -> bool:
        return self.higher_is_better_fn(profile_higher_is_better)


def _follows_profile(hib: bool) -> bool:
    return hib


def _always(flag: bool) -> Callable[[bool], bool]:
    return lambda _hib: flag


def _last_series(entry: Entry, _hib: bool) -> Number:
    return entry.series_totals[-1] if entry.series_totals else 0


def _best_series(entry: Entry, hib: bool) -> Number:
    if not entry.series_totals:
        return 0
    return max(entry.series_totals) if hib else min(entry.series_totals)


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        Metric(
            "total",
            gettext_noop("Total"),
            lambda e, _hib: e.total,
            _follows_profile,
            gettext_noop("The total score; better under the event's scoring profile."),
        ),
        Metric(
            "hands_won",
            gettext_noop("Hands won"),
            lambda e, _hib: e.hands_won,
            _always(True),
            gettext_noop("More hands won (went out first) is better."),
        ),
        Metric(
            "hand_rommes",
            gettext_noop("Hand Rommés"),
            lambda e, _hib: e.hand_rommes,
            _always(True),
            gettext_noop("More hand Rommés is better."),
        ),
        Metric(
            "fewest_hand_points",
            gettext_noop("Fewest hand points"),
            lambda e, _hib: e.hand_points,
            _always(False),
            gettext_noop("Fewer hand points held in lost hands is better."),
        ),
        Metric(
            "last_series",
            gettext_noop("Better last series"),
            _last_series,
            _follows_profile,
            gettext_noop("The better result in the last series played."),
        ),
        Metric(
            "best_series",
            gettext_noop("Best single series"),
            _best_series,
            _follows_profile,
            gettext_noop("The better best single series."),
        ),
        Metric(
            "lots",
            gettext_noop("Lots"),
            None,
            _always(False),
            gettext_noop("A lot drawn with the stored seed; lot 1 is best."),
        ),
    )
}


# More hands won, fewer hand points held ("fewer hands lost badly"), the better last series,
# then lots: what German card clubs commonly use (romme-domain.md, "Standings and ties").
DEFAULT_CHAIN: tuple[str, ...] = (
    "total",
    "hands_won",
    "fewest_hand_points",
    "last_series",
    "lots",
)


def normalize_chain(chain: Iterable[str]) -> tuple[str, ...]:
    """Validate a chain; prepend ``"total"`` when missing. ``ValueError`` for unknown or
    repeated metrics, ``"total"`` not first, or ``"lots"`` not last."""
    chain = tuple(chain)
    unknown = [k for k in chain if k not in METRICS]
    if unknown:
        raise ValueError(f"unknown standings metric(s): {', '.join(map(repr, unknown))}")
    if len(set(chain)) != len(chain):
        raise ValueError(f"a metric is repeated in the chain {chain!r}")
    if "total" not in chain:
        chain = ("total", *chain)
    if chain[0] != "total":
        raise ValueError("'total' must come first in the chain")
    if "lots" in chain and chain[-1] != "lots":
        raise ValueError("'lots' must come last in the chain (it separates every tie)")
    return chain


# --------------------------------------------------------------------------- keys and lots
