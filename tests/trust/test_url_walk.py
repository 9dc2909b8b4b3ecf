"""Every URL of the URLconf, requested by a user of another club and by nobody (issue 11,
item 4): a user sees sheets and unpublished results only for events of clubs where they
hold a role.

Club A runs an event whose only series is not published: table 1 has a confirmed sheet,
table 2 an entered (unconfirmed) one. Each URL pattern is filled with ids of that event
and requested as the organiser of club B and anonymously. A URL not named in one of the
lists below fails the test, so a new page has to be classified when it is added.
"""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.exports.registry import EXPORTERS, exporters_for
from tests.factories import user_with_role
from tests.trust.conftest import not_ids, shown

pytestmark = pytest.mark.django_db

# Anyone may read these; they show published results only (or no results at all).
PUBLIC = {
    "home": "the start page",
    "login": "the login form",
    "logout": "logging out",
    "set_language": "choosing the language",
    "about": "about the app",
    "favicon": "the icon (a redirect to the static file)",
    "healthz": "a monitor's health check: no personal data",
    "standings:public": "public standings: published series only",
    "standings:display": "hall display: published series only",
    "standings:api": "read-only JSON: published series only for outsiders",
    "standings:version": "the results version: a counter, no result",
    "hall:guide": "the hall guide: how phones reach the laptop, no data",
    "prizes:public_prizes": "the prize winners: published series only, when the plan shows them",
    # Federation (issue 27, point 6): public rankings only; names, clubs and results only
    "federation_public:index": "the public ranking lists",
    "leagues_public:index": "the public league seasons (the walk's season is not public)",
    "federation_public:calendar": "sanctioned events of public rankings: no results",
    "federation_public:archive": "approved events of public rankings, searched by name only",
    "federation_public:ranking": "a public ranking list: hidden players without name",
    "federation_public:card": "a public card: name, club and results (none for hidden players)",
    "federation_api:rankings": "the public rankings as JSON",
    "federation_api:ranking": "a public ranking list as JSON: hidden players without name",
    "federation_api:player": "a public card as JSON (none for hidden players)",
}
# Any logged-in user may read these: the shared registry of clubs, players, events and
# seatings (no results), and standings limited to published series for outsiders.
REGISTRY = {
    "clubs:club_list": "registry of clubs",
    "clubs:club_detail": "registry of clubs",
    "clubs:player_list": "registry of players shared by the clubs",
    "clubs:player_detail": "registry of players shared by the clubs",
    "tournaments:event_list": "calendar of events",
    "tournaments:event_detail": "an event's participants and series (no results)",
    "tournaments:seating": "who sits where (no results)",
    "tournaments:season_list": "calendar of seasons",
    "standings:event": "standings: published series only for outsiders",
    "standings:player": "a player's results: published series only for outsiders",
    "standings:season": "season ranking: published series only for outsiders",
    "tournaments:event_create": "a new event for one of the user's own clubs",
    "federation:association_list": "the associations the user holds a role in (none: empty)",
    "federation:ranking_list": "the rankings of the user's associations (none: empty)",
    "federation:review_queue": "what the user's own roles decide or submitted (none: empty)",
    "federation_submit:matching_list": "players to match in the user's regions (none: empty)",
    "leagues:season_list": "the league seasons of the user's roles, clubs and teams (none: empty)",
}
# Open to whoever holds a table's token (the QR on the table, issue 16): that table's sheet
# in that series only. Walked here with a token of no table, which must open nothing.
TOKEN = {
    "scoring:table_phone": "a table's phone page: its own sheet only",
    "scoring:table_seat": "a phone names its seat with the seat code (rate-limited)",
    "scoring:table_hand": "a seat enters a hand of its own table",
    "scoring:table_confirm": "a seat confirms hands of its own table",
    "scoring:table_dispute": "a seat disputes a hand of its own table",
}
NO_TABLE_TOKEN = "kein-tisch-hat-diesen-token"
# Open to the organisers of any club (and superusers): what is posted names its club, and the
# server decides from it (an archive of club A is refused to club B's organiser: tests/archive/
# test_web.py). Walked as club B's organiser: the page opens, an empty post changes nothing.
ANY_ORGANISER = {
    "archive:import": "the import page of the event archive: the file's club decides",
}

# The live endpoint for laptops (issue 28): a live token in the Authorization header decides
# (its club, its event: tests/live/server/test_tokens_api.py); without one, 401 or 405,
# nothing stored.
LIVE_TOKEN = {
    "live:batches": "a laptop's batch of changes: its token's own event only",
    "live:status": "how far the server holds a laptop's event: its token's own event only",
    "federation_submit:submissions": "an event from another installation: the token's club only",
    "federation_submit:submission_status": "a submission's state: the token's club only",
}

# Not pages of the app.
SKIPPED = {"admin": "Django's admin has its own staff login"}

REFUSED = {403, 404, 405}


def _patterns(resolver=None, prefix="", namespace=""):
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            ns = pattern.namespace or ""
            if ns in SKIPPED:
                continue
            full_ns = f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
            yield from _patterns(pattern, prefix + str(pattern.pattern), full_ns)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            yield name, prefix + str(pattern.pattern)


def _kwargs(name: str, ids: dict) -> list[dict]:
    """Every way to fill the pattern ``name`` with the ids of club A's event."""
    i = ids
    table = {"series_pk": i["series"], "number": 1}
    simple = {
        "home": {}, "login": {}, "logout": {}, "set_language": {}, "about": {},
        "clubs:club_list": {}, "clubs:club_create": {}, "clubs:club_detail": {"pk": i["club"]},
        "clubs:club_edit": {"pk": i["club"]}, "clubs:club_users": {"pk": i["club"]},
        "clubs:club_role_set": {"pk": i["club"]}, "clubs:club_role_remove": {"pk": i["role"]},
        "clubs:player_create": {"club_pk": i["club"]}, "clubs:import_upload": {"pk": i["club"]},
        "clubs:import_preview": {"pk": i["club"], "import_pk": i["import"]},
        "clubs:player_list": {}, "clubs:player_detail": {"pk": i["player"]},
        "clubs:player_edit": {"pk": i["player"]}, "clubs:player_join_club": {"pk": i["player"]},
        "clubs:membership_end": {"pk": i["membership"]},
        "tournaments:event_list": {}, "tournaments:event_create": {},
        "tournaments:event_detail": {"pk": i["event"]},
        "tournaments:event_edit": {"pk": i["event"]},
        "tournaments:participant_add": {"pk": i["event"]},
        "tournaments:participant_add_list": {"pk": i["event"]},
        "favicon": {}, "healthz": {},
        "tournaments:participant_new": {"pk": i["event"]},
        "tournaments:group_create": {"pk": i["event"]},
        "tournaments:series_create": {"pk": i["event"]},
        "tournaments:categories": {"pk": i["event"]},
        "tournaments:category_edit": {"pk": i["event"]},
        "tournaments:category_choices": {"pk": i["event"]},
        "tournaments:participant_disqualify": {"pk": i["participant"]},
        "tournaments:participant_requalify": {"pk": i["participant"]},
        "tournaments:participant_check_in": {"pk": i["participant"]},
        "tournaments:participant_withdraw": {"pk": i["participant"]},
        "tournaments:participant_reinstate": {"pk": i["participant"]},
        "tournaments:participant_remove": {"pk": i["participant"]},
        "tournaments:group_delete": {"pk": i["group"]},
        "tournaments:seating": {"pk": i["series"]}, "tournaments:seat_swap": {"pk": i["series"]},
        "tournaments:series_start": {"pk": i["series"]},
        "tournaments:series_complete": {"pk": i["series"]},
        "tournaments:series_delete": {"pk": i["series"]},
        "tournaments:season_list": {}, "tournaments:season_create": {"club_pk": i["club"]},
        "tournaments:season_edit": {"pk": i["season"]},
        "scoring:series_board": {"pk": i["series"]}, "scoring:series_draw": {"pk": i["series"]},
        "scoring:sheet_entry": table, "scoring:sheet_check": table,
        "scoring:sheet_confirm": table, "scoring:event_ruleset": {"pk": i["event"]},
        "scoring:ruleset_change_status": {"pk": i["event"], "change_id": i["ruleset_change"]},
        "exports:job": {"job_id": i["job"]}, "exports:job_status": {"job_id": i["job"]},
        "exports:job_download": {"job_id": i["job"]},
        "exports:sheet_code": {"code": i["code"]},
        "standings:event": {"pk": i["event"]}, "standings:tie_break": {"pk": i["event"]},
        "standings:playoff_create": {"pk": i["event"]},
        "standings:series_publish": {"pk": i["series"]},
        "standings:public": {"pk": i["event"]}, "standings:display": {"pk": i["event"]},
        "standings:player": {"pk": i["player"]}, "standings:api": {"pk": i["event"]},
        "standings:version": {"pk": i["event"]},
        "standings:season": {"pk": i["season"]},
        "scoring:table_links": {"pk": i["series"]},
        "scoring:table_link_revoke": {"pk": i["series"], "link_pk": 1},
        "scoring:table_link_pin": {"pk": i["series"]},
        "scoring:table_hand_settle": {"pk": i["series"], "number": 1, "hand": 1},
        "archive:import": {},
        "prizes:plan": {"pk": i["event"]}, "prizes:prize_list": {"pk": i["event"]},
        "prizes:public_prizes": {"pk": i["event"]},
        "prizes:fees": {"pk": i["event"]}, "prizes:payment_set": {"pk": i["participant"]},
        "hall:setup": {}, "hall:settings": {}, "hall:backups": {}, "hall:guide": {},
        "hall:backup_restore": {}, "doctor": {},
        "live:batches": {}, "live:status": {}, "live:club_tokens": {"pk": i["club"]},
        "live:token_revoke": {"pk": 1}, "live:take_over": {"pk": i["event"]},
        "live:hand_back": {"pk": i["event"]}, "live:hand_back_cancel": {"pk": i["event"]},
        "live:publish": {"pk": i["event"]},
        "archive:import_job": {"import_id": i["archive_import"]},
        "archive:import_status": {"import_id": i["archive_import"]},
        **{name: {"token": NO_TABLE_TOKEN} for name in TOKEN},
        # Club A's region (tests/federation/associations/test_permissions.py walks every role)
        "federation:association_list": {}, "federation:association_create": {},
        **{f"federation:{n}": {"pk": i["association"]} for n in (
            "association_detail", "association_edit", "association_history", "affiliate",
            "role_grant")},
        "federation:role_revoke": {"pk": i["association_role"]},
        **{f"federation:{n}": {"pk": i["affiliation"]} for n in (
            "affiliation_detail", "affiliation_move", "affiliation_end")},
        "federation_public:index": {}, "federation_public:calendar": {},
        "federation_public:archive": {}, "federation_api:rankings": {},
        **{n: {"pk": i["public_ranking"]} for n in (
            "federation_public:ranking", "federation_api:ranking")},
        **{n: {"pk": i["public_ranking"], "player": i["player"]} for n in (
            "federation_public:card", "federation_api:player")},
        "federation:ranking_list": {}, "federation:review_queue": {},
        "federation:ranking_create": {"pk": i["association"]},
        **{f"federation:{n}": {"pk": i["ranking"]} for n in (
            "ranking_detail", "ranking_edit", "ranking_recompute", "ranking_history")},
        "federation:status_request": {"event_pk": i["event"]},
        **{f"federation:{n}": {"pk": i["ranking_status"]} for n in (
            "status_detail", "status_decide", "status_submit")},
        **{f"federation:{n}": {"pk": i["event_version"]} for n in (
            "version_detail", "version_approve", "version_reject")},
        # part "lists": the members' ranking list, player card, championships and prints
        **{f"federation:{n}": {"pk": i["ranking"]} for n in (
            "ranking_lines", "championship_create")},
        "federation:ranking_lines_export": {"pk": i["ranking"], "fmt": "pdf"},
        "federation:player_card": {"pk": i["ranking"], "player_pk": i["player"]},
        "federation:player_card_export": {"pk": i["ranking"], "player_pk": i["player"],
                                          "fmt": "xlsx"},
        **{f"federation:{n}": {"pk": i["championship"]} for n in (
            "championship_detail", "championship_edit", "championship_titles", "wildcard_add")},
        "federation:championship_export": {"pk": i["championship"], "fmt": "pdf"},
        "federation:wildcard_remove": {"pk": i["wildcard"]},
        # part "submit": events from other installations
        "federation_submit:submissions": {}, "federation_submit:matching_list": {},
        "federation_submit:matching_row": {"pk": i["player_match"]},
        "federation_submit:club_tokens": {"pk": i["club"]},
        "federation_submit:token_revoke": {"pk": i["club_token"]},
        "federation_submit:event_submit": {"pk": i["event"]},
        "federation_submit:event_submit_status": {"pk": i["event"]},
        "federation_submit:submission": {"pk": i["submission"]},
        "federation_submit:submission_status": {"pk": i["submission"]},
        # league play: a season of club A's region that is not public (tests/leagues walks
        # the roles)
        "leagues:season_list": {}, "leagues:season_new": {}, "leagues_public:index": {},
        **{f"leagues:{n}": {"pk": i["league_season"]} for n in (
            "season", "season_edit", "division_new", "close_season")},
        **{f"leagues:{n}": {"pk": i["division"]} for n in (
            "division", "division_edit", "team_new", "match_day_new")},
        "leagues:division_export": {"pk": i["division"], "slug": "league-table", "fmt": "xlsx"},
        **{f"leagues:{n}": {"pk": i["league_team"]} for n in ("team", "team_withdraw")},
        "leagues:roster_remove": {"pk": i["roster_entry"]},
        **{f"leagues:{n}": {"pk": i["match_day"]} for n in (
            "match_day", "match_day_open", "match_day_submit", "match_day_decide")},
        "leagues_public:season": {"pk": i["league_season"]},
        "leagues_public:division": {"pk": i["division"]},
        "leagues_public:division_json": {"pk": i["division"]},
        "leagues_public:division_json_slash": {"pk": i["division"]},
        "leagues_public:division_export": {"pk": i["division"], "slug": "league-table",
                                           "fmt": "pdf"},
        "leagues_public:match_day": {"pk": i["match_day"]},
        "leagues_public:team": {"pk": i["league_team"]},
    }  # fmt: skip
    if name in simple:
        return [simple[name]]
    objects = {
        "club": i["club"], "event": i["event"], "series": i["series"], "category": i["category"]
    }  # fmt: skip
    if name == "exports:menu":
        return [{"scope": s, "pk": pk} for s, pk in objects.items()]
    if name in ("exports:export", "exports:job_start"):
        out = []
        for scope, pk in objects.items():
            for exporter in exporters_for(scope):
                for fmt in exporter.formats:
                    out.append({"scope": scope, "pk": pk, "slug": exporter.slug, "fmt": fmt})
        assert out and len(EXPORTERS) >= 5
        return out
    raise AssertionError(f"{name}: a new URL; classify it in tests/trust/test_url_walk.py")


def _urls(ids):
    seen = set()
    for name, route in _patterns():
        assert name, f"{route} has no name"
        seen.add(name)
        for kwargs in _kwargs(name, ids):
            yield name, reverse(name, kwargs=kwargs)
    for name in [*PUBLIC, *REGISTRY, *TOKEN, *ANY_ORGANISER, *LIVE_TOKEN]:
        assert name in seen, f"{name} is listed but not in the URLconf"


def _snapshot() -> dict:
    """Every row of the app's models (a small database: the walk's event)."""
    from django.apps import apps

    return {
        model._meta.label: sorted(map(repr, model.objects.values_list()))
        for label in ("clubs", "tournaments", "scoring", "federation", "leagues")
        for model in apps.get_app_config(label).get_models()
    }


@pytest.fixture(autouse=True)
def _federation(world, club_a, organiser_a):
    """Club A in a region whose officer is someone else: club A's organiser holds no role."""
    from federation.models import Affiliation, Association, AssociationRole
    from tests.factories import UserFactory

    national = Association.objects.create(name="Bund", short_name="B", kind="national")
    region = Association.objects.create(
        name="Land", short_name="L", kind="regional", parent=national
    )
    affiliation = Affiliation.objects.create(club=club_a, association=region, since="2025-01-01")
    role = AssociationRole.objects.create(
        user=UserFactory(username="landeswart"), association=region, role="officer"
    )
    # A public ranking whose list names club A's player (its page and JSON are walked)
    from federation.models import Ranking, RankingSnapshot

    public = Ranking.objects.create(association=region, name="Öffentliche Rangliste")
    player = world["ids"]["player"]
    line = {"player": player, "name": "Gelistet", "club": "A", "regions": [region.pk], "rank": 1,
            "value": "1", "listed": True, "hidden": False, "events_counted": 0, "best": "0",
            "reason": "", "results": []}  # fmt: skip
    RankingSnapshot.objects.create(ranking=public, number=1, as_of="2026-01-01", lines=[line])
    world["ids"].update(public_ranking=public.pk)
    world["ids"].update(association=region.pk, affiliation=affiliation.pk, association_role=role.pk)
    # A ranking of the region, club A's event asking for status, a version waiting for review.
    from federation.models import EventVersion, Ranking, RankingStatus

    ranking = Ranking.objects.create(association=region, name="Landesrangliste")
    status = RankingStatus.objects.create(event_id=world["ids"]["event"], ranking=ranking)
    version = EventVersion.objects.create(status=status, number=1, source="here")
    world["ids"].update(ranking=ranking.pk, ranking_status=status.pk, event_version=version.pk)
    # A championship of that ranking with a wildcard for club A's player (part "lists").
    from federation.models import Championship, Wildcard

    cup = Championship.objects.create(ranking=ranking, name="Landesmeisterschaft")
    card = Wildcard.objects.create(championship=cup, player_id=player, reason="Gast")
    world["ids"].update(championship=cup.pk, wildcard=card.pk)
    # A submission of club A waiting for a player's match, and a club token (part "submit").
    from federation.models import PlayerMatch, Submission
    from live.server.tokens import issue_token

    arrival = Submission.objects.create(club=club_a, source="api", origin="o", origin_event=1)
    row = PlayerMatch.objects.create(submission=arrival, player_number="X-1", given_name="Ida",
                                     family_name="Iser", problem="unknown")  # fmt: skip
    world["ids"].update(player_match=row.pk, club_token=issue_token(club_a)[0].pk,
                        submission=arrival.pk)  # fmt: skip
    # A league season of the region (not public) with a team of club A and a match day
    from leagues.models import Division, LeagueSeason, MatchDay, RosterEntry, Team

    season = LeagueSeason.objects.create(association=region, name="Liga", first_year=2026,
                                         last_year=2026, public=False)  # fmt: skip
    division = Division.objects.create(season=season, name="Landesliga", level=1)
    team = Team.objects.create(division=division, club=club_a, name="A I")
    entry = RosterEntry.objects.create(team=team, player_id=player)
    day = MatchDay.objects.create(division=division, number=1, date="2026-03-01", host=club_a)
    day.teams.set([team])
    world["ids"].update(league_season=season.pk, division=division.pk, league_team=team.pk,
                        roster_entry=entry.pk, match_day=day.pk)  # fmt: skip
    world["secrets"] = not_ids(world["secrets"])  # the ids made here are shown by pages


def _text(response) -> str:
    if response.get("Content-Type", "").startswith("application/json"):
        return response.content.decode()
    html = response.content.decode(errors="replace")
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def _assert_no_secret(response, secrets, where):
    assert not shown(_text(response), secrets), where


def test_every_url_refuses_a_user_of_another_club(client, club_b, world):
    outsider = user_with_role(club_b, "organiser", username="org_b")
    checked = 0
    for name, url in _urls(world["ids"]):
        client.force_login(outsider)
        response = client.get(url)
        if name in PUBLIC or name in REGISTRY:
            assert response.status_code in (200, 302, 405), (name, url, response.status_code)
            _assert_no_secret(response, world["secrets"], url)
            continue
        if name in LIVE_TOKEN:
            before = _snapshot()
            for answer in (response, client.post(url, {})):
                assert answer.status_code in (401, 405), (name, url, answer.status_code)
            assert _snapshot() == before, (name, url, "POST changed data")
            continue
        if name in ANY_ORGANISER:
            assert response.status_code == 200, (name, url, response.status_code)
            before = _snapshot()
            response = client.post(url, {})
            assert response.status_code == 400, (name, url, "POST", response.status_code)
            _assert_no_secret(response, world["secrets"], url)
            assert _snapshot() == before, (name, url, "POST changed data")
            continue
        assert response.status_code in REFUSED, (name, url, "GET", response.status_code)
        before = _snapshot()
        response = client.post(url, {})
        # A write is refused, or (a form without data) answered without changing anything.
        if response.status_code not in REFUSED:
            assert response.status_code in (200, 302), (name, url, "POST")
            _assert_no_secret(response, world["secrets"], url)
            assert _snapshot() == before, (name, url, "POST changed data")
        checked += 1
    assert checked > 40


def test_every_url_refuses_anonymous_users(client, world):
    login = reverse("login")
    for name, url in _urls(world["ids"]):
        response = client.get(url)
        if name in PUBLIC:
            assert response.status_code in (200, 302, 405), (name, url, response.status_code)
            _assert_no_secret(response, world["secrets"], url)
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            if name in LIVE_TOKEN:
                assert response.status_code in (401, 405), (name, url, method)
                continue
            refused = response.status_code in REFUSED or (
                response.status_code == 302 and response["Location"].startswith(login)
            )
            assert refused, (name, url, method, response.status_code)


def test_the_clubs_own_scorer_sees_what_the_outsider_may_not(client, world, scorer_a):
    """The secrets are real: the same pages show them to a scorer of club A."""
    event = world["event"]
    client.force_login(scorer_a)
    page = client.get(reverse("standings:event", args=[event.pk]))
    text = _text(page)
    assert shown(text, world["confirmed"]) == world["confirmed"]
    series = world["ids"]["series"]
    sheet = client.get(reverse("scoring:sheet_entry", args=[series, 1]))
    assert sheet.status_code == 200


def test_every_federation_url_refuses_an_officer_of_another_region(client, world):
    from federation.models import Association, AssociationRole
    from tests.factories import UserFactory

    region = Association.objects.get(pk=world["ids"]["association"])
    beside = Association.objects.create(
        name="Nachbarland", short_name="N", kind="regional", parent=region.parent
    )
    officer = UserFactory(username="nachbarwart")
    AssociationRole.objects.create(user=officer, association=beside, role="officer")
    client.force_login(officer)
    walked = 0
    for name, url in _urls(world["ids"]):
        if not name.startswith(("federation:", "federation_submit:")) or name in LIVE_TOKEN:
            continue
        walked += 1
        if name in REGISTRY:
            assert client.get(url).status_code == 200, (name, url)
            continue
        before = _snapshot()
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code in REFUSED, (name, url, method, response.status_code)
        assert _snapshot() == before, (name, url, "POST changed data")
    assert walked == 43
