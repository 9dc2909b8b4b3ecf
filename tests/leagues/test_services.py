"""League services: German refusals that name the field, team, player or match day and
store nothing; a match day from line-up to approved result in the table."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from federation.models import Affiliation
from leagues import selectors
from leagues.closing import services as closing
from leagues.demo.play import play_match_day
from leagues.matchdays import services as matchday_services
from leagues.models import LineupEntry, MatchDayResult, RosterEntry, Team
from leagues.seasons import services as season_services
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.leagues.conftest import name_all
from tournaments.models import GroupMember, Participant


def messages(error):
    return " ".join(error.value.messages)


def test_roster_refuses_with_player_named(league):
    team = league.teams[0]
    sixth = league.players[0][5]
    season_services.add_to_roster(league.directors[0], team, sixth)  # 6 of 6
    extra = MembershipFactory(
        club=league.clubs[0], player=PlayerFactory(given_name="Zu", family_name="Viel")
    ).player
    with pytest.raises(ValidationError) as err:
        season_services.add_to_roster(league.directors[0], team, extra)
    assert "Zu Viel" in messages(err) and "voll" in messages(err)
    stranger = league.players[1][5]
    with pytest.raises(ValidationError) as err:
        season_services.add_to_roster(league.directors[0], team, stranger)
    assert stranger.full_name in messages(err)
    assert not RosterEntry.objects.filter(player__in=[extra, stranger], team=team).exists()


def test_one_team_per_level(league):
    # a second team of club 0 in the lower division may hold the same player (other level),
    # but two teams at one level may not
    low = season_services.register_team(
        league.directors[0], league.low, league.clubs[0], name="C0 II"
    )
    player = league.players[0][0]
    season_services.add_to_roster(league.directors[0], low, player)
    other_low = season_services.register_team(
        league.directors[1], league.low, league.clubs[1], name="C1 II"
    )
    season_services.update_season(
        league.officer,
        league.season,
        reason="Gäste",
        rules={**league.season.rules, "guest_players": True},
    )
    with pytest.raises(ValidationError) as err:
        season_services.add_to_roster(league.directors[1], other_low, player)
    assert player.full_name in messages(err) and "C0 II" in messages(err)


def test_two_teams_of_one_club_refused(league):
    with pytest.raises(ValidationError) as err:
        season_services.register_team(league.directors[0], league.top, league.clubs[0], name="X")
    assert "Club 0" in messages(err)


def test_a_club_outside_the_association_is_refused(league):
    """The league of LV Hessen is played by its clubs; a club of Thüringen (or of none) may not
    register a team, and nothing is stored."""
    stranger = ClubFactory(name="Club Erfurt", short_name="CE")
    director = league.officer  # the officer may register for any club, but not this one
    for affiliated_to in (None, league.other_region):
        if affiliated_to is not None:
            Affiliation.objects.create(
                club=stranger, association=affiliated_to, since=dt.date(2024, 1, 1)
            )
        with pytest.raises(ValidationError) as err:
            season_services.register_team(director, league.low, stranger, name="CE I")
        assert "Club Erfurt" in messages(err) and "LV Hessen" in messages(err)
    assert not Team.objects.filter(club=stranger).exists()


def test_match_day_with_two_teams_of_one_club(league):
    low = season_services.register_team(league.directors[0], league.low, league.clubs[0], name="A")
    with pytest.raises(ValidationError) as err:
        matchday_services.create_match_day(
            league.officer,
            league.top,
            number=9,
            date=dt.date(2026, 5, 1),
            host=league.clubs[0],
            teams=[league.teams[0], low],
        )
    assert "A" in messages(err)


def test_lineup_refusals(league, day):
    name_all(league, day, open_first=True)
    team0, team1 = league.teams[:2]
    not_on_roster = league.players[0][5]
    with pytest.raises(ValidationError) as err:
        matchday_services.set_lineup(league.captain, day, team0, [not_on_roster])
    assert not_on_roster.full_name in messages(err) and "Kader" in messages(err)
    # a player of team 0 in team 1's line-up: not on its roster, and in another line-up
    with pytest.raises(ValidationError) as err:
        matchday_services.set_lineup(league.directors[1], day, team1, [league.players[0][0]])
    assert "schon in der Aufstellung" in messages(err)
    with pytest.raises(ValidationError):
        matchday_services.set_lineup(league.captain, day, team0, league.players[0][:5])
    assert LineupEntry.objects.filter(match_day=day, team=team0).count() == 4


def test_captain_of_another_team_refused(league, day):
    with pytest.raises(PermissionDenied):
        matchday_services.set_lineup(league.captain, day, league.teams[1], league.players[1][:4])


def test_open_enters_lineups_as_team_groups(league, day):
    name_all(league, day)
    assert day.event.club == league.clubs[0]
    assert Participant.objects.filter(event=day.event).count() == 16
    assert GroupMember.objects.filter(group__event=day.event).count() == 16


def test_day_through_approval_into_table(league, day):
    name_all(league, day)
    with pytest.raises(ValidationError) as err:
        matchday_services.submit_result(league.directors[0], day)
    assert "Serien" in messages(err)
    # team i's players score 10 * (4 - i) per series: higher is better, team 0 best
    team_of = dict(
        LineupEntry.objects.filter(match_day=day).values_list("participant_id", "team_id")
    )
    index = {t.pk: i for i, t in enumerate(league.teams)}
    play_match_day(day, lambda n, pid: 10 * (4 - index[team_of[pid]]))
    result = matchday_services.submit_result(league.directors[0], day)
    table = selectors.table_of(league.top)
    assert all(line.points == 0 for line in table.lines)  # nothing counts before approval
    with pytest.raises(PermissionDenied):
        matchday_services.decide_result(league.directors[0], result, approve=True)
    with pytest.raises(PermissionDenied):
        matchday_services.decide_result(league.outsider_officer, result, approve=True)
    matchday_services.decide_result(league.officer, result, approve=True)
    table = selectors.table_of(league.top)
    assert [line.team for line in table.lines] == [t.name for t in league.teams]
    assert [line.points for line in table.lines] == [4, 3, 2, 1]
    assert table.lines[0].score == 4 * 3 * 40
    assert table.lines[0].why.startswith("Vorn")
    assert table.players[0].series == 3
    result.refresh_from_db()
    assert result.status == MatchDayResult.Status.APPROVED
    with pytest.raises(ValidationError):
        matchday_services.decide_result(league.officer, result, approve=True)
    # line-ups are final once there is a result
    with pytest.raises(ValidationError):
        matchday_services.set_lineup(league.captain, day, league.teams[0], league.players[0][:3])


def test_drop_rule(league, day):
    low = season_services.register_team(
        league.directors[0], league.low, league.clubs[0], name="C0 II"
    )
    for p in league.players[0][:4]:
        season_services.add_to_roster(league.directors[0], low, p)
    other = season_services.register_team(
        league.directors[1], league.low, league.clubs[1], name="C1 II"
    )
    for p in league.players[1][:4]:
        season_services.add_to_roster(league.directors[1], other, p)
    days = [day]
    for n in (2, 3):
        days.append(
            matchday_services.create_match_day(
                league.officer,
                league.top,
                number=n,
                date=dt.date(2026, 3, n),
                host=league.clubs[0],
                teams=league.teams,
            )
        )
    for d in days:
        matchday_services.open_match_day(league.officer, d)
        matchday_services.set_lineup(league.directors[0], d, league.teams[0], league.players[0][:4])
    low_day = matchday_services.create_match_day(
        league.officer,
        league.low,
        number=1,
        date=dt.date(2026, 4, 1),
        host=league.clubs[0],
        teams=[low, other],
    )
    with pytest.raises(ValidationError) as err:
        matchday_services.set_lineup(league.directors[0], low_day, low, league.players[0][:1])
    assert "3 Spieltagen" in messages(err) and league.players[0][0].full_name in messages(err)


def test_promotion_count_larger_than_division(league):
    with pytest.raises(ValidationError) as err:
        season_services.update_division(
            league.officer, league.top, promoted=0, relegated=9, reason="x"
        )
    assert "Hessenliga" in messages(err)


def test_close_season_moves_teams(league):
    low = season_services.register_team(
        league.directors[0], league.low, league.clubs[0], name="C0 II"
    )
    season_services.register_team(league.directors[1], league.low, league.clubs[1], name="C1 II")
    # both clubs play at the top: neither second team can go up (notes for the officer)
    plan = closing.proposal(league.season)
    assert plan.notes
    kwargs = {"next_name": "Liga 2027", "next_first_year": 2027, "next_last_year": 2027}
    up = {low.pk: ("up", league.top.pk)}
    with pytest.raises(ValidationError) as err:
        closing.close_season(league.officer, league.season, changes=up, reason="x", **kwargs)
    assert "eines Vereins" in messages(err)
    relegated = next(t for t, (kind, _) in plan.moves.items() if kind == "down")
    keep = {relegated: ("stay", league.top.pk)}
    with pytest.raises(ValidationError) as err:
        closing.close_season(league.officer, league.season, changes=keep, reason="", **kwargs)
    assert "Begründung" in messages(err)
    with pytest.raises(PermissionDenied):
        closing.close_season(league.directors[0], league.season, changes={}, reason="", **kwargs)
    nxt = closing.close_season(
        league.officer, league.season, changes=keep, reason="Beschluss", **kwargs
    )
    assert nxt.divisions.get(name="Hessenliga").teams.count() == 4
    assert nxt.divisions.get(name="Bezirksliga").teams.count() == 2
    league.season.refresh_from_db()
    assert league.season.status == "closed"
    assert league.season.moves.count() == 6
    assert nxt.divisions.get(name="Bezirksliga").parent.name == "Hessenliga"


def test_a_day_taken_in_from_the_hosts_laptop_waits_for_approval(league, day):
    """The day's event arrives (a submission taken in, `event_arrived`): complete, its result
    waits for the officer without the director's report; the same content again changes
    nothing; corrected content sends an approved result back to waiting, and it stops
    counting until approved again. An incomplete day waits for more."""
    from scoring.models import SeatTotal
    from tournaments.models import Event
    from tournaments.results import event_arrived

    def arrive():
        event_arrived.send(sender=Event, event_id=day.event_id, actor=league.directors[0])

    name_all(league, day)
    arrive()
    assert not MatchDayResult.objects.filter(match_day=day).exists()  # nothing played yet
    team_of = dict(
        LineupEntry.objects.filter(match_day=day).values_list("participant_id", "team_id")
    )
    index = {t.pk: i for i, t in enumerate(league.teams)}
    play_match_day(day, lambda n, pid: 10 * (4 - index[team_of[pid]]))
    arrive()
    result = MatchDayResult.objects.get(match_day=day)
    assert result.status == MatchDayResult.Status.SUBMITTED
    assert result.submitted_by == league.directors[0]
    assert all(line.points == 0 for line in selectors.table_of(league.top).lines)
    matchday_services.decide_result(league.officer, result, approve=True)
    assert [line.points for line in selectors.table_of(league.top).lines] == [4, 3, 2, 1]

    arrive()  # the same content again
    result.refresh_from_db()
    assert result.status == MatchDayResult.Status.APPROVED

    # a corrected sheet: the last team's players now win every series
    last = [pid for pid, team in team_of.items() if team == league.teams[3].pk]
    SeatTotal.objects.filter(participant_id__in=last).update(points=1000)
    arrive()
    result.refresh_from_db()
    assert result.status == MatchDayResult.Status.SUBMITTED
    assert all(line.points == 0 for line in selectors.table_of(league.top).lines)
    matchday_services.decide_result(league.officer, result, approve=True)
    table = selectors.table_of(league.top)
    assert table.lines[0].team == league.teams[3].name and table.lines[0].points == 4
