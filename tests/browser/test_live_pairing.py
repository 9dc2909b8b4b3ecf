"""Live veröffentlichen in Chromium (de-DE), issue 28: the laptop is pytest's live server, the
results server a second real process (``manage.py runserver`` on its own SQLite file, port
8731) with the club and a token made there. The director types the server's address and
the token, tests the connection (a wrong token: the server's German refusal), saves; after
a push (run here as the worker's task runs it) the event page reads "live: zuletzt gesendet
HH:MM:SS · 0 Änderungen warten"; with the server stopped "keine Verbindung seit HH:MM ·
2 Änderungen warten", and the pages still answer. Screenshots: /tmp/h/shots_handback/."""

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clubs.models import ClubRole
from live.laptop import sender
from live.models import LiveLink
from scoring.standings.services import set_series_published
from tests.factories import UserFactory
from tests.live.server.test_apply import laptop_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PORT = 8731
SERVER = f"http://127.0.0.1:{PORT}"
SHOTS = Path("/tmp/h/shots_handback")
SETUP = """
from clubs.models import Club
from live.server.tokens import issue_token
club = Club.objects.create(name="Herz Dame Kassel", short_name="HDK", town="Kassel")
print(issue_token(club, label="Laptop Saal 1")[1])
"""


def _manage(env, *args, **kwargs):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True, timeout=300, **kwargs,
    )  # fmt: skip


def _wait_for_port(port, process, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, "the results server did not start"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on {port}")


@pytest.fixture
def results_server(tmp_path):
    """A second installation: its own database, the club, a token; (process, token)."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'server.sqlite3'}",
        "DEBUG": "1",
        "HALL_BACKUPS": "0",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    _manage(env, "migrate", "--noinput")
    token = _manage(env, "shell", "-c", SETUP).stdout.strip().splitlines()[-1]
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{PORT}", "--noreload"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        _wait_for_port(PORT, process)
        yield process, token
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)
        log.close()


def _login(page, live_server, username):
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_load_state()


def _shoot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def _status_line(page) -> str:
    return page.locator("[data-live-status]").first.inner_text().strip()


def test_pairing_status_line_and_outage_in_german(live_server, page, results_server):
    process, token = results_server
    event = laptop_event(players=8, series=3)  # as the live tests make it (tests/live)
    ClubRole.objects.create(user=UserFactory(username="leitung"), club=event.club, role="organiser")
    _login(page, live_server, "leitung")

    # "Live veröffentlichen" from the event page; a wrong token first: the German refusal.
    page.goto(f"{live_server.url}/events/{event.pk}/")
    page.click("text=Live veröffentlichen")
    page.wait_for_load_state()
    assert "Live veröffentlichen" in page.title()
    page.fill("input[name=server_url]", SERVER)
    page.fill("input[name=token]", "falscher-token")
    page.click("button[value=test]")
    page.wait_for_load_state()
    text = page.inner_text("main")
    assert "Der Server hat abgelehnt (HTTP 401)." in text, text
    assert "Dieser Server kennt den Live-Token nicht." in text
    _shoot(page, "1-falscher-token")

    # The right token: the test connects, saving starts the sending.
    page.fill("input[name=server_url]", SERVER)
    page.fill("input[name=token]", token)
    page.click("button[value=test]")
    page.wait_for_load_state()
    assert "Verbindung hergestellt" in page.inner_text("main")
    page.fill("input[name=server_url]", SERVER)
    page.fill("input[name=token]", token)
    page.click("button[value=save]")
    page.wait_for_load_state()
    assert "Gespeichert" in page.inner_text("main")
    assert LiveLink.objects.get(event=event).token == token

    # The push, as the worker's task runs it, to the real second process.
    result = sender.push(event)
    assert result.state in ("done", "nothing"), result.message
    assert LiveLink.objects.get(event=event).acked_seq >= 1
    page.goto(f"{live_server.url}/events/{event.pk}/")
    line = _status_line(page)
    assert re.fullmatch(r"live: zuletzt gesendet \d\d:\d\d:\d\d · 0 Änderungen warten", line), line
    _shoot(page, "2-gesendet")

    # The server goes away; two changes on the laptop wait, the pages still answer.
    process.terminate()
    process.wait(timeout=20)
    series = list(event.series.order_by("number"))[:2]
    director = ClubRole.objects.get(role="organiser", user__username="leitung").user
    for one in series:
        set_series_published(director, one, False)
    result = sender.push(event, timeout=3)
    assert result.state == "retry", result.message
    for path in (f"/events/{event.pk}/", f"/events/{event.pk}/live/"):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        line = _status_line(page)
        assert re.fullmatch(r"keine Verbindung seit \d\d:\d\d · 2 Änderungen warten", line), line
    assert "Fehler" not in page.title()
    _shoot(page, "3-keine-verbindung")
    page.goto(f"{live_server.url}/events/{event.pk}/")
    _shoot(page, "4-veranstaltung-offline")
