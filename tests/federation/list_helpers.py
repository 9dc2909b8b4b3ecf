"""A small federation for the list, card, qualification and export tests: three approved
events under a national ranking, computed by the real rules (`federation.rankings.compute.recompute`
runs `rules.ranking.compute_ranking` and writes the documented lines), and a
hand-made snapshot of any length for the query counts.

Points (field − place + 1, the best 2 count, listed with 2 events):
  Anna 6+5 (4) = 11 · Bernd 5+5 (3) = 10 · Arno 4+4 (2) = 8 · Alma 3+2 (1) = 5 ·
  Berta 3+2 (1) = 5 (Alma and Berta share rank 4) · Dora 1 event: not listed.
Club A (Anna, Arno, Alma) is in region A, club B (Bernd, Berta, Dora) in region B."""

import datetime as dt

from federation.models import Ranking, RankingSnapshot
from federation.rankings import compute
from rules.ranking import RankingSettings
from tests.factories import EventFactory, MembershipFactory, ParticipantFactory
from tests.federation.status_helpers import approved_version

AS_OF = dt.date(2025, 6, 30)


def person(club, given, family, number):
    return MembershipFactory(
        club=club,
        player__given_name=given,
        player__family_name=family,
        player__player_number=number,
        player__birth_year=1950,
    ).player


def _event(ranking, club, name, day, order):
    event = EventFactory(club=club, name=name, start_date=day)
    rows = []
    for place, player in enumerate(order, 1):
        ParticipantFactory(event=event, player=player)
        rows.append({"player": player.pk, "place": place, "score": 0, "hands": 0})
    return approved_version(ranking, event, rows, field_size=len(order))


def computed_world(national, club_a, club_b) -> dict:
    ranking = Ranking.objects.create(
        association=national,
        name="Deutsche Rangliste",
        settings=RankingSettings(best_n=2, min_events=2).as_json(),
        as_of=AS_OF,
    )
    p = {
        "anna": person(club_a, "Anna", "Albrecht", "A-1"),
        "arno": person(club_a, "Arno", "Adler", "A-2"),
        "alma": person(club_a, "Alma", "Arndt", "A-3"),
        "bernd": person(club_b, "Bernd", "Becker", "B-1"),
        "berta": person(club_b, "Berta", "Brandt", "B-2"),
        "dora": person(club_b, "Dora", "Dietz", "B-3"),
    }
    a, b = p["anna"], p["bernd"]
    e1 = _event(ranking, club_a, "Frühjahrsturnier Kassel", dt.date(2025, 3, 1),
                [a, b, p["arno"], p["berta"], p["alma"], p["dora"]])  # fmt: skip
    e2 = _event(ranking, club_b, "Pokal Fulda", dt.date(2025, 4, 1),
                [b, a, p["alma"], p["arno"], p["berta"]])  # fmt: skip
    e3 = _event(ranking, club_a, "Sommerturnier Kassel", dt.date(2025, 5, 1),
                [a, p["arno"], b, p["berta"], p["alma"]])  # fmt: skip
    snapshot = compute.recompute(ranking, "test")
    return {"ranking": ranking, "snapshot": snapshot, "versions": [e1, e2, e3], **p}


def hand_lines(count: int, region_a, region_b, players) -> list[dict]:
    """`count` lines in the documented format (players cycled), listed, ranks 1..count."""
    lines = []
    for i in range(count):
        player = players[i % len(players)]
        region = region_a if i % 2 == 0 else region_b
        lines.append({
            "player": player.pk * 100_000 + i if i >= len(players) else player.pk,
            "name": f"Spieler {i:05d}", "club": "KSL", "regions": [region.pk],
            "rank": i + 1, "value": str(1000 - i) + ".5", "listed": True, "hidden": i == 1,
            "events_counted": 2, "best": "9", "reason": "",
            "results": [
                {"version": 1, "event": 1, "event_name": "Turnier", "date": "2025-03-01",
                 "place": 1, "field": 10, "points": "10", "counted": True, "reason": ""},
                {"version": 2, "event": 2, "event_name": "Cup", "date": "2025-04-01",
                 "place": 9, "field": 10, "points": "2", "counted": False,
                 "reason": "dropped: not among the best results"},
            ],
        })  # fmt: skip
    return lines


def hand_snapshot(ranking, lines) -> RankingSnapshot:
    number = ranking.snapshots.count() + 1
    return RankingSnapshot.objects.create(
        ranking=ranking, number=number, as_of=AS_OF, settings=ranking.settings, lines=lines
    )
