"""The federation's whole path in Chromium (de-DE), issue 27: the club's organiser asks for
ranking status under the regional ranking, the ranking officer grants it; the event is
played on the club's own installation (a real second process on its own SQLite file) and
sent there with `manage.py submit_event` and a club token made on the federation's page;
the officer matches a player known under another name and creates one unknown here,
approves the version, and the ranking list (members' and public) and a championship's
qualification list show the ranks and points the default formula gives, computed here.

The federation is pytest's live server with the worker's tasks run at once; an earlier
approved event of the club makes the ranking non-trivial (two events, best 5, listed from
two). Every page is checked for English leftovers, console errors and failed requests."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from clubs.models import Player
from federation.models import (
    Affiliation,
    Association,
    AssociationRole,
    EventVersion,
    PlayerMatch,
    Ranking,
    RankingStatus,
    Submission,
)
from federation.rankings import status_services
from scoring.demo.generate import Plan, generate_event
from scoring.standings.selectors import event_standing
from tests.browser.federation_path_helpers import (
    CLUBS,
    FIRST_EVENT,
    NEWCOMER,
    REGISTER,
    RENAMED,
    SECOND_EVENT,
    SECOND_NAME,
    Watched,
    event_points,
    expected_ranking,
    german_number,
    manage,
    places,
    play_second,
    qualified,
    rounded,
    second_env,
    start_second,
)
from tests.factories import (
    IMMEDIATE_TASKS,
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
    user_with_role,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RANKING = "Landesrangliste Hessen"
CHAMPIONSHIP = "Hessische Meisterschaft 2027"
PLACES, RESERVES = 4, 2


@pytest.fixture(scope="session")
def second_installation(tmp_path_factory):
    """The club's own installation, migrating in the background from the test's setup on
    (run alone, it overlaps the test database's creation; in the suite, the first steps)."""
    folder = tmp_path_factory.mktemp("verein")
    env = second_env(folder / "verein.sqlite3")
    process = start_second(env, folder / "setup.log")
    try:
        yield env, process, folder
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=30)


def _ready(second) -> dict:
    env, process, folder = second
    assert process.wait(timeout=180) == 0, (folder / "setup.log").read_text(errors="replace")
    return env


def _federation(today: dt.date) -> dict:
    """The federation's installation before the path: the national association with Hessen
    and Thüringen, the clubs affiliated, the register, the organiser and the officer of
    Hessen, the regional ranking and an event of the club approved under it two months ago."""
    national = Association.objects.create(
        name="Deutscher Rommé-Verband", short_name="DRV", kind="national"
    )
    regions = {
        "HDK": Association.objects.create(
            name="Landesverband Hessen", short_name="LV HE", kind="regional", parent=national
        ),
        "KBE": Association.objects.create(
            name="Landesverband Thüringen", short_name="LV TH", kind="regional", parent=national
        ),
    }
    clubs = {}
    for short, (name, town) in CLUBS.items():
        clubs[short] = ClubFactory(name=name, short_name=short, town=town)
        Affiliation.objects.create(
            club=clubs[short], association=regions[short], since=dt.date(2024, 1, 1)
        )
    players = {}
    for number, given, family, year, club in REGISTER:
        players[number] = PlayerFactory(
            player_number=number, given_name=given, family_name=family, birth_year=year
        )
        MembershipFactory(player=players[number], club=clubs[club])
    organiser = user_with_role(clubs["HDK"], "organiser", username="leitung")
    officer = UserFactory(username="landeswart")
    AssociationRole.objects.create(user=officer, association=regions["HDK"], role="officer")
    ranking = Ranking.objects.create(association=regions["HDK"], name=RANKING, public=True)
    first = generate_event(
        Plan(
            name="Kasseler Frühjahrsturnier", club=clubs["HDK"],
            players=[players[n] for n in FIRST_EVENT], series=2, rounds=1, seed=3,
            start_date=today - dt.timedelta(days=60),
        )
    )  # fmt: skip
    status = RankingStatus.objects.create(
        event=first, ranking=ranking, state="granted", requested_by=organiser
    )
    version = status_services.submit_event(organiser, status)
    assert version.problems == []
    status_services.approve_version(officer, version)
    number_of = {p.pk: n for n, p in players.items()}
    ranks = {
        number_of[row.player_id]: row.rank
        for row in event_standing(first, only_published=False).rows
    }
    return {"club": clubs["HDK"], "ranking": ranking, "first_ranks": ranks, "players": players}


@pytest.fixture
def contexts(browser):
    """The browser contexts of the test (organiser, officer, anonymous), closed at the end."""
    opened = []
    yield opened
    for context in opened:
        context.close()


def _login(contexts, browser, base: str, username: str | None) -> Watched:
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900})
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    watched = Watched(page)
    if username:
        page.goto(f"{base}/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "pw-for-tests")
        page.click("button[type=submit]")
        watched.german()
    return watched


def _name(number: str) -> str:
    """The name the federation's register gives the player (the officer matched the
    renamed one to the player here)."""
    row = next((r for r in REGISTER if r[0] == number), NEWCOMER)
    return f"{row[1]} {row[2]}"


def test_the_federations_whole_path_in_german(
    second_installation, live_server, browser, contexts, settings
):
    settings.TASKS = IMMEDIATE_TASKS
    base = live_server.url
    today = timezone.localdate()
    fed = _federation(today)
    club, ranking = fed["club"], fed["ranking"]
    organiser = _login(contexts, browser, base, "leitung")
    officer = _login(contexts, browser, base, "landeswart")

    # 1. The organiser prepares the event here and asks for ranking status under the
    #    regional ranking; the officer grants it with a reason; both read the German states.
    organiser.goto(f"{base}/events/new/")
    organiser.page.fill("input[name=name]", SECOND_NAME)
    organiser.page.fill("input[name=start_date]", today.isoformat())
    organiser.page.fill("input[name=rounds_per_series]", "1")
    text = organiser.click("main form.form button[type=submit]")
    assert "Ranglistenstatus" in text, text
    box = organiser.page.locator("section.ranking-status")
    box.locator("select[name=ranking]").select_option(label=RANKING)
    box.locator("select[name=event_class]").select_option(label="Ranglistenturnier")
    box.locator("input[name=reason]").fill("Offenes Turnier nach Ausschreibung")
    text = organiser.click("section.ranking-status button[type=submit]")
    assert "Ranglistenstatus beantragt." in text
    assert f"{RANKING}: beantragt" in box.inner_text()
    event_url = organiser.page.url

    text = officer.goto(f"{base}/federation/review/")
    assert "Anträge auf Ranglistenstatus" in text, text
    text = officer.click(f"main a:has-text('{SECOND_NAME}')")
    assert "beantragt" in text
    officer.page.select_option("select[name=decision]", "grant")
    officer.page.fill("input[name=reason]", "Ausschreibung liegt vor")
    text = officer.click("main form.form button[type=submit]")
    assert "Entscheidung gespeichert." in text
    assert re.search(r"Stand\s+erteilt", text), text
    assert "Ausschreibung liegt vor" in text
    text = organiser.goto(event_url)
    assert f"{RANKING}: erteilt – Ausschreibung liegt vor" in text, text

    # 2. The event is played on the club's own installation; the organiser makes a club
    #    token on the federation's page (shown once: read from the page).
    env = _ready(second_installation)
    played = play_second(env, today.isoformat())
    assert len(set(played["ranks"].values())) < len(SECOND_EVENT), played  # a shared place
    text = organiser.goto(f"{base}/clubs/{club.pk}/")
    text = organiser.click("main a:has-text('Vereins-Tokens')")
    organiser.page.fill("input[name=label]", "Vereinsserver")
    text = organiser.click("main form.form button[type=submit]")
    assert "Der neue Token (nur jetzt angezeigt):" in text
    token = organiser.page.locator("code[data-token]").inner_text().strip()
    assert len(token) >= 20

    # 3. The command sends it from there: exit 0, the German outcome (players to match).
    sent = manage(env, "submit_event", str(played["event"]), "--to", base, "--token", token)
    assert sent.returncode == 0, (sent.stdout, sent.stderr)
    assert "Traceback" not in sent.stderr, sent.stderr
    assert "Zuordnung durch den Ranglistenwart" in sent.stdout, sent.stdout
    assert "2 Spieler warten" in sent.stdout, sent.stdout
    submission = Submission.objects.get()
    assert submission.state == Submission.State.MATCHING

    # 4. The officer matches: the renamed player to the player here, the newcomer created.
    text = officer.goto(f"{base}/federation/matching/")
    assert "Spieler zuordnen" in text
    assert "Spielernummer mit anderen Daten bekannt" in text
    assert "Spielernummer hier unbekannt" in text
    renamed = PlayerMatch.objects.get(player_number=RENAMED[0])
    text = officer.click(f"main a[href$='/federation/matching/{renamed.pk}/']")
    here = fed["players"][RENAMED[0]]
    form = officer.page.locator(f"form:has(input[name=player][value='{here.pk}'])")
    form.locator("input[name=reason]").fill("Grete ist der Rufname von Margarete")
    form.locator("button[type=submit]").click()
    text = officer.german()
    assert "Entschieden. Weitere Spieler des Turniers sind noch offen." in text, text
    newcomer = PlayerMatch.objects.get(player_number=NEWCOMER[0])
    text = officer.click(f"main a[href$='/federation/matching/{newcomer.pk}/']")
    form = officer.page.locator("form:has(input[name=action][value=create])")
    assert form.locator("input[name=player_number]").input_value() == NEWCOMER[0]
    form.locator("input[name=reason]").fill("Neues Vereinsmitglied")
    form.locator("button[type=submit]").click()
    text = officer.german()
    assert f"Als „{SECOND_NAME}“ übernommen" in text, text
    assert f"zur Prüfung eingereicht: {RANKING} (v1)" in text, text
    created = Player.objects.get(player_number=NEWCOMER[0])
    assert (created.given_name, created.family_name) == NEWCOMER[1:3]
    event_here = Submission.objects.get(pk=submission.pk).event
    assert event_here is not None and event_url.rstrip("/").endswith(f"/events/{event_here.pk}")

    # 5. The officer reviews and approves the version; the ranking is computed again.
    text = officer.goto(f"{base}/federation/review/")
    assert "Einreichungen zur Prüfung" in text
    text = officer.click(f"main a:has-text('{SECOND_NAME}')")
    assert "wartet auf Prüfung" in text and "mit einem Vereins-Token gesendet" in text, text
    assert re.search(rf"Spieler\s+{len(SECOND_EVENT)}\s", text), text
    # The standings as played there, the players as registered here.
    placed = places(played["ranks"])
    shown = sorted((int(r[0]), r[1]) for r in officer.table_rows("main table.data-table"))
    assert shown == sorted((placed[n], _name(n)) for n in SECOND_EVENT), shown
    officer.page.fill("input[name=note]", "Ergebnisse geprüft")
    text = officer.click("main button:has-text('Freigeben')")
    assert "Freigegeben; die Rangliste wird neu berechnet." in text
    assert "freigegeben" in text
    version = EventVersion.objects.get(status__event=event_here)
    assert version.state == EventVersion.State.APPROVED
    assert ranking.snapshots.order_by("-number").first().versions == sorted(
        EventVersion.objects.filter(state="approved").values_list("pk", flat=True)
    )

    # 6. The lists: ranks and points as the default formula gives them, computed here.
    first = event_points(fed["first_ranks"])
    second = event_points(played["ranks"])
    listed, unlisted = expected_ranking(first, second)
    listed.sort(key=lambda ln: (ln.rank, _name(ln.key).casefold()))  # a shared rank by name
    assert len(listed) == 11 and unlisted == ["HDK-10", "HDK-12", "HDK-20", "KBE-02"]

    text = officer.goto(f"{base}/federation/rankings/{ranking.pk}/list/")
    rows = officer.table_rows("table[data-ranking-list]")
    _check_lines(rows, listed, rank=0, name=1, points=4, events=3)
    assert "Nicht gelistet" in text
    not_listed = officer.table_rows("table[data-unlisted]")
    assert sorted(r[0] for r in not_listed) == sorted(_name(n) for n in unlisted)
    assert all(r[4] == "weniger Veranstaltungen als das Minimum" for r in not_listed)

    public = _login(contexts, browser, base, None)
    text = public.goto(f"{base}/public/federation/rankings/{ranking.pk}/")
    assert RANKING in text
    rows = [r for r in public.table_rows("table.ranking-list") if r[0] != "–"]
    _check_lines(rows, listed, rank=0, name=1, points=4, events=3)

    # The championship of Hessen: the best 4 of Hessen qualify; the guest from Thüringen
    # is ranked but takes no Hessian place.
    officer.goto(f"{base}/federation/rankings/{ranking.pk}/list/")
    officer.click("main a:has-text('Neue Meisterschaft')")
    officer.page.fill("input[name=name]", CHAMPIONSHIP)
    officer.page.fill("input[name=places_per_region]", str(PLACES))
    officer.page.fill("input[name=reserves_per_region]", str(RESERVES))
    officer.page.fill("input[name=reason]", "Ausschreibung 2027")
    text = officer.click("main form.form button[type=submit]")
    assert CHAMPIONSHIP in text
    hessian = {n for n, *_rest, c in REGISTER if c == "HDK"}
    names, cut, reserves = qualified(listed, hessian, PLACES, RESERVES)
    block = officer.table_rows("table[data-region-table]")
    cut_at = next(i for i, r in enumerate(block) if r[0].startswith("Schnittlinie"))
    assert block[cut_at][0] == f"Schnittlinie nach Rang {cut}"
    assert [r[1] for r in block[:cut_at]] == [_name(n) for n in names]
    assert [r[1] for r in block[cut_at + 1 :]] == [_name(n) for n in reserves]
    assert [r[4] for r in block[cut_at + 1 :]] == [
        f"Nachrücker {i + 1}" for i in range(len(reserves))
    ]
    assert len(names) == PLACES and f"Qualifiziert: {PLACES} Spieler" in text
    assert (
        f"Landesverband Hessen: {PLACES} von {PLACES} Plätzen, Schnittlinie nach Rang {cut}."
        in text
    )
    guest = next(ln for ln in listed if ln.key == "KBE-01")
    assert guest.rank <= cut  # ranked above the cut line, yet no place of Hessen
    assert _name("KBE-01") not in officer.page.locator("[data-qualification]").inner_text()

    for watched in (organiser, officer, public):
        assert watched.problems == [], watched.problems
    assert Submission.objects.get(pk=submission.pk).state == Submission.State.IMPORTED


def _check_lines(rows, listed, *, rank, name, points, events):
    """Every listed line in order: rank, name, events counted and points as expected
    (players sharing a rank in any order among themselves)."""
    got = [(int(r[rank]), r[name], int(r[events]), german_number(r[points])) for r in rows]
    want = [(ln.rank, _name(ln.key), ln.events, rounded(ln.points)) for ln in listed]
    assert [g[0] for g in got] == sorted(g[0] for g in got), got
    assert sorted(got) == sorted(want), (got, want)
