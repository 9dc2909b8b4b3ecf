"""Matching the players of an arriving event archive to this installation's register
(issue 27, point 4), by player number (the pass number).

A number unknown here, a number known here with another name or birth year, and a number
listed twice in the archive each become a `PlayerMatch` row that the ranking officer
decides (`federation.submissions`): never merged or created silently. Once every row is
decided, `resolve_document` rewrites the archive so that each of its players *is* the
player here (number, name, birth year and gender as registered here), so the import and
the replacement of an event find nothing left to decide.

Reads only; the rows are written by `federation.submissions`.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from common.history import save_with_history
from federation.submissions.models import PlayerMatch, Submission

Problem = PlayerMatch.Problem


@dataclass(frozen=True)
class Found:
    """One player of the archive the officer has to decide."""

    index: int  # in the archive's "players"
    problem: str
    player_number: str
    given_name: str
    family_name: str
    birth_year: int | None
    club_short_name: str


def _key(data: dict) -> tuple:
    return (
        data.get("player_number"),
        data.get("given_name"),
        data.get("family_name"),
        data.get("birth_year"),
    )


def differs(player: Player, data: dict) -> bool:
    """Another person under the same number: the name differs, or both know a birth year
    and they differ (a year missing on one side is no contradiction)."""
    if (player.given_name.strip(), player.family_name.strip()) != (
        str(data.get("given_name", "")).strip(),
        str(data.get("family_name", "")).strip(),
    ):
        return True
    year = data.get("birth_year")
    return player.birth_year is not None and year is not None and player.birth_year != year


class IdenticalTwice(ValueError):
    """The archive lists one player twice with the same data: nothing to decide, refused."""


def _clubs_by_number(data: dict) -> dict[str, str]:
    return {
        p.get("player_number"): p.get("club_short_name") or ""
        for p in data.get("participants", [])
        if isinstance(p, dict)
    }


def find_problems(data: dict) -> list[Found]:
    """The archive's players the officer must decide (one query). ``data`` has passed the
    archive's schema. Raises IdenticalTwice (German message) for a player listed twice
    with the same data."""
    players = data["players"]
    counts = defaultdict(int)
    for entry in players:
        counts[entry["player_number"]] += 1
    seen = set()
    for entry in players:
        key = _key(entry)
        if key in seen:
            raise IdenticalTwice(
                _("The archive lists player %(number)s twice with the same data.")
                % {"number": entry["player_number"]}
            )
        seen.add(key)
    known = {
        p.player_number: p
        for p in Player.objects.filter(player_number__in=[e["player_number"] for e in players])
    }
    clubs = _clubs_by_number(data)
    found = []
    for index, entry in enumerate(players):
        number = entry["player_number"]
        here = known.get(number)
        if counts[number] > 1:
            problem = Problem.DUPLICATE
        elif here is None:
            problem = Problem.UNKNOWN
        elif differs(here, entry):
            problem = Problem.DIFFERENT
        else:
            continue
        found.append(
            Found(
                index=index,
                problem=problem,
                player_number=number,
                given_name=entry["given_name"],
                family_name=entry["family_name"],
                birth_year=entry.get("birth_year"),
                club_short_name=clubs.get(number, "")[:30],
            )
        )
    return found


def unique_numbers(data: dict) -> dict:
    """A copy of ``data`` whose repeated player numbers are told apart (the k-th listing of
    a number and its k-th participant get "<number>~k"), so the archive's other checks can
    run before the officer decides who is who. For checking only, never imported. Without
    a repeated number: ``data`` itself (a copy of 400 players' archive takes a second)."""
    numbers = [entry["player_number"] for entry in data["players"]]
    if len(set(numbers)) == len(numbers):
        return data
    copied = copy.deepcopy(data)
    _renumber(copied, lambda number, k: number if k == 0 else f"{number[:25]}~{k}")
    return copied


def _renumber(data: dict, new_number) -> None:
    """Give the k-th listing of each number (and the k-th participant naming that number)
    the number ``new_number(number, k)``."""
    taken = defaultdict(int)
    for entry in data["players"]:
        number = entry["player_number"]
        entry["player_number"] = new_number(number, taken[number])
        taken[number] += 1
    used = defaultdict(int)
    for participant in data["participants"]:
        number = participant["player_number"]
        if taken.get(number, 0) > 1:
            participant["player_number"] = new_number(number, used[number])
            used[number] += 1


class Unresolved(ValueError):
    """A player of the archive is not decided, or two end up as one player here."""


def resolve_document(data: dict, matches, *, in_place: bool = False) -> dict:
    """The archive with every player replaced by the player here: the decided rows for the
    problems, the same number for the rest. ``in_place``: ``data`` itself is rewritten (the
    caller drops it afterwards; a copy of 400 players' archive takes a second). Raises
    Unresolved (German message)."""
    decided = {}
    for match in matches:
        if match.state == PlayerMatch.State.OPEN or match.player_id is None:
            raise Unresolved(
                _("Player %(number)s (%(name)s) is not matched yet.")
                % {"number": match.player_number, "name": f"{match.given_name} {match.family_name}"}
            )
        decided[(match.player_number, match.given_name, match.family_name, match.birth_year)] = (
            match.player
        )
    document = data if in_place else copy.deepcopy(data)
    numbers = [e["player_number"] for e in document["players"]]
    here = {p.player_number: p for p in Player.objects.filter(player_number__in=numbers)}
    chosen: list[Player] = []
    for entry in document["players"]:
        player = decided.get(_key(entry)) or here.get(entry["player_number"])
        if player is None:
            raise Unresolved(
                _("Player %(number)s is unknown here and not matched.")
                % {"number": entry["player_number"]}
            )
        chosen.append(player)
    if len({p.pk for p in chosen}) != len(chosen):
        raise Unresolved(
            _("Two players of the event were matched to the same player here; match them again.")
        )
    slots = defaultdict(list)  # archive number -> players here, in listing order
    for entry, player in zip(document["players"], chosen, strict=True):
        slots[entry["player_number"]].append(player)
        entry.update(
            player_number=player.player_number,
            given_name=player.given_name,
            family_name=player.family_name,
            birth_year=player.birth_year,
            gender=player.gender,
        )
    used = defaultdict(int)
    for participant in document["participants"]:
        number = participant["player_number"]
        listed = slots.get(number)
        if listed:
            participant["player_number"] = listed[min(used[number], len(listed) - 1)].player_number
            used[number] += 1
    return document


def join_club(player: Player, row: PlayerMatch, actor, why: str) -> None:
    """The new player joins the club the archive names for them, when a club here has that
    short name, from the event's first day (the lists show the club and the region)."""
    club = Club.objects.filter(short_name__iexact=row.club_short_name).first()
    if club is None or not row.club_short_name:
        return
    event = KeyTransform("event", "data")
    day = (
        Submission.objects.filter(pk=row.submission_id)
        .annotate(day=KeyTextTransform("start_date", event))
        .values_list("day", flat=True)
        .first()
    )
    try:
        since = dt.date.fromisoformat(day or "")
    except ValueError:
        since = timezone.localdate()
    save_with_history(Membership(player=player, club=club, valid_from=since), actor, why)
