"""The repair search of the seating draw (pure Python, no Django): a penalty for every pair
of players who should not share a table, and a local search over swaps of two players at
different tables that lowers it. `tournaments.draw` deals the tables and calls it."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations

from tournaments.draw_types import DrawOptions, DrawPlayer

# Once the best seating has not improved for this many scanned tables the search stops: it
# bounds the time spent on fields whose constraints cannot all hold (a few ms per 10,000).
_STALL_SCANS = 30_000


# Probability of taking a worsening swap when a player has no better or equal one; lets the
# search leave a local minimum (the best seating seen is kept anyway).
_NOISE = 0.3


def _min_pairs(count: int, sizes: Sequence[int]) -> int:
    """Fewest same-table pairs when ``count`` players of one label fill these tables."""
    if count <= len(sizes):
        return 0
    per_table = [0] * len(sizes)
    left, level = min(count, sum(sizes)), 0
    while left:
        level += 1
        for t, size in enumerate(sizes):
            if left and per_table[t] < min(size, level):
                per_table[t] += 1
                left -= 1
    return sum(c * (c - 1) // 2 for c in per_table)


def pair_weights(
    field: Sequence[DrawPlayer],
    sizes: Sequence[int],
    options: DrawOptions,
    prev: set[frozenset[int]],
) -> tuple[list[dict[int, int]], int, tuple[int, int, int]]:
    """Penalty per pair of players (by index), a lower bound of the total penalty and the
    weight of each priority level.

    The base exceeds the number of same-table pairs in any seating, so one group conflict
    outweighs any number of club conflicts, and one club conflict any number of repeats.
    """
    base = sum(s * (s - 1) // 2 for s in sizes) + 1
    group_w, club_w = base * base, base
    weights: list[dict[int, int]] = [{} for _ in field]

    def add(members: list[int], weight: int) -> None:
        for i, j in combinations(members, 2):
            weights[i][j] = weights[i].get(j, 0) + weight
            weights[j][i] = weights[j].get(i, 0) + weight

    labels: dict[str, list[int]] = defaultdict(list)
    clubs: dict[int, list[int]] = defaultdict(list)
    for i, player in enumerate(field):
        for label in set(player.groups):
            labels[label].append(i)
        if player.club is not None:
            clubs[player.club].append(i)
    floor = 0
    for members in labels.values():
        add(members, group_w)
        floor += _min_pairs(len(members), sizes) * group_w
    if options.avoid_same_club:
        for members in clubs.values():
            add(members, club_w)
            floor += _min_pairs(len(members), sizes) * club_w
    if prev:
        index = {player.id: i for i, player in enumerate(field)}
        for pair in prev:
            i, j = (index.get(pid) for pid in pair)
            if i is not None and j is not None:
                add([i, j], 1)
    return weights, floor, (group_w, club_w, 1)


class SwapSearch:
    """Local search over swaps of two players at different tables (sizes never change).

    Picks a player in a conflict of the highest priority present and swaps them with the
    player elsewhere that lowers the penalty most; ranked draws look at the nearest tables
    first (lower-ranked first) and also minimise how far players move from their ranked table.
    """

    def __init__(
        self,
        tables: list[list[int]],
        weights: list[dict[int, int]],
        rng: random.Random,
        position: list[int] | None,
    ) -> None:
        self.weights = weights
        self.rng = rng
        self.position = position
        self._rings: dict[int, list[list[int]]] = {}
        self._load(tables)
        # Ranked draws start from the plain ranked order: that is each player's home table.
        self.home = list(self.where) if position is not None else None
        self.displacement = 0

    def _load(self, tables: list[list[int]]) -> None:
        """Take ``tables`` as the current seating and compute every player's penalty."""
        weights = self.weights
        self.tables = tables
        self.where = [0] * len(weights)
        for t, members in enumerate(tables):
            for i in members:
                self.where[i] = t
        self.cost = [0] * len(weights)
        for members in tables:
            for i in members:
                wi = weights[i]
                if wi:
                    self.cost[i] = sum(wi.get(r, 0) for r in members)
        self.total = sum(self.cost) // 2

    def _ring(self, a: int) -> list[list[int]]:
        rings = self._rings.get(a)
        if rings is None:
            count = len(self.tables)
            rings = []
            for d in range(1, count):
                rings.append([b for b in (a + d, a - d) if 0 <= b < count])
            self._rings[a] = rings
        return rings

    def run(self, max_iterations: int, floor: int, levels: tuple[int, ...]) -> None:
        """Repair conflicts; keeps the best seating found in ``self.tables``."""
        tables, cost, where, rng = self.tables, self.cost, self.where, self.rng
        count = len(tables)
        best_key = (self.total, self.displacement)
        best = [list(m) for m in tables]
        if count < 2 or self.total <= floor:
            return
        ranked = self.position is not None
        position = self.position
        stalled = 0
        improved = True
        for _ in range(max_iterations):
            conflicted = [i for i, c in enumerate(cost) if c]
            if not conflicted:
                break
            top = max(cost[i] for i in conflicted)
            level = next(w for w in levels if w <= top)
            candidates = [i for i in conflicted if cost[i] >= level]
            if ranked and improved:
                # Repair the best tables first and move the lower-ranked player of a conflict.
                p = min(candidates, key=lambda i: (where[i], -position[i]))
            else:
                p = candidates[rng.randrange(len(candidates))]
            move, scanned = self._best_move(p)
            stalled += scanned
            improved = False
            if move is not None:
                d_pen, d_disp, q = move
                if d_pen < 0 or (d_pen == 0 and d_disp <= 0) or rng.random() < _NOISE:
                    self._swap(p, q, d_pen, d_disp)
                    improved = d_pen < 0
                    key = (self.total, self.displacement)
                    if key < best_key:
                        best_key, stalled = key, 0
                        best = [list(m) for m in tables]
                        if self.total <= floor:
                            break
            if stalled > _STALL_SCANS:
                break
        self._restore(best)

    def _best_move(self, p: int) -> tuple[tuple[int, int, int] | None, int]:
        """The swap for ``p`` to make and the number of tables scanned.

        Returns the first improving swap found (nearest ring for ranked draws), else a
        random sideways swap, else the least bad one.
        """
        tables, weights, cost, rng = self.tables, self.weights, self.cost, self.rng
        a = self.where[p]
        wp = weights[p]
        cp = cost[p]
        rest = [r for r in tables[a] if r != p]
        ranked = self.home is not None
        best: tuple[int, int, int, int] | None = None
        sideways: tuple[int, int, int] | None = None
        sideways_seen = 0
        scanned = 0
        if ranked:
            home, position = self.home, self.position
            hp = home[p]
            pp = position[p]
            rings = self._ring(a)
        else:
            count = len(tables)
            offset = rng.randrange(count - 1)
            rings = ([(a + 1 + (offset + k) % (count - 1)) % count] for k in range(count - 1))
        for ring in rings:
            for b in ring:
                scanned += 1
                mb = tables[b]
                base = -cp
                for r in mb:
                    base += wp.get(r, 0)
                for q in mb:
                    wq = weights[q]
                    d_pen = base - wp.get(q, 0) - cost[q]
                    for r in rest:
                        d_pen += wq.get(r, 0)
                    if ranked:
                        hq = home[q]
                        d_disp = abs(b - hp) + abs(a - hq) - abs(a - hp) - abs(b - hq)
                        gap = abs(position[q] - pp)
                    else:
                        d_disp = gap = 0
                    key = (d_pen, d_disp, gap, q)
                    if best is None or key < best:
                        best = key
                    if d_pen == 0:
                        sideways_seen += 1
                        if rng.randrange(sideways_seen) == 0:
                            sideways = (d_pen, d_disp, q)
            if best is not None and best[0] < 0:
                return (best[0], best[1], best[3]), scanned
        if sideways is not None:
            return sideways, scanned
        if best is None:
            return None, scanned
        return (best[0], best[1], best[3]), scanned

    def _swap(self, p: int, q: int, d_pen: int, d_disp: int) -> None:
        tables, weights, cost, where = self.tables, self.weights, self.cost, self.where
        a, b = where[p], where[q]
        ma, mb = tables[a], tables[b]
        for r in ma:
            if r != p:
                wr = weights[r]
                cost[r] += wr.get(q, 0) - wr.get(p, 0)
        for r in mb:
            if r != q:
                wr = weights[r]
                cost[r] += wr.get(p, 0) - wr.get(q, 0)
        ma[ma.index(p)] = q
        mb[mb.index(q)] = p
        where[p], where[q] = b, a
        wp, wq = weights[p], weights[q]
        cost[p] = sum(wp.get(r, 0) for r in mb)
        cost[q] = sum(wq.get(r, 0) for r in ma)
        self.total += d_pen
        self.displacement += d_disp

    def _restore(self, best: list[list[int]]) -> None:
        self._load(best)
        if self.home is not None:
            self.displacement = sum(abs(t - h) for t, h in zip(self.where, self.home, strict=True))

    def pull_back(self) -> None:
        """Ranked draws: move displaced players back toward their ranked table when that
        costs no constraint, best-ranked first."""
        tables, weights, cost, where, home = (
            self.tables,
            self.weights,
            self.cost,
            self.where,
            self.home,
        )
        position = self.position
        assert home is not None and position is not None
        for _ in range(3):
            moved = False
            for p in sorted(range(len(where)), key=position.__getitem__):
                a, hp = where[p], home[p]
                if a == hp:
                    continue
                wp, cp = weights[p], cost[p]
                rest = [r for r in tables[a] if r != p]
                step = 1 if hp > a else -1
                best = None
                for b in range(hp, a, step):
                    mb = tables[b]
                    base = -cp + sum(wp.get(r, 0) for r in mb)
                    for q in mb:
                        wq = weights[q]
                        d_pen = base - wp.get(q, 0) - cost[q] + sum(wq.get(r, 0) for r in rest)
                        hq = home[q]
                        d_disp = abs(b - hp) + abs(a - hq) - abs(a - hp) - abs(b - hq)
                        key = (d_pen, d_disp, abs(position[q] - position[p]), q)
                        if d_pen <= 0 and d_disp < 0 and (best is None or key < best):
                            best = key
                if best is not None:
                    self._swap(p, best[3], best[0], best[1])
                    moved = True
            if not moved:
                break
