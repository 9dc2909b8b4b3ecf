"""The end-of-season proposal: who goes up, who goes down, from the final tables.

Per division (levels: 1 is the top): withdrawn teams always go down; then the last
`relegated` teams of the table (the withdrawn counted in). A relegated team goes to the
division below (its `parent` is this one) with the fewest teams, avoiding one where its
club already plays when two teams of one club may not meet; below the lowest level it
leaves the league. Then, level by level from the top, the first `promoted` teams of each
division go up to its parent, skipping withdrawn teams and, under that rule, a team whose
club already plays there (the next team goes up instead). What cannot be resolved is a
note for the officer, who confirms or changes the proposal."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.leagues.settings import LeagueError, gettext_noop
from rules.ranking_settings import Explanation

UP, DOWN, STAY, OUT = "up", "down", "stay", "out"

NOTES = {
    "club-skip": gettext_noop(
        "%(team)s cannot go up to “%(target)s”: a team of its club plays there; the next team "
        "goes up instead."
    ),
    "too-few": gettext_noop(
        "Division “%(division)s”: only %(count)s of %(promoted)s teams can go up."
    ),
    "club-twice": gettext_noop("Two teams of one club would play in “%(division)s”: %(teams)s."),
}


@dataclass(frozen=True)
class DivisionInput:
    key: Hashable
    name: str
    level: int
    parent: Hashable | None  # the division its promoted teams go up to
    table: Sequence[Hashable]  # the final table, best first
    promoted: int = 0
    relegated: int = 0
    withdrawn: frozenset = frozenset()


@dataclass(frozen=True)
class Move:
    team: Hashable
    source: Hashable
    target: Hashable | None  # None: leaves the league
    kind: str  # up, down, stay, out
    withdrawn: bool = False


@dataclass(frozen=True)
class Proposal:
    moves: tuple[Move, ...]
    divisions: Mapping[Hashable, tuple[Hashable, ...]]  # next season's teams per division
    notes: tuple[Explanation, ...] = field(default_factory=tuple)


def _check(divisions: Sequence[DivisionInput]) -> dict:
    by_key = {d.key: d for d in divisions}
    for d in divisions:
        n = len(d.table)
        if d.promoted < 0 or d.relegated < 0 or d.promoted + d.relegated > n:
            raise LeagueError(
                "league.promote-count",
                division=d.name,
                promoted=d.promoted,
                relegated=d.relegated,
                teams=n,
            )
        if d.parent is None and d.promoted:
            raise LeagueError("league.promote-top", division=d.name)
        if d.parent is not None and (
            d.parent not in by_key or by_key[d.parent].level != d.level - 1
        ):
            raise LeagueError("league.parent", division=d.name)
    return by_key


def propose(
    divisions: Sequence[DivisionInput],
    clubs: Mapping[Hashable, Hashable],
    *,
    one_club_per_division: bool = True,
    names: Mapping[Hashable, str] | None = None,
) -> Proposal:
    by_key = _check(divisions)
    names = names or {}
    members = {d.key: list(d.table) for d in divisions}
    children: dict[Hashable, list[Hashable]] = {d.key: [] for d in divisions}
    for d in divisions:
        if d.parent is not None:
            children[d.parent].append(d.key)
    ordered = sorted(divisions, key=lambda d: d.level)
    moves: dict[Hashable, Move] = {}
    notes: list[Explanation] = []

    def club_in(target, team) -> bool:
        club = clubs.get(team)
        return one_club_per_division and any(
            clubs.get(t) == club for t in members[target] if t != team
        )

    for d in ordered:
        down = [t for t in d.table if t in d.withdrawn]
        rest = [t for t in reversed(d.table) if t not in d.withdrawn]
        down += rest[: max(0, d.relegated - len(down))]
        for t in down:
            members[d.key].remove(t)
            kids = children[d.key]
            if not kids:
                moves[t] = Move(t, d.key, None, OUT, t in d.withdrawn)
                continue
            target = min(kids, key=lambda k: (club_in(k, t), len(members[k]), kids.index(k)))
            members[target].append(t)
            moves[t] = Move(t, d.key, target, DOWN, t in d.withdrawn)
    for d in ordered:
        if d.parent is None:
            continue
        count = 0
        for t in d.table:
            if count == d.promoted:
                break
            if t in moves:
                continue
            if club_in(d.parent, t):
                notes.append(
                    Explanation(
                        "league.note.club-skip",
                        NOTES["club-skip"],
                        {"team": names.get(t, str(t)), "target": by_key[d.parent].name},
                    )
                )
                continue
            members[d.key].remove(t)
            members[d.parent].append(t)
            moves[t] = Move(t, d.key, d.parent, UP)
            count += 1
        if count < d.promoted:
            notes.append(
                Explanation(
                    "league.note.too-few",
                    NOTES["too-few"],
                    {"division": d.name, "count": count, "promoted": d.promoted},
                )
            )
    for d in divisions:
        for t in d.table:
            moves.setdefault(t, Move(t, d.key, d.key, STAY))
    if one_club_per_division:
        for d in divisions:
            seen: dict[Hashable, list] = {}
            for t in members[d.key]:
                seen.setdefault(clubs.get(t), []).append(t)
            for same in seen.values():
                if len(same) > 1:
                    notes.append(
                        Explanation(
                            "league.note.club-twice",
                            NOTES["club-twice"],
                            {
                                "division": d.name,
                                "teams": ", ".join(names.get(t, str(t)) for t in same),
                            },
                        )
                    )
    order = [t for d in divisions for t in d.table]
    return Proposal(
        moves=tuple(moves[t] for t in order),
        divisions={k: tuple(v) for k, v in members.items()},
        notes=tuple(notes),
    )
