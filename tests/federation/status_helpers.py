"""Helpers of the ranking status, version and computation tests: rankings, events played
with scoring.demo.generate, versions made by hand."""

import datetime as dt

from django.utils import timezone

from clubs.models import Membership
from federation.models import EventVersion, Ranking, RankingStatus
from rules.ranking import RankingSettings
from scoring.demo.generate import Plan, generate_event
from tests.factories import MembershipFactory

FUTURE = timezone.localdate() + dt.timedelta(days=30)


def make_ranking(association, name="Rangliste", **settings):
    return Ranking.objects.create(
        association=association, name=name, settings=RankingSettings(**settings).as_json()
    )


def played_event(club, *, players=8, series=2, start_date=None, seed=1, **plan):
    people = [MembershipFactory(club=club).player for _ in range(players)]
    return generate_event(
        Plan(
            name=f"Turnier {seed}",
            club=club,
            players=people,
            series=series,
            rounds=1,
            seed=seed,
            start_date=start_date or FUTURE,
            **plan,
        )
    )


def approved_version(ranking, event, results, *, field_size=None, series=3, klass="ranking"):
    """A status with one approved version, as the officer leaves it (no service: the
    computation tests make many)."""
    status = RankingStatus.objects.create(
        event=event, ranking=ranking, event_class=klass, state=RankingStatus.State.APPROVED
    )
    return EventVersion.objects.create(
        status=status,
        number=1,
        source=EventVersion.Source.HERE,
        state=EventVersion.State.APPROVED,
        field_size=field_size or len(results),
        series_count=series,
        results=results,
        counted_from=timezone.now(),
    )


def member_of(player, club):
    Membership.objects.filter(player=player).delete()
    MembershipFactory(player=player, club=club)
