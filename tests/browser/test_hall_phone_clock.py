"""Phones with a wrong clock at a table of the hall mode (issue 26), in German at 390×844.

A real hall (`python -m romme.hall`, waitress, SQLite in WAL mode) listens on 127.0.0.2, its
HALL_URL; Chromium connects from 127.0.0.1, which HALL_OTHER_DEVICES makes a phone. The data
(the director's first start, an event with series 1 in play, the table links) is prepared
beforehand by `bench.load.hall.prepare` in a process of its own with HALL_MODE=1 and
ROMME_DATA, as `HALL_MODE=1 manage.py …` would. One phone's page clock runs two hours ahead,
another's three weeks behind (Playwright's `page.clock`: the page's Date and timers only; the
browser's cookie jar keeps the machine's time, so the session cookie is checked for Max-Age,
which does not depend on the phone's clock, as Expires would). The hands are read back from
the hall's database file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bench.rigs.serving import ROOT, log_errors, start_hall, stop_hall
from tests.browser.test_table_phone import ARTIFACTS, VIOLATIONS, _phone, _sit_down

pytestmark = [pytest.mark.browser]
HALL = "127.0.0.2"  # HALL_URL's host, where the hall listens: loopback only
PORTS = range(8200, 8210)
LAPTOP_ONLY = "nur am Laptop der Turnierleitung"
HANDS = 4

# Run with HALL_MODE=1 and ROMME_DATA=<folder>: the hall's data folder, made and filled with
# the app's own services; prints the table's link and the hands to type as JSON.
PREPARE = """
import argparse, json, random, sys
from pathlib import Path
from bench.load.hall import ROUNDS, prepare
from bench.load.phones import _hand_fields
scenario = prepare(Path(sys.argv[1]), argparse.Namespace(tables=1, rounds=ROUNDS, seconds=0,
                                                        director_pace=1))
link = scenario.links[0]
rng = random.Random(26)
hands = [_hand_fields(scenario.ruleset, rng, n, 4) for n in range(1, int(sys.argv[2]) + 1)]
print(json.dumps({"token": link.token, "codes": link.seat_codes, "table": link.table_id,
                  "hands": hands}))
"""


@dataclass
class Hall:
    base: str  # http://127.0.0.2:<port>
    database: Path
    logs: list[Path]
    token: str
    codes: list[str]
    table: int
    hands: list[dict]


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind((HALL, port))
            except OSError:
                continue
            return port
    pytest.fail(f"no free port in {PORTS.start}-{PORTS.stop - 1} on {HALL}")


def _env(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    for name in ("DATABASE_URL", "DEBUG"):
        env.pop(name, None)
    return {**env, "HALL_MODE": "1", "ROMME_DATA": str(folder)}


@pytest.fixture(scope="module")
def hall():
    port = _free_port()
    root = Path(tempfile.mkdtemp(prefix="hallfault-", dir="/tmp"))
    folder = root / "daten"
    process = None
    try:
        done = subprocess.run(
            [sys.executable, "-c", PREPARE, str(folder), str(HANDS)],
            cwd=ROOT,
            env=_env(folder),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        made = json.loads(done.stdout.strip().splitlines()[-1])
        output = root / "hall-output.log"
        with output.open("wb") as log:
            process = start_hall(
                folder, port, f"http://{HALL}:{port}", "127.0.0.1", log=log, listen=HALL
            )
        yield Hall(
            f"http://{HALL}:{port}",
            folder / "romme.sqlite3",
            [folder / "hall.log", output],
            made["token"],
            made["codes"],
            made["table"],
            made["hands"],
        )
    finally:
        if process is not None:
            stop_hall(process)
        shutil.rmtree(root, ignore_errors=True)


def _clocked_phone(browser, moment: datetime):
    context, page = _phone(browser)
    page.clock.install(time=moment)
    return context, page


def _type_hand(page, fields: dict) -> None:
    """Type one hand into the phone's form as a player does and save it."""
    form = page.locator("#hand-form")
    for name, value in fields.items():
        if name == "winner":
            form.locator(f"input[name=winner][value='{value}']").check()
        elif name == "romme":
            form.locator("input[name=romme]").check()
        elif name == "first_dealer":
            form.locator("select[name=first_dealer]").select_option(value)
        elif name != "append_as":
            form.locator(f"input[name='{name}']").fill(value)
    page.click("#save-hand")


def _stored(hall: Hall) -> list[dict]:
    """The table's phone hands as the hall stored them, in the order they were stored."""
    uri = f"file:{hall.database}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=20)) as db:
        db.row_factory = sqlite3.Row
        rows = db.execute(
            "SELECT number, client_id, writer, status, hand, created_at, decided_at "
            "FROM scoring_tablehand WHERE table_id = ? ORDER BY id",
            [hall.table],
        ).fetchall()
    return [dict(row) for row in rows]


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)  # Django stores UTC, naive


def test_phones_with_a_wrong_clock_enter_and_confirm_hands(browser, hall):
    url = f"{hall.base}/t/{hall.token}/"
    violations = len(VIOLATIONS)
    now = datetime.now(UTC)
    ahead_context, ahead = _clocked_phone(browser, now + timedelta(hours=2))
    with ahead.expect_response(lambda r: r.url.endswith("/seat/")) as seat_answer:
        _sit_down(ahead, url, hall.codes[0].lower())
    phone_time = ahead.evaluate("Date.now()") / 1000
    assert abs(phone_time - time.time() - 7200) < 60, "the page clock is not two hours ahead"
    # The session cookie lives for Max-Age seconds from its arrival, whatever the phone's
    # clock says (Expires alone would be read against the phone's clock).
    cookies = seat_answer.value.all_headers().get("set-cookie", "")
    assert re.search(r"sessionid=[^;\n]+;[^\n]*Max-Age=\d{4,}", cookies), cookies
    assert "Sie sind Platz 1" in ahead.inner_text("#my-seat")

    typed = []  # (machine time before the hand's save, after it was seen stored)
    for n in (1, 2):
        before = time.time()
        _type_hand(ahead, hall.hands[n - 1])
        ahead.wait_for_selector(f"tr[data-hand='{n}']")
        typed.append((before, time.time()))

    # The hall's Wi-Fi drops while hand 3 is typed: it waits on the phone, then goes.
    ahead_context.set_offline(True)
    before = time.time()
    _type_hand(ahead, hall.hands[2])
    status = ahead.locator("#net-status")
    status.wait_for(state="visible")
    assert "wartet auf Netz" in status.inner_text()
    assert "Spiel 4" in ahead.inner_text(".new-hand h2")
    ARTIFACTS.mkdir(exist_ok=True)
    ahead.screenshot(path=str(ARTIFACTS / "hall-phone-clock-offline.png"))
    time.sleep(1.0)
    assert len(_stored(hall)) == 2
    ahead_context.set_offline(False)
    ahead.wait_for_selector("tr[data-hand='3']", timeout=20_000)
    typed.append((before, time.time()))

    # Seat 2's phone is three weeks behind: it confirms hands 1-3 and enters hand 4.
    behind_context, behind = _clocked_phone(browser, now - timedelta(weeks=3))
    _sit_down(behind, url, hall.codes[1])
    assert "Sie sind Platz 2" in behind.inner_text("#my-seat")
    assert behind.locator("button.confirm-hand").count() == 3
    behind.click("#confirm-mine button")
    behind.wait_for_selector("tr[data-hand='3'].hand-confirmed")
    before = time.time()
    _type_hand(behind, hall.hands[3])
    behind.wait_for_selector("tr[data-hand='4']")
    typed.append((before, time.time()))
    behind.screenshot(path=str(ARTIFACTS / "hall-phone-clock-behind.png"), full_page=True)

    # Seat 1 reloads: still seat 1 two hours ahead; it confirms hand 4.
    ahead.reload()
    assert "Sie sind Platz 1" in ahead.inner_text("#my-seat")
    ahead.click("#decide-4 button.confirm-hand")
    ahead.wait_for_selector("tr[data-hand='4'].hand-confirmed")
    ahead.screenshot(path=str(ARTIFACTS / "hall-phone-clock-ahead.png"), full_page=True)
    assert ahead.evaluate("document.documentElement.scrollWidth") <= 391
    behind.reload()
    assert "Sie sind Platz 2" in behind.inner_text("#my-seat")

    rows = _stored(hall)
    assert [r["number"] for r in rows] == [1, 2, 3, 4]  # once each, in the order entered
    assert [r["writer"] for r in rows] == [0, 0, 0, 1]
    assert len({r["client_id"] for r in rows}) == 4
    assert {r["status"] for r in rows} == {"confirmed"}
    for row, fields in zip(rows, hall.hands, strict=True):
        hand = json.loads(row["hand"])
        assert hand["winner"] + 1 == int(fields["winner"])
        for k, seat in enumerate(hand["seats"], start=1):
            assert str(seat["hand_points"] or 0) == fields.get(f"points-{k}", "0")
    # The hall's clock stamps the hands and the confirmations, never a phone's.
    for row, (before, after) in zip(rows, typed, strict=True):
        created = _utc(row["created_at"]).timestamp()
        assert before - 1 <= created <= after + 1, (row["number"], created, before, after)
        assert _utc(row["decided_at"]).timestamp() <= time.time() + 1
    ahead_context.close()
    behind_context.close()
    assert VIOLATIONS[violations:] == []
    assert not log_errors(hall.logs)


def test_the_directors_pages_are_closed_to_a_phone_with_a_wrong_clock(browser, hall):
    context, page = _clocked_phone(browser, datetime.now(UTC) + timedelta(hours=2))
    for path in ("/admin/", "/events/", "/hall/setup/"):
        response = page.goto(hall.base + path)
        assert response.status == 403, path
        assert LAPTOP_ONLY in page.inner_text("h1"), path
        assert page.evaluate("document.documentElement.lang") == "de"
    page.screenshot(path=str(ARTIFACTS / "hall-phone-laptop-only.png"), full_page=True)
    context.close()
