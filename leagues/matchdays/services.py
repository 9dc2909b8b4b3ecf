"""Writes of match days: planning a day (date, host, venue, teams), opening it as an event
of the host club, the teams' line-ups (entered in the event as participants and team
groups, so the existing draw seats no two players of one team at a table), the day's result
from the event's stored totals, and its approval by the officer. One transaction each."""

from __future__ import annotations

import secrets
from collections import defaultdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from common.history import delete_with_history, history_user, save_with_history
from leagues.models import (
    Division,
    LeagueSeason,
    LineupEntry,
    MatchDay,
    MatchDayResult,
    PlayerDayResult,
    RosterEntry,
    Team,
    TeamDayResult,
)
from leagues.permissions import (
    can_run_day,
    is_officer,
    require_lineup,
    require_officer,
    require_run_day,
)
from leagues.seasons.services import bump
from rules.leagues import DayTeam, rank_day
from scoring.models import Sheet
from scoring.standings.aggregate import aggregate
from tournaments.models import Event, Group, GroupMember, Participant, Series, Table


def _day_label(match_day: MatchDay) -> str:
    return _("match day %(number)s of “%(division)s”") % {
        "number": match_day.number,
        "division": match_day.division.name,
    }


@transaction.atomic
def create_match_day(
    actor,
    division: Division,
    *,
    number,
    date,
    host: Club,
    venue="",
    teams=(),
    series_count=3,
    lineup_deadline=None,
    reason="",
) -> MatchDay:
    season = division.season
    require_officer(actor, season)
    teams = list(teams)
    if division.match_days.filter(number=number).exists():
        raise ValidationError(
            {"number": _("Match day %(number)s exists already.") % {"number": number}}
        )
    foreign = [t.name for t in teams if t.division_id != division.pk]
    if foreign:
        raise ValidationError(
            {"teams": _("Not teams of this division: %(teams)s.") % {"teams": ", ".join(foreign)}}
        )
    if len(teams) < 2:
        raise ValidationError({"teams": _("A match day needs at least two teams.")})
    if season.settings.one_club_per_division:
        seen = {}
        for t in teams:
            if t.club_id in seen:
                raise ValidationError(
                    {
                        "teams": _(
                            "“%(a)s” and “%(b)s” are teams of one club; the rules do not let "
                            "them meet on a match day."
                        )
                        % {"a": seen[t.club_id], "b": t.name}
                    }
                )
            seen[t.club_id] = t.name
    if not 1 <= series_count <= 20:
        raise ValidationError({"series_count": _("A match day has 1 to 20 series.")})
    day = MatchDay(
        division=division,
        number=number,
        date=date,
        host=host,
        venue=venue,
        series_count=series_count,
        lineup_deadline=lineup_deadline,
    )
    save_with_history(day, actor, reason or "planned")
    day.teams.set(teams)
    bump(season.pk)
    return day


@transaction.atomic
def open_match_day(actor, match_day: MatchDay) -> MatchDay:
    """The day becomes an event of the host club (its director runs it as a tournament)."""
    require_run_day(actor, match_day)
    match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
    if match_day.event_id is not None:
        raise ValidationError(_("%(day)s is open already.") % {"day": _day_label(match_day)})
    event = Event(
        club=match_day.host,
        name=str(match_day),
        start_date=match_day.date,
        venue=match_day.venue,
        later_series_seating=Event.Seating.LOT,
        created_by=history_user(actor),
    )
    save_with_history(event, actor, "league match day")
    match_day.event = event
    match_day.status = MatchDay.Status.OPEN
    match_day.lots_seed = secrets.randbits(48)
    save_with_history(match_day, actor, "opened")
    for entry in LineupEntry.objects.filter(match_day=match_day).select_related("team"):
        _enter(actor, match_day, entry)
    bump(match_day.division.season_id)
    return match_day


def _group(match_day: MatchDay, team: Team) -> Group:
    group = Group.objects.filter(event_id=match_day.event_id, kind=Group.Kind.TEAM, name=team.name)
    return group.first() or save_with_history(
        Group(event_id=match_day.event_id, kind=Group.Kind.TEAM, name=team.name), None
    )


def _enter(actor, match_day: MatchDay, entry: LineupEntry) -> None:
    """The named player as a participant of the day's event, in their team's group."""
    participant = Participant.objects.filter(event_id=match_day.event_id, player=entry.player_id)
    participant = participant.first() or save_with_history(
        Participant(
            event_id=match_day.event_id,
            player_id=entry.player_id,
            club_id=entry.team.club_id,
            checked_in=True,
        ),
        actor,
    )
    GroupMember.objects.get_or_create(
        group=_group(match_day, entry.team), participant=participant, kind=Group.Kind.TEAM
    )
    entry.participant = participant
    entry.save(update_fields=["participant"])


def _started(match_day: MatchDay) -> bool:
    if match_day.event_id is None:
        return False
    return (
        Series.objects.filter(event_id=match_day.event_id)
        .exclude(status__in=[Series.Status.PLANNED, Series.Status.SEATED])
        .exists()
        or Series.objects.filter(event_id=match_day.event_id, drawn_at__isnull=False).exists()
    )


def lineup_problems(match_day: MatchDay, team: Team, players: list[Player]) -> list[str]:
    """Why these players cannot be the team's line-up of the day (German, naming them)."""
    season = match_day.division.season
    cfg = season.settings
    problems = []
    if team.withdrawn:
        return [_("“%(team)s” has withdrawn from the season.") % {"team": team.name}]
    if len(players) > cfg.team_size:
        problems.append(
            _("“%(team)s” may name at most %(size)s players; %(count)s were named.")
            % {"team": team.name, "size": cfg.team_size, "count": len(players)}
        )
    if len({p.pk for p in players}) != len(players):
        problems.append(_("A player can be named only once."))
    on_roster = set(RosterEntry.objects.filter(team=team).values_list("player_id", flat=True))
    if len(on_roster) < cfg.roster_min:
        problems.append(
            _("The roster of “%(team)s” has %(count)s players; it needs at least %(min)s.")
            % {"team": team.name, "count": len(on_roster), "min": cfg.roster_min}
        )
    elsewhere = dict(
        LineupEntry.objects.filter(match_day=match_day, player__in=players)
        .exclude(team=team)
        .values_list("player_id", "team__name")
    )
    # Days each player played for a higher team of the club this season.
    higher = defaultdict(set)
    for player_id, day_id in LineupEntry.objects.filter(
        player__in=players,
        team__club_id=team.club_id,
        team__division__season=season,
        team__division__level__lt=match_day.division.level,
        participant__isnull=False,
    ).values_list("player_id", "match_day_id"):
        higher[player_id].add(day_id)
    for p in players:
        name = p.full_name
        if p.pk not in on_roster:
            problems.append(
                _("%(name)s is not on the roster of “%(team)s”.")
                % {"name": name, "team": team.name}
            )
        if p.pk in elsewhere:
            problems.append(
                _("%(name)s is already in the line-up of “%(other)s” on this match day.")
                % {"name": name, "other": elsewhere[p.pk]}
            )
        if len(higher[p.pk]) >= cfg.drop_days:
            problems.append(
                _(
                    "%(name)s has played for a higher team of the club on %(days)s match days and "
                    "may no longer play for “%(team)s”."
                )
                % {"name": name, "days": len(higher[p.pk]), "team": team.name}
            )
    return problems


@transaction.atomic
def set_lineup(actor, match_day: MatchDay, team: Team, players: list[Player], *, reason="") -> list:
    """The captain names the day's line-up from the roster, before the deadline; later only
    the host's director or the officer."""
    require_lineup(actor, team)
    match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
    label = _day_label(match_day)
    if not match_day.teams.filter(pk=team.pk).exists():
        raise ValidationError(
            _("“%(team)s” does not play on %(day)s.") % {"team": team.name, "day": label}
        )
    if hasattr(match_day, "result"):
        raise ValidationError(_("%(day)s has a result; its line-ups are final.") % {"day": label})
    late = _started(match_day) or (
        match_day.lineup_deadline is not None and timezone.now() > match_day.lineup_deadline
    )
    if late and not can_run_day(actor, match_day):
        raise ValidationError(
            _(
                "The line-up deadline of %(day)s has passed; only the host's director changes "
                "line-ups now."
            )
            % {"day": label}
        )
    problems = lineup_problems(match_day, team, players)
    if problems:
        raise ValidationError(problems)
    wanted = {p.pk for p in players}
    current = {e.player_id: e for e in LineupEntry.objects.filter(match_day=match_day, team=team)}
    for player_id, entry in current.items():
        if player_id in wanted:
            continue
        if entry.participant_id is not None:
            if entry.participant.seats.exists():
                raise ValidationError(
                    _("%(name)s has been seated already and stays in the line-up.")
                    % {"name": entry.player.full_name}
                )
            delete_with_history(entry.participant, actor, reason or "line-up")
        delete_with_history(entry, actor, reason or "line-up")
    entries = []
    for p in players:
        entry = current.get(p.pk) or save_with_history(
            LineupEntry(match_day=match_day, team=team, player=p), actor, reason or "line-up"
        )
        if match_day.event_id is not None and entry.participant_id is None:
            entry.team = team
            _enter(actor, match_day, entry)
        entries.append(entry)
    bump(match_day.division.season_id)
    return entries


def result_problems(match_day: MatchDay) -> list[str]:
    """What keeps the day's result from being submitted (German)."""
    if match_day.event_id is None:
        return [_("%(day)s has not been opened.") % {"day": _day_label(match_day)}]
    tables = (
        Table.objects.filter(series__event_id=match_day.event_id, series__kind=Series.Kind.REGULAR)
        .values("series__number")
        .annotate(
            tables=Count("id"),
            confirmed=Count("id", filter=Q(sheet__status=Sheet.Status.CONFIRMED)),
        )
        .order_by("series__number")
    )
    problems = []
    played = 0
    for row in tables:
        played += 1
        if row["confirmed"] < row["tables"]:
            problems.append(
                _("Series %(number)s: %(open)s of %(tables)s tables have no confirmed sheet.")
                % {
                    "number": row["series__number"],
                    "open": row["tables"] - row["confirmed"],
                    "tables": row["tables"],
                }
            )
    if played < match_day.series_count:
        problems.append(
            _("%(played)s of %(count)s series have been played.")
            % {"played": played, "count": match_day.series_count}
        )
    return problems


def compute_day(match_day: MatchDay):
    """The day's team results from the event's stored seat totals (confirmed sheets)."""
    series = list(
        Series.objects.filter(event_id=match_day.event_id, kind=Series.Kind.REGULAR)
        .order_by("number")
        .values("id", "number", "day", "kind")
    )
    totals = defaultdict(dict)
    for r in aggregate(series):
        totals[r.participant_id][r.number] = r.total
    entries = list(
        LineupEntry.objects.filter(match_day=match_day).values_list(
            "team_id", "player_id", "participant_id"
        )
    )
    teams = {t.pk: {} for t in match_day.teams.all()}
    for team_id, player_id, participant_id in entries:
        teams.setdefault(team_id, {})[player_id] = totals.get(participant_id, {})
    event = match_day.event
    rows = rank_day(
        [DayTeam(key, players) for key, players in teams.items()],
        [s["number"] for s in series],
        match_day.division.season.settings,
        higher_is_better=event.ruleset.higher_is_better,
        lots_seed=match_day.lots_seed or 0,
    )
    return rows, entries, totals, [s["number"] for s in series]


@transaction.atomic
def submit_result(actor, match_day: MatchDay) -> MatchDayResult:
    """The host's director (or the officer) submits the day; it counts once approved."""
    require_run_day(actor, match_day)
    match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
    existing = MatchDayResult.objects.filter(match_day=match_day).first()
    if existing is not None and existing.status == MatchDayResult.Status.APPROVED:
        raise ValidationError(
            _("The result of %(day)s has been approved already.") % {"day": _day_label(match_day)}
        )
    problems = result_problems(match_day)
    if problems:
        raise ValidationError(problems)
    return _store_result(match_day, existing, actor, "submitted")


@transaction.atomic
def take_arrival(match_day: MatchDay, actor=None) -> MatchDayResult | None:
    """The day's event arrived from the host club's laptop (a submission taken in): once every
    series is played and confirmed, its result waits for the officer's approval, as the
    director's own report does. A result already approved that the new content changes
    goes back to waiting (it counts again once approved); an unchanged one stays. None while
    the day is not complete."""
    match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
    if result_problems(match_day):
        return None
    existing = MatchDayResult.objects.filter(match_day=match_day).first()
    if existing is not None and existing.status == MatchDayResult.Status.APPROVED:
        rows = compute_day(match_day)[0]
        stored = {
            t.team_id: (t.place, t.points, t.score, list(t.series_totals or []))
            for t in existing.teams.all()
        }
        arrived = {r.key: (r.place, r.points, r.total, list(r.series_totals)) for r in rows}
        if stored == arrived:
            return existing
        bump(match_day.division.season_id)  # the approved figures stop counting
    return _store_result(match_day, existing, actor, "arrived from the host's laptop")


def _store_result(match_day: MatchDay, existing, actor, reason: str) -> MatchDayResult:
    rows, entries, totals, numbers = compute_day(match_day)
    if existing is not None:
        existing.teams.all().delete()
        existing.players.all().delete()
    result = existing or MatchDayResult(match_day=match_day)
    result.status = MatchDayResult.Status.SUBMITTED
    result.submitted_at, result.submitted_by = timezone.now(), history_user(actor)
    result.decided_at = result.decided_by = None
    # An arrival sent with no user (a command's token) is still a result: no form to clean.
    save_with_history(result, actor, reason, clean=history_user(actor) is not None)
    division_id = match_day.division_id
    TeamDayResult.objects.bulk_create(
        TeamDayResult(
            result=result,
            team_id=r.key,
            division_id=division_id,
            place=r.place,
            points=r.points,
            score=r.total,
            series_totals=list(r.series_totals),
            series_won=r.series_won,
            best_player=r.best_player,
            missing=r.missing,
            reason=list(r.reason) if r.reason else None,
        )
        for r in rows
    )
    PlayerDayResult.objects.bulk_create(
        PlayerDayResult(
            result=result,
            team_id=team_id,
            division_id=division_id,
            player_id=player_id,
            series_totals=[totals.get(pid, {}).get(n) for n in numbers],
            total=sum(totals.get(pid, {}).values()),
        )
        for team_id, player_id, pid in entries
        if totals.get(pid)
    )
    return result


def on_event_arrived(sender=None, *, event_id: int, actor=None, **_kwargs) -> None:
    """``tournaments.results.event_arrived``: is the event a league's match day? (one query)"""
    match_day = MatchDay.objects.filter(event_id=event_id).first()
    if match_day is not None:
        take_arrival(match_day, actor)


@transaction.atomic
def decide_result(
    actor, result: MatchDayResult, *, approve: bool, note: str = ""
) -> MatchDayResult:
    """The officer approves the submitted result (it counts from now) or rejects it."""
    match_day = result.match_day
    season: LeagueSeason = match_day.division.season
    require_officer(actor, season)
    result = MatchDayResult.objects.select_for_update().get(pk=result.pk)
    if result.status != MatchDayResult.Status.SUBMITTED:
        raise ValidationError(
            _("The result of %(day)s is not waiting for approval.") % {"day": _day_label(match_day)}
        )
    if not approve and not note:
        raise ValidationError({"note": _("Say why the result is rejected.")})
    result.status = MatchDayResult.Status.APPROVED if approve else MatchDayResult.Status.REJECTED
    result.decided_at, result.decided_by, result.note = timezone.now(), history_user(actor), note
    save_with_history(result, actor, note or "approved")
    result.teams.update(approved=approve)
    result.players.update(approved=approve)
    bump(season.pk)
    return result


def officer_sees(user, match_day: MatchDay) -> bool:
    return is_officer(user, match_day.division.season)
