"""A small league: a regional association with its officer, four clubs each with a
director and six players, a season with a top division (four teams, one per club) and a
second level below, and a captain for the first team."""

import datetime as dt

import pytest

from clubs.models import ClubRole
from federation.models import Affiliation, Association, AssociationRole
from leagues.matchdays import services as matchday_services
from leagues.seasons import services as season_services
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory


class League:
    pass


@pytest.fixture
def league(db):
    lg = League()
    national = Association.objects.create(name="DRV", short_name="DRV", kind="national")
    lg.region = Association.objects.create(
        name="LV Hessen", short_name="LV HE", kind="regional", parent=national
    )
    lg.other_region = Association.objects.create(
        name="LV Thüringen", short_name="LV TH", kind="regional", parent=national
    )
    lg.officer = UserFactory(username="ligawart")
    AssociationRole.objects.create(user=lg.officer, association=lg.region, role="officer")
    lg.outsider_officer = UserFactory(username="wart_th")
    AssociationRole.objects.create(
        user=lg.outsider_officer, association=lg.other_region, role="officer"
    )
    lg.clubs, lg.directors, lg.players = [], [], []
    for i in range(4):
        club = ClubFactory(name=f"Club {i}", short_name=f"C{i}")
        Affiliation.objects.create(club=club, association=lg.region, since=dt.date(2024, 1, 1))
        director = UserFactory(username=f"director{i}")
        ClubRole.objects.create(user=director, club=club, role="organiser")
        players = [
            MembershipFactory(
                club=club, player=PlayerFactory(given_name=f"P{i}{j}", family_name=f"Spieler{i}{j}")
            ).player
            for j in range(6)
        ]
        lg.clubs.append(club)
        lg.directors.append(director)
        lg.players.append(players)
    lg.season = season_services.create_season(
        lg.officer,
        lg.region,
        name="Liga 2026",
        first_year=2026,
        last_year=2026,
        rules={"roster_min": 4, "roster_max": 6, "team_size": 4},
    )
    lg.top = season_services.create_division(
        lg.officer, lg.season, name="Hessenliga", level=1, relegated=1
    )
    lg.low = season_services.create_division(
        lg.officer, lg.season, name="Bezirksliga", level=2, parent=lg.top, promoted=1
    )
    lg.captain = UserFactory(username="kapitaen")
    lg.teams = []
    for i, club in enumerate(lg.clubs):
        team = season_services.register_team(
            lg.directors[i],
            lg.top,
            club,
            name=f"{club.name} I",
            captain_name="K",
            captain=lg.captain if i == 0 else None,
        )
        for p in lg.players[i][:5]:
            season_services.add_to_roster(lg.directors[i], team, p)
        lg.teams.append(team)
    return lg


@pytest.fixture
def day(league):
    return matchday_services.create_match_day(
        league.officer,
        league.top,
        number=1,
        date=dt.date(2026, 3, 1),
        host=league.clubs[0],
        venue="Vereinsheim",
        teams=league.teams,
    )


def name_all(league, day, *, open_first=True):
    if open_first:
        matchday_services.open_match_day(league.officer, day)
    for i, team in enumerate(league.teams):
        matchday_services.set_lineup(league.directors[i], day, team, league.players[i][:4])
    day.refresh_from_db()
    return day
