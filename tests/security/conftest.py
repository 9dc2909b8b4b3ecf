import pytest


@pytest.fixture
def seated_series(club_a):
    """A series of club_a's event with one table of four."""
    from tests.factories import EventFactory, ParticipantFactory, SeriesFactory, seated_table

    event = EventFactory(club=club_a, rounds_per_series=5)
    series = SeriesFactory(event=event, number=1)
    people = [
        ParticipantFactory(event=event, player__given_name=g, player__family_name="Muster")
        for g in ("Anna", "Bernd", "Clara", "Dieter")
    ]
    seated_table(series, people, 1)
    return series


@pytest.fixture(autouse=True)
def export_jobs_inline(settings):
    from tests.factories import IMMEDIATE_TASKS

    settings.TASKS = IMMEDIATE_TASKS
