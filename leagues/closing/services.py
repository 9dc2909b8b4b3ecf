"""The end of a season: the proposal of promotions and relegations from the final tables
(rules.leagues.propose), the officer's confirmation with changes (each with a reason), and
the next season with the same divisions and the moved teams. One transaction; every step in
the history (TeamMove, the new season's rows, the closed season)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from common.history import history_user, save_with_history
from leagues.errors import explanation_text, validation_error
from leagues.models import Division, LeagueSeason, Team, TeamMove
from leagues.permissions import require_officer
from leagues.seasons.services import bump
from leagues.selectors import table_of
from rules.leagues import DivisionInput, LeagueError, propose

KINDS = TeamMove.Kind


@dataclass
class SeasonProposal:
    divisions: list[Division]
    tables: dict[int, list]  # division id -> table lines
    moves: dict[int, tuple[str, int | None]]  # team id -> (kind, target division id)
    notes: list[str]
    teams: dict[int, Team]


def proposal(season: LeagueSeason) -> SeasonProposal:
    divisions = list(season.divisions.order_by("level", "name"))
    tables, inputs, clubs, names, teams = {}, [], {}, {}, {}
    for division in divisions:
        table = table_of(division)
        tables[division.pk] = table.lines
        for line in table.lines:
            names[line.team_id] = line.team
        inputs.append(
            DivisionInput(
                key=division.pk,
                name=division.name,
                level=division.level,
                parent=division.parent_id,
                table=[line.team_id for line in table.lines],
                promoted=division.promoted,
                relegated=division.relegated,
                withdrawn=frozenset(line.team_id for line in table.lines if line.withdrawn),
            )
        )
    for team in Team.objects.filter(division__season=season).select_related("club"):
        clubs[team.pk] = team.club_id
        teams[team.pk] = team
    try:
        result = propose(
            inputs,
            clubs,
            one_club_per_division=season.settings.one_club_per_division,
            names=names,
        )
    except LeagueError as error:
        raise validation_error(error) from error
    return SeasonProposal(
        divisions=divisions,
        tables=tables,
        moves={m.team: (m.kind, m.target) for m in result.moves},
        notes=[explanation_text(n) for n in result.notes],
        teams=teams,
    )


def _check_move(team: Team, kind: str, target: Division | None, by_id: dict) -> None:
    level = by_id[team.division_id].level
    wanted = {KINDS.UP: level - 1, KINDS.DOWN: level + 1, KINDS.STAY: level}
    if kind == KINDS.OUT:
        if target is not None:
            raise ValidationError(
                _("“%(team)s” leaves the league: no division.") % {"team": team.name}
            )
        return
    if kind not in wanted or target is None or target.level != wanted[kind]:
        raise ValidationError(
            _("“%(team)s”: the division “%(division)s” does not fit the move “%(move)s”.")
            % {
                "team": team.name,
                "division": getattr(target, "name", "–"),
                "move": KINDS(kind).label if kind in KINDS.values else kind,
            }
        )


@transaction.atomic
def close_season(
    actor,
    season: LeagueSeason,
    *,
    changes: dict,
    reason: str,
    next_name: str,
    next_first_year: int,
    next_last_year: int,
) -> LeagueSeason:
    """Confirm the proposal, with `changes` (team id -> (kind, target division id)) that
    need `reason`; close the season and create the next one with the moved teams."""
    require_officer(actor, season)
    season = LeagueSeason.objects.select_for_update().get(pk=season.pk)
    if season.status == LeagueSeason.Status.CLOSED:
        raise ValidationError(
            _("The season “%(season)s” is closed already.") % {"season": season.name}
        )
    plan = proposal(season)
    by_id = {d.pk: d for d in plan.divisions}
    moves = dict(plan.moves)
    changed = {k: v for k, v in changes.items() if tuple(v) != tuple(moves.get(k, ()))}
    if changed and not reason:
        raise ValidationError({"reason": _("A change of the proposal needs a reason.")})
    for team_id, (kind, target_id) in changed.items():
        team = plan.teams.get(team_id)
        if team is None:
            raise ValidationError(
                _("Team %(team)s does not play in this season.") % {"team": team_id}
            )
        target = by_id.get(target_id) if target_id is not None else None
        if target_id is not None and target is None:
            raise ValidationError(_("“%(team)s”: no such division.") % {"team": team.name})
        _check_move(team, kind, target, by_id)
        moves[team_id] = (kind, target_id)
    # The final divisions: two teams of one club may not meet when the rules say so.
    final = defaultdict(list)
    for team_id, (kind, target_id) in moves.items():
        if kind != KINDS.OUT:
            final[target_id].append(plan.teams[team_id])
    if season.settings.one_club_per_division:
        for division_id, teams in final.items():
            seen = {}
            for team in teams:
                if team.club_id in seen:
                    raise ValidationError(
                        _("“%(a)s” and “%(b)s” of one club would play in “%(division)s”.")
                        % {
                            "a": seen[team.club_id],
                            "b": team.name,
                            "division": by_id[division_id].name,
                        }
                    )
                seen[team.club_id] = team.name
    if LeagueSeason.objects.filter(association=season.association, name=next_name).exists():
        raise ValidationError(
            {"next_name": _("A season “%(name)s” exists already.") % {"name": next_name}}
        )
    user = history_user(actor)
    records = []
    for team_id, (kind, target_id) in moves.items():
        move = TeamMove(
            season=season,
            team_id=team_id,
            kind=kind,
            target_id=target_id,
            proposed_kind=plan.moves[team_id][0],
        )
        move._change_reason = reason if team_id in changed else "proposal"
        records.append(move)
    # Bulk writes with their history: a national league closes in seconds, not minutes.
    bulk_create_with_history(records, TeamMove, default_user=user)
    season.status = LeagueSeason.Status.CLOSED
    save_with_history(season, actor, reason or "closed")
    nxt = save_with_history(
        LeagueSeason(
            association=season.association,
            name=next_name,
            first_year=next_first_year,
            last_year=next_last_year,
            rules=season.rules,
            previous=season,
            public=season.public,
        ),
        actor,
        "next season",
    )
    mapping = {}
    for level in sorted({d.level for d in plan.divisions}):  # parents first
        new = [
            Division(
                season=nxt,
                name=d.name,
                level=d.level,
                parent=mapping.get(d.parent_id),
                promoted=d.promoted,
                relegated=d.relegated,
            )
            for d in plan.divisions
            if d.level == level
        ]
        created = bulk_create_with_history(
            new, Division, default_user=user, default_change_reason="next season"
        )
        olds = [d for d in plan.divisions if d.level == level]
        mapping.update({old.pk: made for old, made in zip(olds, created, strict=True)})
    bulk_create_with_history(
        [
            Team(
                division=mapping[division_id],
                club_id=team.club_id,
                name=team.name,
                captain_name=team.captain_name,
                captain_id=team.captain_id,
                origin=team,
            )
            for division_id, teams in final.items()
            for team in teams
        ],
        Team,
        default_user=user,
        default_change_reason="next season",
    )
    bump(season.pk)
    return nxt
