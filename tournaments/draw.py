"""Seating draw for a Rommé series: table sizes, lot and ranked draws, constraint repair.

Pure Python on purpose (no Django import): the draw is tested and benchmarked on its own.

Constraints, in priority order:

1. tandem partners and team members (shared ``groups`` label) never share a table,
2. optionally, players of one club do not share a table,
3. optionally, players do not meet an opponent from an earlier series again.

The draw never fails because of a constraint: it seats everyone and reports each broken
constraint as a :class:`Violation` with a stable code the UI translates.
"""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.draw_search import SwapSearch, pair_weights
from tournaments.draw_types import LOT, RANKED, DrawOptions, DrawPlayer

# The one place table sizes are known: a draw seats 3 to 5 at a table (4-tables first);
# no table, a playoff's included, has more than MAX_SEATS seats (Seat.position 0..5).
DRAW_TABLE_SIZES = (3, 5)
MAX_SEATS = 6
GROUP_TOGETHER = "draw.group-together"
SAME_CLUB = "draw.same-club"
REPEAT_OPPONENTS = "draw.repeat-opponents"
TOO_FEW_PLAYERS = "draw.too-few-players"
DUPLICATE_PLAYER = "draw.duplicate-player"
UNKNOWN_PLAYER = "draw.unknown-player"
UNKNOWN_METHOD = "draw.unknown-method"
DEFAULT_OPTIONS = DrawOptions()  # frozen: one shared default is safe
_PRIORITY = {GROUP_TOGETHER: 0, SAME_CLUB: 1, REPEAT_OPPONENTS: 2}


class DrawError(ValueError):
    """A draw that cannot be made at all; ``code`` is stable, the message is English."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Violation:
    """One broken constraint at one table (1-based). ``code`` is what the UI translates."""

    code: str
    table: int
    players: tuple[int, ...]
    detail: str


@dataclass(frozen=True)
class DrawResult:
    """Player ids per table in seat order (table 1 first), and what the draw had to break."""

    seed: int
    tables: tuple[tuple[int, ...], ...]
    violations: tuple[Violation, ...]


def new_seed() -> int:
    """A fresh seed for a draw; the caller stores and shows it so the draw can be repeated."""
    return secrets.randbelow(2**31)


def table_sizes(n: int) -> list[int]:
    """Table sizes for ``n`` players: 4-tables first, then the fewest possible 3-tables.

    3 to 5 players sit at a single table; fewer than 3 cannot play.
    """
    smallest, largest = DRAW_TABLE_SIZES
    if n < smallest:
        raise DrawError(TOO_FEW_PLAYERS, f"a draw needs at least {smallest} players, got {n}")
    if n <= largest:
        return [n]
    threes = -n % 4
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


def opponents_from(tables: Iterable[Sequence[int]]) -> set[frozenset[int]]:
    """All pairs of players who shared a table, e.g. from an earlier series' seating."""
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


def swap_seats(tables: Sequence[Sequence[int]], a: int, b: int) -> tuple[tuple[int, ...], ...]:
    """Swap the seats of players ``a`` and ``b`` (a director's manual change).

    Recompute the violations of the new seating with :func:`check`.
    """
    where = {pid: (t, s) for t, table in enumerate(tables) for s, pid in enumerate(table)}
    for pid in (a, b):
        if pid not in where:
            raise DrawError(UNKNOWN_PLAYER, f"player {pid} is not seated")
    seats = [list(table) for table in tables]
    (ta, sa), (tb, sb) = where[a], where[b]
    seats[ta][sa], seats[tb][sb] = b, a
    return tuple(tuple(table) for table in seats)


def check(
    tables: Sequence[Sequence[int]],
    players: Sequence[DrawPlayer],
    options: DrawOptions = DEFAULT_OPTIONS,
    previous_opponents: Iterable[Collection[int]] = (),
) -> tuple[Violation, ...]:
    """The constraints a seating breaks, most important first (then by table)."""
    return _violations(tables, _by_id(players), options, _pairs(previous_opponents), None)


def draw(
    players: Sequence[DrawPlayer],
    seed: int,
    options: DrawOptions = DEFAULT_OPTIONS,
    previous_opponents: Iterable[Collection[int]] = (),
) -> DrawResult:
    """Seat ``players`` for one series; same inputs and seed give the same result.

    ``previous_opponents`` holds pairs who already met (or whole earlier tables); it only
    matters with ``options.avoid_repeat_opponents``. Lot draws shuffle everyone, ranked draws
    fill the tables in order of ``rank`` (ties and unranked players, who come last, by lot).
    Broken constraints are repaired by swapping players between tables; whatever cannot be
    repaired is listed in ``violations``.
    """
    if options.method not in (LOT, RANKED):
        raise DrawError(UNKNOWN_METHOD, f"unknown draw method {options.method!r}")
    by_id = _by_id(players)
    sizes = table_sizes(len(by_id))
    # Canonical order first, so the result depends on the seed, not on the input order.
    field = [by_id[pid] for pid in sorted(by_id)]
    prev = _pairs(previous_opponents) if options.avoid_repeat_opponents else set()
    rng = random.Random(seed)
    n = len(field)

    if options.method == RANKED:
        ties = [rng.random() for _ in field]
        order = sorted(
            range(n),
            key=lambda i: (field[i].rank is None, field[i].rank or 0, ties[i]),
        )
    else:
        order = list(range(n))
        rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size

    weights, floor, levels = pair_weights(field, sizes, options, prev)
    if options.method == RANKED:
        position = [0] * n
        for pos, i in enumerate(order):
            position[i] = pos
        search = SwapSearch(tables, weights, rng, position)
        search.run(options.max_iterations, floor, levels)
        search.pull_back()
        seated = [sorted(members, key=position.__getitem__) for members in search.tables]
    else:
        search = SwapSearch(tables, weights, rng, None)
        search.run(options.max_iterations, floor, levels)
        seated = [list(members) for members in search.tables]
        for members in seated:
            rng.shuffle(members)

    result_tables = tuple(tuple(field[i].id for i in members) for members in seated)
    violations = _violations(result_tables, by_id, options, prev, len(sizes))
    return DrawResult(seed=seed, tables=result_tables, violations=violations)


def _by_id(players: Iterable[DrawPlayer]) -> dict[int, DrawPlayer]:
    by_id: dict[int, DrawPlayer] = {}
    for player in players:
        if player.id in by_id:
            raise DrawError(DUPLICATE_PLAYER, f"player {player.id} is listed twice")
        by_id[player.id] = player
    return by_id


def _pairs(previous_opponents: Iterable[Collection[int]]) -> set[frozenset[int]]:
    pairs: set[frozenset[int]] = set()
    for met in previous_opponents:
        pairs.update(frozenset(pair) for pair in combinations(sorted(set(met)), 2))
    return pairs


def _violations(
    tables: Sequence[Sequence[int]],
    by_id: dict[int, DrawPlayer],
    options: DrawOptions,
    prev: set[frozenset[int]],
    searched_tables: int | None,
) -> tuple[Violation, ...]:
    """Violations of a seating. ``searched_tables`` is set when a draw made the seating, so
    the detail can say why it was not repaired."""
    count = len(tables)
    label_total: dict[str, int] = defaultdict(int)
    club_total: dict[int, int] = defaultdict(int)
    for player in by_id.values():
        for label in set(player.groups):
            label_total[label] += 1
        if player.club is not None:
            club_total[player.club] += 1

    def why(what: str, total: int) -> str:
        if total > count:
            return f" (unavoidable: {total} {what} for {count} tables)"
        if searched_tables is not None:
            return " (no seating avoiding it was found)"
        return ""

    found: list[Violation] = []
    for t, table in enumerate(tables, start=1):
        for pid in table:
            if pid not in by_id:
                raise DrawError(UNKNOWN_PLAYER, f"player {pid} at table {t} is not in the field")
        ids = sorted(table)
        labels: dict[str, list[int]] = defaultdict(list)
        clubs: dict[int, list[int]] = defaultdict(list)
        for pid in ids:
            player = by_id[pid]
            for label in set(player.groups):
                labels[label].append(pid)
            if player.club is not None:
                clubs[player.club].append(pid)
        for label, members in sorted(labels.items()):
            if len(members) > 1:
                detail = f"{label}: players {_names(members)} share table {t}"
                detail += why("members", label_total[label])
                found.append(Violation(GROUP_TOGETHER, t, tuple(members), detail))
        if options.avoid_same_club:
            for club, members in sorted(clubs.items()):
                if len(members) > 1:
                    detail = f"club {club}: players {_names(members)} share table {t}"
                    detail += why("players", club_total[club])
                    found.append(Violation(SAME_CLUB, t, tuple(members), detail))
        if options.avoid_repeat_opponents and prev:
            for pair in combinations(ids, 2):
                if frozenset(pair) in prev:
                    detail = f"players {_names(pair)} met in an earlier series and share table {t}"
                    if searched_tables is not None:
                        detail += " (no seating avoiding it was found)"
                    found.append(Violation(REPEAT_OPPONENTS, t, pair, detail))
    found.sort(key=lambda v: (_PRIORITY[v.code], v.table, v.players))
    return tuple(found)


def _names(ids: Sequence[int]) -> str:
    names = [str(pid) for pid in ids]
    return ", ".join(names[:-1]) + " and " + names[-1]
