"""The entry page keeps every result true (German pages, two browsers where two people act).

Conflict then confirm stores what the scorer's grid shows; a changed grid cannot be
confirmed; a differing blind entry becomes a dispute a director resolves side by side;
typing survives a reload and a failed save (a stubbed 503 and real ones from romme.faults);
the cursor starts in the first empty cell.
"""

import copy
import re
import sqlite3

import psycopg.errors
import pytest

from scoring.models import HandSeat, Sheet
from scoring.sheets import services
from tests.factories import user_with_role
from tests.sheets.conftest import make_series, random_grid, scorer
from tests.test_faults import KEPT, failing_sql

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(browser, live_server, username, url):
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}{url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{url}")
    return context, page


def _url(table):
    return f"/series/{table.series_id}/tables/{table.number}/sheet/"


def _loser(hand):
    return next(i for i in range(4) if i != hand["winner"])


def _other_value(value):
    return value + 1 if value < 90 else 5


def test_after_a_conflict_the_scorer_sees_the_differing_cells_and_confirms_what_is_shown(
    live_server, browser
):
    series, tables = make_series(_club())
    club = series.event.club
    entering = scorer(club, "anna")
    scorer(club, "bernd")
    scorer(club, "clara")
    grid = random_grid(seed=41)
    services.save_sheet(entering, tables[0], grid, expected_version=0, submit=True)
    url = _url(tables[0])
    ctx_b, b = _login(browser, live_server, "bernd", url)
    ctx_c, c = _login(browser, live_server, "clara", url)
    try:
        # Both see version 1 and may confirm it as it is.
        assert b.locator("#sheet-confirm").is_visible()
        assert not b.locator("#sheet-submit").is_visible()

        # Clara corrects hand 3 and saves a new version.
        seat3 = _loser(grid["hands"][2])
        theirs = _other_value(grid["hands"][2]["seats"][seat3]["hand_points"])
        c.fill(f"input[name='cell-3-{seat3 + 1}']", str(theirs))
        assert not c.locator("#sheet-confirm").is_visible()
        c.locator("#sheet-edited-note").wait_for()
        c.click("#sheet-submit")
        c.locator(".messages .message").first.wait_for()
        assert "Eine zweite Person muss sie jetzt bestätigen" in c.content()

        # Bernd, still on version 1, changes hand 1 and saves: a conflict.
        seat1 = _loser(grid["hands"][0])
        mine = _other_value(grid["hands"][0]["seats"][seat1]["hand_points"])
        b.fill(f"input[name='cell-1-{seat1 + 1}']", str(mine))
        b.click("#sheet-submit")
        box = b.locator("#sheet-conflict")
        box.wait_for()
        assert "Von Ihren Eingaben wurde nichts gespeichert" in box.inner_text()
        rows = b.locator("#conflict-cells tbody tr")
        assert rows.count() == 2  # exactly the two cells that differ, nothing else
        first = rows.nth(0).inner_text()
        assert f"Spiel 1, Platz {seat1 + 1}" in first and str(mine) in first
        assert "anna" in first and "Version 1" in first
        third = rows.nth(1).inner_text()
        assert f"Spiel 3, Platz {seat3 + 1}" in third and str(theirs) in third
        assert "clara" in third and "Version 2" in third
        # Their grid still shows their value; confirming is not offered for it.
        assert b.input_value(f"input[name='cell-1-{seat1 + 1}']") == str(mine)
        assert not b.locator("#sheet-confirm").is_visible()

        # Forcing the hidden confirm button is refused by the server, in German.
        b.evaluate("document.getElementById('sheet-confirm').hidden = false")
        b.evaluate("document.getElementById('sheet-confirm').disabled = false")
        b.click("#sheet-confirm")
        b.locator("#sheet-error-summary .sheet-errors li").first.wait_for()
        assert "weicht in 2 Feldern von der gespeicherten Version ab" in b.content()
        assert Sheet.objects.get(table=tables[0]).status == "entered"

        # Taking the stored values makes the grid equal version 2: now it can be confirmed.
        b.click("#conflict-take-stored")
        b.locator("#sheet-confirm").wait_for()
        assert b.input_value(f"input[name='cell-3-{seat3 + 1}']") == str(theirs)
        b.click("#sheet-confirm")
        b.locator(".messages .message").first.wait_for()
    finally:
        ctx_b.close()
        ctx_c.close()

    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == "confirmed" and sheet.confirmed_by.username == "bernd"
    assert sheet.versions.get(number=3).grid == sheet.versions.get(number=2).grid
    stored = HandSeat.objects.get(hand__sheet=sheet, hand__number=3, position=seat3)
    assert stored.hand_points == theirs
    stored = HandSeat.objects.get(hand__sheet=sheet, hand__number=1, position=seat1)
    assert stored.hand_points == grid["hands"][0]["seats"][seat1]["hand_points"]


def test_after_a_conflict_keeping_mine_stores_exactly_my_grid(live_server, browser):
    series, tables = make_series(_club())
    club = series.event.club
    entering = scorer(club, "anna")
    scorer(club, "bernd")
    grid = random_grid(seed=42)
    services.save_sheet(entering, tables[0], grid, expected_version=0, submit=True)
    url = _url(tables[0])
    ctx_b, b = _login(browser, live_server, "bernd", url)
    try:
        # Meanwhile Anna saves a change of hand 2.
        changed = copy.deepcopy(grid)
        seat2 = _loser(changed["hands"][1])
        changed["hands"][1]["seats"][seat2]["hand_points"] = _other_value(
            changed["hands"][1]["seats"][seat2]["hand_points"]
        )
        services.save_sheet(entering, tables[0], changed, expected_version=1, submit=True)
        seat1 = _loser(grid["hands"][0])
        mine = _other_value(grid["hands"][0]["seats"][seat1]["hand_points"])
        b.fill(f"input[name='cell-1-{seat1 + 1}']", str(mine))
        b.click("#sheet-submit")
        b.locator("#conflict-cells").wait_for()
        b.click("#conflict-keep-mine")
        b.click("#sheet-submit")
        b.locator(".messages .message.success").first.wait_for()
    finally:
        ctx_b.close()
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.version == 3 and sheet.entered_by.username == "bernd"
    assert sheet.status == "entered"  # someone else must confirm Bernd's version
    hand1 = sheet.versions.get(number=3).grid["hands"]
    assert hand1[0]["seats"][seat1]["hand_points"] == mine
    assert (
        hand1[1]["seats"][seat2]["hand_points"] == grid["hands"][1]["seats"][seat2]["hand_points"]
    )


def test_a_changed_cell_hides_confirm_until_it_is_changed_back(live_server, browser):
    series, tables = make_series(_club())
    club = series.event.club
    entering = scorer(club, "anna")
    scorer(club, "bernd")
    grid = random_grid(seed=43)
    services.save_sheet(entering, tables[0], grid, expected_version=0, submit=True)
    ctx, page = _login(browser, live_server, "bernd", _url(tables[0]))
    try:
        seat = _loser(grid["hands"][4])
        name = f"input[name='cell-5-{seat + 1}']"
        original = page.input_value(name)
        page.fill(name, str(_other_value(int(original))))
        page.locator("#sheet-edited-note").wait_for()
        assert not page.locator("#sheet-confirm").is_visible()
        assert page.locator("#sheet-submit").is_visible()
        assert "nicht mehr wie erfasst bestätigt" in page.locator("#sheet-edited-note").inner_text()
        page.fill(name, original)
        page.locator("#sheet-confirm").wait_for()
        assert not page.locator("#sheet-edited-note").is_visible()
        # Edited again and saved: a new version entered by Bernd, not a confirmation.
        page.fill(name, str(_other_value(int(original))))
        page.click("#sheet-submit")
        page.locator(".messages .message.success").first.wait_for()
        page.locator("#sheet-needs-confirmation").wait_for()
        assert "anna" in page.locator("#sheet-confirmers").inner_text()
        assert page.locator("#sheet-confirm").count() == 0
    finally:
        ctx.close()
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == "entered" and sheet.entered_by.username == "bernd"


def test_a_differing_blind_entry_becomes_a_dispute_the_director_resolves(live_server, browser):
    club = _club()
    _series, tables = make_series(club, blind=True)
    entering = scorer(club, "anna")
    scorer(club, "bernd")
    user_with_role(club, "organiser", username="leitung")
    grid = random_grid(seed=44)
    services.save_sheet(entering, tables[0], grid, expected_version=0, submit=True)
    url = _url(tables[0])
    seat = _loser(grid["hands"][6])
    right = grid["hands"][6]["seats"][seat]["hand_points"]
    typo = _other_value(right)
    ctx, page = _login(browser, live_server, "bernd", url)
    try:
        assert page.input_value("input[name='cell-1-1']") == ""  # nothing of the entry shown
        for n, hand in enumerate(grid["hands"], start=1):
            for k, s in enumerate(hand["seats"], start=1):
                value = typo if (n, k) == (7, seat + 1) else s["hand_points"]
                page.fill(f"input[name='cell-{n}-{k}']", str(value))
            if hand["hand_romme"]:
                page.check(f"input[name='romme-{n}']")
        page.click("#sheet-submit")
        page.locator(".messages .message").first.wait_for()
        text = page.content()
        assert "jetzt strittig" in text
        assert "Feld" not in page.locator(".messages").inner_text()  # no count, no retry hint
        assert page.locator("input.cell-input").count() == 0  # no second try
    finally:
        ctx.close()
    assert Sheet.objects.get(table=tables[0]).status == "disputed"

    ctx, page = _login(browser, live_server, "leitung", url)
    try:
        rows = page.locator("#dispute-cells tbody tr")
        assert rows.count() == 1
        row = rows.first.inner_text()
        assert f"Spiel 7, Platz {seat + 1}" in row and str(right) in row and str(typo) in row
        cell = page.locator("tr[data-hand='7'] td.cell.differs").first
        assert f"1: {right} · 2: {typo}" in cell.inner_text()
        page.click("#dispute-take-second")
        assert page.input_value(f"input[name='cell-7-{seat + 1}']") == str(typo)
        page.click("#dispute-cells button:has-text('Erste übernehmen')")
        assert page.input_value(f"input[name='cell-7-{seat + 1}']") == str(right)
        page.fill("#id_reason", "Papierliste geprüft")
        page.click("#sheet-submit")
        page.locator(".messages .message.success").first.wait_for()
        history = page.locator("#sheet-history").inner_text()
        assert "Streitfall entschieden" in history and "blinde Zweiterfassung" in history
        assert "Erfassung" in history and "leitung" in history and "bernd" in history
        assert "Streitfall entschieden von" in page.locator("dl.facts").inner_text()
    finally:
        ctx.close()
    sheet = Sheet.objects.get(table=tables[0])
    assert sheet.status == "confirmed" and sheet.resolved_by.username == "leitung"
    assert HandSeat.objects.get(hand__sheet=sheet, hand__number=7, position=seat).hand_points == (
        right
    )


def test_typing_survives_a_reload_and_a_failed_save_and_leaving_asks_first(live_server, browser):
    series, tables = make_series(_club())
    club = series.event.club
    scorer(club, "anna")
    url = _url(tables[0])
    ctx, page = _login(browser, live_server, "anna", url)
    try:
        # The cursor starts in the first empty cell.
        assert page.evaluate("document.activeElement.name") == "cell-1-1"
        page.keyboard.type("0")
        page.keyboard.press("Tab")
        page.keyboard.type("17")
        page.keyboard.press("Tab")
        page.wait_for_timeout(100)

        dialogs = []

        def answer(dialog):
            dialogs.append(dialog.type)
            dialog.accept()

        page.on("dialog", answer)
        page.reload()
        assert dialogs == ["beforeunload"]
        page.locator("#sheet-draft-note").wait_for()
        assert page.input_value("input[name='cell-1-1']") == "0"
        assert page.input_value("input[name='cell-1-2']") == "17"
        # The cursor goes on where the typing stopped.
        assert page.evaluate("document.activeElement.name") == "cell-1-3"

        # A save that fails on the server (503) loses nothing either.
        page.fill("input[name='cell-1-3']", "23")
        page.route(
            re.compile(r".*/sheet/$"),
            lambda route: (
                route.fulfill(status=503, body="Service Unavailable")
                if route.request.method == "POST"
                else route.continue_()
            ),
        )
        page.click("#sheet-draft")
        page.wait_for_load_state()
        assert "Service Unavailable" in page.content()
        page.unroute(re.compile(r".*/sheet/$"))
        page.goto(f"{live_server.url}{url}")
        page.locator("#sheet-draft-note").wait_for()
        assert page.input_value("input[name='cell-1-3']") == "23"

        # Discard: back to what is stored (nothing).
        page.click("#sheet-draft-discard")
        assert page.input_value("input[name='cell-1-1']") == ""
        assert not page.locator("#sheet-draft-note").is_visible()
        page.reload()
        assert dialogs == ["beforeunload"]  # nothing unsaved: no question
        assert not page.locator("#sheet-draft-note").is_visible()

        # Saved: the draft is gone for good.
        page.fill("input[name='cell-1-1']", "0")
        page.fill("input[name='cell-1-2']", "9")
        page.click("#sheet-draft")
        page.locator(".messages .message.success").first.wait_for()
        page.reload()
        assert not page.locator("#sheet-draft-note").is_visible()
        assert page.input_value("input[name='cell-1-2']") == "9"
        assert (
            page.evaluate(
                "Object.keys(localStorage).filter(k => k.startsWith('romme-sheet-draft')).length"
            )
            == 0
        )
    finally:
        ctx.close()


def _drafts(page) -> int:
    return page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('romme-sheet-draft')).length"
    )


def test_a_real_503_keeps_the_typed_cells_until_they_are_saved(live_server, browser):
    # The server itself answers 503 (romme.faults), not a stubbed route: the disk is full.
    series, tables = make_series(_club())
    scorer(series.event.club, "anna")
    url = _url(tables[0])
    ctx, page = _login(browser, live_server, "anna", url)
    try:
        for name, value in [("cell-1-1", "0"), ("cell-1-2", "17"), ("cell-1-3", "23")]:
            page.fill(f"input[name='{name}']", value)
        page.wait_for_timeout(100)
        with failing_sql(sqlite3.OperationalError("database or disk is full")):
            page.click("#sheet-draft")
            page.locator("h1", has_text="Vorübergehend nicht verfügbar").wait_for()
        text = page.locator("body").inner_text()
        assert "Der Speicherplatz des Servers ist voll" in text and KEPT in text
        assert page.locator("html").get_attribute("lang") == "de"
        assert not Sheet.objects.filter(table=tables[0]).exists()

        # The next visit restores the typing; saving it drops the draft.
        page.goto(f"{live_server.url}{url}")
        page.locator("#sheet-draft-note").wait_for()
        assert page.input_value("input[name='cell-1-2']") == "17"
        assert page.input_value("input[name='cell-1-3']") == "23"
        page.click("#sheet-draft")
        page.locator(".messages .message.success").first.wait_for()
        page.reload()
        assert not page.locator("#sheet-draft-note").is_visible()
        assert page.input_value("input[name='cell-1-3']") == "23"
        assert _drafts(page) == 0
    finally:
        ctx.close()
    assert Sheet.objects.get(table=tables[0]).version == 1


def test_a_503_after_the_commit_leaves_no_stale_draft_behind(live_server, browser):
    # PostgreSQL went away after the save's commit, while the answer wrote the session
    # (bench.faults): the browser saw the 503 page, but the sheet is saved.
    series, tables = make_series(_club())
    scorer(series.event.club, "anna")
    url = _url(tables[0])
    ctx, page = _login(browser, live_server, "anna", url)
    shutdown = psycopg.errors.AdminShutdown("terminating connection due to administrator command")
    try:
        page.fill("input[name='cell-1-1']", "0")
        page.fill("input[name='cell-1-2']", "17")
        page.wait_for_timeout(100)
        with failing_sql(shutdown, table="django_session"):
            page.click("#sheet-draft")
            page.locator("h1", has_text="Vorübergehend nicht verfügbar").wait_for()
        assert "Die Datenbank ist im Moment nicht erreichbar" in page.locator("body").inner_text()
        assert Sheet.objects.get(table=tables[0]).version == 1

        # The page shows the saved version; the draft typed on version 0 equals it and is
        # dropped, so the next save starts from version 1 instead of a conflict with itself.
        page.goto(f"{live_server.url}{url}")
        assert page.input_value("input[name='cell-1-2']") == "17"
        assert not page.locator("#sheet-draft-note").is_visible()
        assert page.input_value("#expected-version") == "1"
        page.fill("input[name='cell-1-3']", "23")
        page.click("#sheet-draft")
        page.locator(".messages .message.success").first.wait_for()
        assert _drafts(page) == 0
    finally:
        ctx.close()
    assert Sheet.objects.get(table=tables[0]).version == 2


def test_a_series_not_started_refuses_sheets_and_says_what_to_do(live_server, browser):
    series, tables = make_series(_club())
    series.status = "seated"
    series.save()
    scorer(series.event.club, "anna")
    ctx, page = _login(browser, live_server, "anna", _url(tables[0]))
    try:
        note = page.locator("#sheet-not-started").inner_text()
        assert "hat noch nicht begonnen" in note and "„Serie beginnen“" in note
        assert page.locator("input.cell-input").count() == 0
    finally:
        ctx.close()


def _club():
    from tests.factories import ClubFactory

    return ClubFactory(name="Herz Dame Kassel", short_name="HDK")
