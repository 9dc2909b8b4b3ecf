"""The hall mode's backups: a data folder in tmp_path, the hall's settings switched on."""

import pytest


@pytest.fixture
def hall(settings, tmp_path):
    """HALL_MODE with its data folder; backups into <data>/backups unless a test sets one."""
    data = tmp_path / "data"
    data.mkdir()
    settings.HALL_MODE = True
    settings.HALL_DATA_DIR = data
    settings.ALLOWED_HOSTS = ["*"]  # as in the hall mode: hall.access checks the host
    settings.HALL_ARCHIVE_SECONDS = 60
    settings.HALL_SNAPSHOT_SECONDS = 600
    settings.HALL_BACKUPS_KEPT = 20
    return data


@pytest.fixture
def event(db, club_a):
    """Club A's event of eight players: series 1 confirmed, series 2 with a draft sheet."""
    from scoring.demo.generate import Plan, generate_event
    from tests.factories import MembershipFactory, PlayerFactory

    players = []
    for i in range(8):
        player = PlayerFactory(player_number=f"H{i:04d}", given_name=f"Jürgen{i}")
        MembershipFactory(player=player, club=club_a)
        players.append(player)
    return generate_event(
        Plan(name="Hamelner Saalturnier", club=club_a, players=players, series=2, rounds=1,
             confirmed_series=1, draft_tables=1)
    )  # fmt: skip


@pytest.fixture
def director(db):
    from tests.factories import UserFactory

    return UserFactory(username="leitung", is_superuser=True, is_staff=True)
