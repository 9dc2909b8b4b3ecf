"""Registering many players at once: ticked search results, a pasted list, or a whole club.

One transaction per call, like every service; players already registered are skipped
and reported, never registered twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from clubs.models import Club, Player
from clubs.permissions import ORGANISER, require_role
from common.history import history_user

from .models import Event, Participant

MAX_LINES = 1000  # a pasted list longer than any event's field is a mistake


@dataclass
class BulkResult:
    registered: list[Player] = field(default_factory=list)
    already: list[Player] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one German sentence per line not used


@transaction.atomic
def register_players(actor, event: Event, player_ids, *, checked_in: bool = True) -> BulkResult:
    """Register the given registry players (ids); those already in the event are reported."""
    require_role(actor, event.club, ORGANISER)
    ids = {int(pk) for pk in player_ids}
    players = list(Player.objects.filter(pk__in=ids).with_current_club().order_by("sort_key"))
    registered = set(
        Participant.objects.filter(event=event, player_id__in=ids).values_list(
            "player_id", flat=True
        )
    )
    result = BulkResult()
    new = []
    for player in players:
        if player.pk in registered:
            result.already.append(player)
            continue
        new.append(
            Participant(
                event=event,
                player=player,
                club_id=player.current_club_id,
                checked_in=checked_in,
            )
        )
        result.registered.append(player)
    missing = ids - {p.pk for p in players}
    if missing:
        result.problems.append(
            _("%(count)d selected players no longer exist.") % {"count": len(missing)}
        )
    bulk_create_with_history(new, Participant, default_user=history_user(actor), batch_size=500)
    return result


def resolve_lines(text: str, club_id: int | None = None) -> tuple[list[int], list[str]]:
    """Player ids for a pasted list: one player per line, by number, by full name, or by
    family name alone (a club evening's list is often written so).

    Numbers are exact, names match whatever the case. A family name shared by several
    players stands for the one of them who is a member of `club_id` (the event's club),
    if exactly one is. A line matching no player, or several, becomes a problem naming the
    line (and, for a family name, the players it could mean).
    """
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)]
    lines = [(n, line) for n, line in lines if line]
    problems = []
    if len(lines) > MAX_LINES:
        problems.append(_("Only the first %(max)d lines were read.") % {"max": MAX_LINES})
        lines = lines[:MAX_LINES]
    by_number = dict(
        Player.objects.filter(player_number__in=[line for _n, line in lines]).values_list(
            "player_number", "pk"
        )
    )
    wanted_names = {_name_key(line) for _n, line in lines if line not in by_number}
    by_name: dict[str, list[int]] = {}
    for pk, key in Player.objects.filter(name_key__in=wanted_names).values_list("pk", "name_key"):
        by_name.setdefault(key, []).append(pk)
    by_family = _by_family_name(
        {_family_key(line) for _n, line in lines if line not in by_number} - set(by_name)
    )
    ids = []
    for number, line in lines:
        if line in by_number:
            ids.append(by_number[line])
            continue
        matches = by_name.get(_name_key(line), [])
        if len(matches) == 1:
            ids.append(matches[0])
        elif matches:
            problems.append(
                _("Line %(line)d “%(text)s”: %(count)d players have this name; use the number.")
                % {"line": number, "text": line, "count": len(matches)}
            )
        elif family := by_family.get(_family_key(line), []):
            # Several: the event's club's member, where only one of them is.
            chosen = (
                family if len(family) == 1 else [p for p in family if p.current_club_id == club_id]
            )
            if len(chosen) == 1:
                ids.append(chosen[0].pk)
            else:
                shown = ", ".join(
                    f"{p.given_name} {p.family_name} ({p.player_number})" for p in family[:5]
                )
                problems.append(
                    _(
                        "Line %(line)d “%(text)s”: %(count)d players have this family name "
                        "(%(players)s); write the given name too, or the number."
                    )
                    % {
                        "line": number,
                        "text": line,
                        "count": len(family),
                        "players": shown + (", …" if len(family) > 5 else ""),
                    }
                )
        else:
            problems.append(
                _("Line %(line)d “%(text)s”: no player with this number or name.")
                % {"line": number, "text": line}
            )
    return ids, problems


def _family_key(line: str) -> str:
    """A line read as a family name alone ("Müller", "von der Heide", "Müller,")."""
    return " ".join(line.removesuffix(",").split()).casefold()


def _by_family_name(keys: set[str]) -> dict[str, list[Player]]:
    """The players whose family name is each key (the end of their name key), in German
    order, with their current club; a hundred keys a query."""
    found: dict[str, list[Player]] = {}
    keys = sorted(key for key in keys if key and "," not in key)
    for start in range(0, len(keys), 100):
        chunk = keys[start : start + 100]
        ends = Q()
        for key in chunk:
            ends |= Q(name_key__endswith=f" {key}")
        players = Player.objects.filter(ends).with_current_club().order_by("sort_key")
        for player in players:
            family = " ".join(player.family_name.split()).casefold()
            if family in chunk:
                found.setdefault(family, []).append(player)
    return found


def _name_key(line: str) -> str:
    """ "Given Family" or "Family, Given" as the registry's name key."""
    if "," in line:
        family, given = (part.strip() for part in line.split(",", 1))
        line = f"{given} {family}"
    return " ".join(line.split()).casefold()


@transaction.atomic
def register_list(actor, event: Event, text: str, *, checked_in: bool = True) -> BulkResult:
    require_role(actor, event.club, ORGANISER)
    ids, problems = resolve_lines(text, event.club_id)
    result = register_players(actor, event, ids, checked_in=checked_in)
    result.problems[:0] = problems
    return result


@transaction.atomic
def register_club(actor, event: Event, club: Club, *, checked_in: bool = True) -> BulkResult:
    """All active current members of a club."""
    require_role(actor, event.club, ORGANISER)
    members = Player.objects.filter(active=True).with_current_club().filter(current_club_id=club.pk)
    return register_players(
        actor, event, members.values_list("pk", flat=True), checked_in=checked_in
    )
