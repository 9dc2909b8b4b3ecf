"""The officer's matching list (issue 27, point 4): players of a submission that are unknown
here, known with other data, or listed twice wait for the ranking officer of the club's
region, who matches them to a player here or creates a new one, with a reason. The last
decision takes the submission in. Officers of another region see nothing of it."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError

from clubs.models import Player
from federation.models import PlayerMatch, Submission
from federation.submissions import matching
from federation.submissions import services as submissions
from live.server.tokens import issue_token
from tests.factories import IMMEDIATE_TASKS
from tests.federation.submit_helpers import body, elsewhere, matching_url, post
from tournaments.models import Participant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate(settings):
    cache.clear()
    settings.TASKS = IMMEDIATE_TASKS  # the worker reads each arrival at once


def _renumber(archive, old, new):
    for entry in archive["players"] + archive["participants"]:
        if entry["player_number"] == old:
            entry["player_number"] = new


@pytest.fixture
def waiting(client, club_a, players, affiliation_a):
    """A submission of club A: one unknown number, one known under another name."""
    archive = elsewhere(club_a, players)
    _renumber(archive, players[0].player_number, "NEU-1")
    archive["players"][1]["given_name"] = "Jemand"
    token = issue_token(club_a)[1]
    assert post(client, token, body(archive)).status_code == 202
    return Submission.objects.get()


def _row(problem):
    return PlayerMatch.objects.get(problem=problem)


def test_find_problems_names_each_kind(club_a, players):
    archive = elsewhere(club_a, players)
    _renumber(archive, players[0].player_number, "NEU-1")
    archive["players"][1]["family_name"] = "Anders"
    twin = players[2].player_number
    archive["players"][3]["player_number"] = twin
    for participant in archive["participants"]:
        if participant["player_number"] == players[3].player_number:
            participant["player_number"] = twin
    found = {(f.player_number, f.problem) for f in matching.find_problems(archive)}
    assert found == {
        ("NEU-1", "unknown"),
        (players[1].player_number, "different"),
        (twin, "duplicate"),
    }
    # The copy for the archive's other checks tells the twins apart; the archive is unchanged.
    checked = matching.unique_numbers(archive)
    assert len({p["player_number"] for p in checked["players"]}) == len(players)
    assert [p["player_number"] for p in archive["players"]].count(twin) == 2


def test_a_missing_birth_year_is_no_contradiction(club_a, players):
    archive = elsewhere(club_a, players)
    archive["players"][0]["birth_year"] = None
    assert matching.find_problems(archive) == []


def test_identical_player_twice_is_refused(club_a, players):
    archive = elsewhere(club_a, players)
    archive["players"].append(dict(archive["players"][0]))
    with pytest.raises(matching.IdenticalTwice):
        matching.find_problems(archive)


def test_officer_decides_and_the_last_decision_takes_the_event_in(waiting, officer_a, players):
    unknown, different = _row("unknown"), _row("different")
    assert submissions.create_player(
        officer_a, unknown, player_number="NEU-1", reason_text="Neuer Spieler laut Pass"
    ) is None  # fmt: skip
    assert Player.objects.filter(player_number="NEU-1").exists()
    taken = submissions.match_player(
        officer_a, different, players[1], reason_text="Rufname im Verein"
    )
    assert taken is not None and taken.state == "imported" and taken.event is not None
    numbers = set(
        Participant.objects.filter(event=taken.event).values_list(
            "player__player_number", flat=True
        )
    )
    assert "NEU-1" in numbers and players[1].player_number in numbers
    players[1].refresh_from_db()
    assert players[1].given_name == "Vorname1"  # the register is not overwritten
    different.refresh_from_db()
    assert (different.state, different.player, different.decided_by) == (
        "matched",
        players[1],
        officer_a,
    )
    last = different.history.first()
    assert last.history_change_reason == "Rufname im Verein" and last.history_user == officer_a


def test_create_needs_a_free_number_and_a_reason(waiting, officer_a, players):
    row = _row("unknown")
    with pytest.raises(ValidationError):
        submissions.create_player(
            officer_a, row, player_number=players[3].player_number, reason_text="x"
        )
    with pytest.raises(ValidationError):
        submissions.create_player(officer_a, row, player_number="NEU-1", reason_text=" ")
    assert not Player.objects.filter(player_number="NEU-1").exists()


def test_two_rows_matched_to_one_player_are_refused(waiting, officer_a, players):
    submissions.match_player(officer_a, _row("unknown"), players[5], reason_text="gleich")
    with pytest.raises(ValidationError):
        submissions.match_player(officer_a, _row("different"), players[5], reason_text="auch")
    assert Submission.objects.get().state == "matching"
    assert _row("different").state == "open"  # rolled back with the refused take-in
    # The wrong match is decided again; then the take-in goes through.
    submissions.match_player(officer_a, _row("unknown"), players[0], reason_text="doch")
    taken = submissions.match_player(officer_a, _row("different"), players[1], reason_text="ok")
    assert taken.state == "imported"


def test_duplicate_numbers_resolved_one_by_one(client, club_a, players, affiliation_a, officer_a):
    archive = elsewhere(club_a, players)
    twin, other = players[1], players[3]
    archive["players"][3]["player_number"] = twin.player_number
    for participant in archive["participants"]:
        if participant["player_number"] == other.player_number:
            participant["player_number"] = twin.player_number
    assert post(client, issue_token(club_a)[1], body(archive)).status_code == 202
    first, second = PlayerMatch.objects.order_by("family_name")
    assert (first.family_name, second.family_name) == ("Name1", "Name3")
    submissions.match_player(officer_a, first, twin, reason_text="Pass geprüft")
    taken = submissions.match_player(officer_a, second, other, reason_text="Pass geprüft")
    assert taken.state == "imported"
    seated = set(Participant.objects.filter(event=taken.event).values_list("player_id", flat=True))
    assert {twin.pk, other.pk} <= seated and len(seated) == len(players)


def test_officer_of_another_region_may_not_decide(waiting, officer_b, national_officer, players):
    row = _row("unknown")
    with pytest.raises(PermissionDenied):
        submissions.match_player(officer_b, row, players[0], reason_text="fremd")
    assert submissions.may_match(national_officer, waiting)


def test_a_resend_reuses_earlier_decisions(client, waiting, officer_a, players, club_a):
    submissions.create_player(officer_a, _row("unknown"), player_number="NEU-1", reason_text="neu")
    submissions.match_player(officer_a, _row("different"), players[1], reason_text="Rufname")
    archive = elsewhere(club_a, players, name="Verbandsturnier 2", seed=3)
    archive["players"][1]["given_name"] = "Jemand"
    response = post(client, issue_token(club_a)[1], body(archive, event=8))
    assert response.status_code == 202, response.content
    again = PlayerMatch.objects.filter(submission__origin_event=8).get()
    assert again.state == "matched" and again.player == players[1]


# ----- the pages ---------------------------------------------------------------------------


def test_matching_list_shows_the_own_subtree_only(client, waiting, officer_a, officer_b):
    client.force_login(officer_a)
    page = client.get(matching_url())
    assert page.status_code == 200 and "NEU-1" in page.content.decode()
    # The event by its name and date from the archive, not the sender's id.
    data = waiting.data["event"]
    day = dt.date.fromisoformat(data["start_date"]).strftime("%d.%m.%Y")
    german = client.get(matching_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f"{data['name']} ({day})" in german
    client.force_login(officer_b)
    page = client.get(matching_url())
    assert page.status_code == 200 and "NEU-1" not in page.content.decode()
    row = _row("unknown")
    assert client.get(f"/federation/matching/{row.pk}/").status_code == 404
    response = client.post(f"/federation/matching/{row.pk}/", {"action": "create", "reason": "x"})
    assert response.status_code == 404
    assert _row("unknown").state == "open"


def test_matching_page_decides_with_a_reason(client, waiting, officer_a, players):
    client.force_login(officer_a)
    row = _row("different")
    page = client.get(f"/federation/matching/{row.pk}/?q=Vorname1")
    assert page.status_code == 200 and players[1].player_number in page.content.decode()
    response = client.post(f"/federation/matching/{row.pk}/", {"action": "match", "reason": ""})
    assert response.status_code == 400
    response = client.post(
        f"/federation/matching/{row.pk}/",
        {"action": "match", "player": players[1].pk, "reason": "Rufname"},
    )
    assert response.status_code == 302
    assert _row("different").player == players[1]
    row = _row("unknown")
    response = client.post(
        f"/federation/matching/{row.pk}/",
        {"action": "create", "player_number": "NEU-1", "reason": "neu"},
    )
    assert response.status_code == 302
    assert Submission.objects.get().state == "imported"


def test_matching_pages_need_a_login(client, waiting):
    assert client.get(matching_url()).status_code == 302
    assert client.get(f"/federation/matching/{_row('unknown').pk}/").status_code == 302


def test_a_created_player_joins_the_club_the_archive_names(waiting, officer_a, club_a):
    row = _row("unknown")
    assert row.club_short_name == club_a.short_name
    submissions.create_player(officer_a, row, player_number="NEU-1", reason_text="neu")
    created = Player.objects.get(player_number="NEU-1")
    membership = created.memberships.get()
    assert membership.club == club_a
    start = dt.date.fromisoformat(waiting.data["event"]["start_date"])
    assert membership.valid_from == start and membership.valid_until is None
    assert membership.history.first().history_change_reason == "neu"
