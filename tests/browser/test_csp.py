"""The pages with JavaScript still work under the Content-Security-Policy: the browser
reports no violation, and the scripts visibly run."""

import pytest

from scoring.exports import jobs
from tests.factories import (
    IMMEDIATE_TASKS,
    ClubFactory,
    EventFactory,
    ParticipantFactory,
    SeriesFactory,
    seated_table,
    user_with_role,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def watched(page):
    """The page, with every CSP violation and console error collected."""
    problems = []

    def console(message):
        # Chromium asks every page without <link rel=icon> for /favicon.ico: not ours.
        if message.location.get("url", "").endswith("/favicon.ico"):
            return
        if message.type == "error" or "Content Security Policy" in message.text:
            problems.append(f"{message.text} ({message.location.get('url')})")

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('CSP violation ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    return page, problems


def test_pages_with_scripts_run_without_violations(live_server, watched, settings):
    settings.TASKS = IMMEDIATE_TASKS
    page, problems = watched
    club = ClubFactory(name="Herz Dame Kassel", short_name="HDK")
    organiser = user_with_role(club, "organiser", username="orga")
    event = EventFactory(club=club, rounds_per_series=5)
    series = SeriesFactory(event=event, number=1, status="in_play")
    people = [
        ParticipantFactory(event=event, player__given_name=g, player__family_name="Muster")
        for g in ("Anna", "Bernd", "Clara", "Dieter")
    ]
    seated_table(series, people, 1)
    base = live_server.url

    page.goto(f"{base}/login/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_load_state()

    # The sheet: sheet.js reads the cells as they are typed.
    page.goto(f"{base}/series/{series.pk}/tables/1/sheet/")
    page.focus("input[name='cell-1-1']")
    page.keyboard.type("Jo A K 7")
    page.keyboard.press("Tab")
    page.locator("tr[data-hand='1'] td.cell .reading").first.filter(has_text="58").wait_for()

    # The exports menu (exports.js loaded; jobs are offered only for long exports).
    page.goto(f"{base}/exports/series/{series.pk}/")
    page.locator("table.export-menu").wait_for()

    # The job page itself (exports.js polls it) and a print page with a nonce'd <style>.
    job_id = jobs.start_job(organiser, "seating", series, "xlsx", base_url=base)
    page.goto(f"{base}/exports/jobs/{job_id}/")
    page.locator(".export-download").first.wait_for(state="visible")
    page.goto(f"{base}/exports/series/{series.pk}/score-sheets.html")
    assert page.locator(".score-grid").count() > 0
    # In the browser the empty cells are cells (the PDF draws them as one background).
    assert page.locator("td.cells").count() == 0
    shade = page.locator("td.is-dealer").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert shade == "rgb(238, 238, 238)"
    # The seating page's print button no longer needs an inline handler.
    page.goto(f"{base}/series/{series.pk}/seating/")
    assert page.locator("button[data-print]").count() == 1

    # The hall display: display.js runs (it sets the clock or rotates the panels).
    page.goto(f"{base}/public/events/{event.pk}/display/")
    page.locator("[data-clock]").filter(has_text=":").wait_for()

    assert problems == []
