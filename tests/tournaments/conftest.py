import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    """Messages built outside a request use the default language (German); tests read English."""
    with translation.override("en"):
        yield


@pytest.fixture
def event_a(club_a):
    from tests.factories import EventFactory

    return EventFactory(club=club_a, name="Kasseler Herbstturnier")


def make_participants(event, count, *, club=None, checked_in=True):
    """`count` participants of `event`, members of `club` when given."""
    from tests.factories import MembershipFactory, ParticipantFactory, PlayerFactory

    found = []
    for _ in range(count):
        player = PlayerFactory()
        if club is not None:
            MembershipFactory(player=player, club=club)
        found.append(
            ParticipantFactory(event=event, player=player, club=club, checked_in=checked_in)
        )
    return found
