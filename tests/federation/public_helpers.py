"""A small public federation for the public page and JSON tests: a national ranking with a
snapshot in the documented lines format (made by hand), a private ranking, sanctioned and
unsanctioned events, a player hidden from the public."""

import datetime as dt
import re

from django.utils import timezone

from federation.models import EventVersion, PublicHiding, Ranking, RankingSnapshot, RankingStatus
from tests.factories import EventFactory, MembershipFactory, ParticipantFactory, SeriesFactory

BIRTH_YEAR = 1937
TODAY = timezone.localdate()


def person(club, given, family, number):
    return MembershipFactory(
        club=club,
        player__given_name=given,
        player__family_name=family,
        player__player_number=number,
        player__birth_year=BIRTH_YEAR,
    ).player


def result(version, event, place, field, points, counted=True, reason=""):
    return {
        "version": version.pk, "event": event.pk, "event_name": event.name,
        "date": event.start_date.isoformat(), "place": place, "field": field,
        "points": points, "counted": counted, "reason": reason,
    }  # fmt: skip


def line(player, club, region, rank, value, results, *, listed=True, hidden=False, reason=""):
    return {
        "player": player.pk, "name": f"{player.given_name} {player.family_name}",
        "club": club.short_name, "regions": [region.pk] if region else [], "rank": rank,
        "value": value, "listed": listed, "hidden": hidden, "events_counted": len(results),
        "best": max((r["points"] for r in results), key=float, default="0"), "reason": reason,
        "results": results,
    }  # fmt: skip


def snapshot(ranking, lines, number=None):
    number = number or (ranking.snapshots.count() + 1)
    return RankingSnapshot.objects.create(
        ranking=ranking, number=number, as_of=TODAY, settings=ranking.settings, lines=lines
    )


def status(event, ranking, state):
    return RankingStatus.objects.create(event=event, ranking=ranking, state=state)


def approve(event, ranking, field_size=12):
    return EventVersion.objects.create(
        status=status(event, ranking, RankingStatus.State.APPROVED),
        number=1,
        source=EventVersion.Source.HERE,
        state=EventVersion.State.APPROVED,
        field_size=field_size,
    )


def build(national, region_a, region_b, club_a, club_b) -> dict:
    """The world of the public tests; club A is in region A, club B in region B."""
    ranking = Ranking.objects.create(association=national, name="Deutsche Rangliste")
    private = Ranking.objects.create(association=national, name="Interne Liste", public=False)
    anna = person(club_a, "Anna", "Albrecht", "GEHEIM-A1")
    bernd = person(club_b, "Bernd", "Becker", "GEHEIM-B2")
    clara = person(club_a, "Clara", "Claussen", "GEHEIM-C3")  # hidden
    dora = person(club_b, "Dora", "Dietz", "GEHEIM-D4")  # not listed
    PublicHiding.objects.create(player=clara, reason="Wunsch")
    past = EventFactory(
        club=club_a, name="Frühjahrsturnier Kassel", start_date=TODAY - dt.timedelta(60)
    )
    older = EventFactory(
        club=club_b, name="Herbstpokal Fulda", start_date=TODAY - dt.timedelta(500)
    )
    SeriesFactory(event=past, published=True)
    for event, who in ((past, (anna, clara, dora)), (older, (bernd, anna))):
        for player in who:
            ParticipantFactory(event=event, player=player)
    v_past, v_older = approve(past, ranking), approve(older, ranking, field_size=30)
    soon = EventFactory(club=club_b, name="Sommercup Fulda", start_date=TODAY + dt.timedelta(9))
    status(soon, ranking, RankingStatus.State.GRANTED)
    asked = EventFactory(club=club_a, name="Nur beantragt", start_date=TODAY + dt.timedelta(5))
    status(asked, ranking, RankingStatus.State.REQUESTED)
    secret = EventFactory(club=club_a, name="Interner Abend", start_date=TODAY + dt.timedelta(3))
    status(secret, private, RankingStatus.State.GRANTED)
    lines = [
        line(anna, club_a, region_a, 1, "40.5", [
            result(v_past, past, 1, 12, "12"), result(v_older, older, 2, 30, "29"),
            result(v_older, older, 9, 30, "1.5", counted=False,
                   reason="dropped: not among the best results"),
        ]),
        line(clara, club_a, region_a, 2, "30", [result(v_past, past, 2, 12, "30")], hidden=True),
        line(bernd, club_b, region_b, 2, "30", [result(v_older, older, 1, 30, "30")]),
        line(dora, club_b, region_b, None, "3", [result(v_past, past, 10, 12, "3")],
             listed=False, reason="fewer events than the minimum"),
    ]  # fmt: skip
    snap = snapshot(ranking, lines)
    snapshot(private, lines)
    return {
        "ranking": ranking, "private": private, "snapshot": snap, "lines": lines,
        "anna": anna, "bernd": bernd, "clara": clara, "dora": dora,
        "past": past, "older": older, "soon": soon, "asked": asked, "secret": secret,
    }  # fmt: skip


SECRETS = ("GEHEIM", str(BIRTH_YEAR), "Wunsch")


def leaked(body: str) -> list[str]:
    """The secrets in a page or an answer; the birth year only as a number of its own, not
    as digits inside another (a timestamp's microseconds once held 1937)."""
    return [s for s in SECRETS if re.search(rf"(?<!\d){re.escape(s)}(?!\d)", body)]
