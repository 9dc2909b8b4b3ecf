"""The demo federation's rankings (`make run`): so that a new user finds the ranking pages,
the public lists, player cards and a qualification list filled, not empty.

Two more finished ranking tournaments of the demo clubs (small: the demo must seed in
seconds), each with ranking status under the Hessian and the national ranking, submitted
by the club and approved by another person through the services (four eyes), as a real
season would be; the demo tournament (`scoring.demo.seed.TOURNAMENT`) counts as well. A
winter tournament of the coming weeks, asked for by the demo organiser, waits for a
decision by someone else (the administrator, `admin`). Called by
`federation.demo.seed_federation`, once."""

from __future__ import annotations

import datetime as dt

from clubs.permissions import ORGANISER, has_role
from common.history import save_with_history
from federation.championships import services as championship_services
from federation.rankings import compute, status_services
from federation.rankings import services as ranking_services
from federation.rankings.models import RankingStatus
from scoring.demo.generate import Plan, generate_event
from tournaments.models import Event

REASON = "Demodaten"
# (name, club index, start date, players slice, seed); generated like the demo tournament.
PLAYED = [
    ("Fuldaer Herbstturnier 2025", 1, dt.date(2025, 10, 11), slice(4, 24), 1011),
    ("Hessenpokal 2026", 0, dt.date(2026, 6, 20), slice(8, 28), 620),
]
REQUESTED = ("Kasseler Winterturnier 2026", dt.date(2026, 12, 12))


def _granted(requester, decider, event: Event, ranking) -> RankingStatus:
    # The demo's events were played before their status could be asked for (the services
    # refuse a request for an event that has begun): the status is written as granted.
    status = RankingStatus(
        event=event,
        ranking=ranking,
        event_class=RankingStatus.EventClass.RANKING,
        state=RankingStatus.State.GRANTED,
        requested_by=requester,
        decided_by=decider,
    )
    return save_with_history(status, decider, REASON)


def seed_rankings(admin, officer, regions, national, clubs, players, tournament) -> None:
    regional = ranking_services.create_ranking(
        officer, regions[0], name="Landesrangliste Hessen", settings={}, reason=REASON
    )
    bund = ranking_services.create_ranking(
        admin, national, name="Deutsche Rangliste", settings={}, reason=REASON
    )
    events = [tournament] if tournament is not None else []
    for name, club, start, chosen, seed in PLAYED:
        events.append(
            generate_event(
                Plan(name=name, club=clubs[club], players=players[chosen], series=2, rounds=3,
                     seed=seed, start_date=start)
            )
        )  # fmt: skip
    for event in events:
        # Four eyes, as the services ask: the club's organiser asks and submits, another
        # person decides. The demo organiser (also the Hessian officer) organises Kassel;
        # the administrator stands in for Fulda's organiser, who has no demo login. So the
        # officer decides Fulda's regional status and the administrator Kassel's; the
        # national ones are the administrator's (no national officer in the demo; a
        # superuser may decide what he asked for himself).
        requester = officer if has_role(officer, event.club, ORGANISER) else admin
        regional_decider = admin if requester == officer else officer
        for ranking, decider in ((regional, regional_decider), (bund, admin)):
            status = _granted(requester, decider, event, ranking)
            version = status_services.submit_event(requester, status)
            status_services.approve_version(decider, version, note="Geprüft")
    upcoming = Event.objects.create(
        club=clubs[0], name=REQUESTED[0], start_date=REQUESTED[1], ruleset_slug="german-minus"
    )
    status_services.request_status(
        officer, upcoming, regional, event_class=RankingStatus.EventClass.RANKING,
        reason="Offenes Turnier, 24 Plätze",
    )  # fmt: skip
    championship = championship_services.create_championship(
        admin, bund, name="Deutsche Meisterschaft 2027", places_per_region=4,
        reserves_per_region=2, reason=REASON,
    )  # fmt: skip
    championship_services.add_wildcard(admin, championship, players[30], reason="Vorjahresfinalist")
    # The pages show the lists at once; the worker's own computation follows on commit.
    for ranking in (regional, bund):
        compute.recompute(ranking, REASON)
