"""Hall mode smoke: `python -m romme.hall` as a director starts it, asked over real HTTP.

    .venv/bin/python -m tests.hall_smoke [--port 8170] [--keep]

A fresh data folder (/tmp/hallbench-smoke-*/data), the hall on 127.0.0.1 only with
HALL_URL=http://127.0.0.2:<port> (the address its QR codes name) and HALL_OTHER_DEVICES=
127.0.0.3 (requests from there count as a phone in the hall). Every request goes to
127.0.0.1; a phone's is sent from 127.0.0.3 with the Host of the hall's address.

* the first start: the laptop is sent to the first-run page, a phone may not open it, the
  form makes the director's account and club;
* a foreign Host header (DNS rebinding) gets 400;
* a second hall on the same data folder stops with the German "läuft bereits" and changes
  nothing there; a read-only data folder (a tmpfs mounted read-only; as non-root a folder
  without write permission) is refused with a German message;
* the director makes table links on the table-links page: the links there, on the score
  sheet PDF (direct and as a job of the task worker) start with the hall's address, and a
  QR, where one is printed, encodes the link;
* a phone opens its table link, names its seat, enters a hand; it gets 403 for the admin,
  the first-run page, the events list, an export, /healthz and the login while remote
  direction is off, and the login (never the admin) while it is on;
* the short phone load (bench.load.hall: phones, spectators, the display, the director)
  runs against the same hall, with its database checks;
* no answer is a 5xx or a debug page, the hall's logs hold no traceback, and Ctrl+C ends the
  hall and its children.

Exit status 1 on any failure. Not collected by pytest (no test_ prefix): CI runs it after
the production smoke.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

from bench.load.hall import DIRECTOR
from bench.rigs import serving as bench_serving
from bench.rigs.serving import (
    PASSWORD,
    ROOT,
    Client,
    hall_command,
    log_errors,
    start_hall,
    stop_hall,
)
from common.lan import points_to_this_machine
from tests.prod_smoke import verdict

PHONE = "127.0.0.3"
PORTS = range(8170, 8190)
DEBUG_PAGE = re.compile(
    r"Traceback \(most recent call last\)|DEBUG = True|Exception Value:|Request Method:"
    r"|Using the URLconf defined in|settings\.py"
)
LAPTOP_ONLY = "Diese Seite öffnet sich nur am Laptop der Turnierleitung"


class Smoke:
    def __init__(self, port: int, hall_host: str):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.hall_host = hall_host
        self.hall = f"{hall_host}:{port}"  # the Host header a phone sends
        self.hall_url = f"http://{self.hall}"
        # A QR is printed for HALL_URL's address; only localhost/127.0.0.1 would mean "this
        # machine" (common.lan.points_to_this_machine), where the hall prints none.
        self.expect_qr = not points_to_this_machine(self.hall_url)
        self.failures: list[str] = []
        self.statuses: Counter = Counter()

    def fail(self, text: str) -> None:
        self.failures.append(text)
        print("  FAIL", text, flush=True)

    def laptop(self) -> Client:
        return Client(self.base)

    def phone(self) -> Client:
        return Client(self.base, host=self.hall, source=PHONE)

    def get(self, client: Client, who: str, path: str, expect: int, **headers) -> bytes:
        status, body = client.fetch(path, headers={"Accept-Language": "de", **headers})
        self.seen(who, path, status, body)
        if status != expect:
            self.fail(f"{who}: GET {path} -> {status}, expected {expect}")
        return body

    def post(self, client: Client, who: str, path: str, data: dict, expect: int) -> str:
        status, text = client.request(path, data)
        self.seen(who, f"POST {path}", status, text.encode())
        if status != expect:
            self.fail(f"{who}: POST {path} -> {status}, expected {expect}: {text[:300]}")
        return text

    def seen(self, who: str, path: str, status: int, body: bytes) -> None:
        self.statuses[status] += 1
        if status >= 500:
            self.fail(f"{who}: {path} -> {status}")
        text = body.decode("utf-8", errors="replace")
        if DEBUG_PAGE.search(text):
            self.fail(f"{who}: {path} shows debug text: {DEBUG_PAGE.search(text)[0]!r}")


def free_ports() -> int:
    """The first of two free ports in PORTS (the hall's and the second hall's)."""
    for port in PORTS[:-1]:
        with socket.socket() as first, socket.socket() as second:
            try:
                first.bind(("127.0.0.1", port))
                second.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return port
    raise SystemExit(f"no two free ports in {PORTS.start}-{PORTS.stop - 1}")


def refused_start(smoke: Smoke, folder: Path, port: int, expected: str, what: str) -> None:
    """A hall that must stop at once, non-zero, with ``expected`` in its German message."""
    env = {**os.environ, "CI": "true", "HALL_URL": smoke.hall_url}
    try:
        done = subprocess.run(
            hall_command(folder, port),
            cwd=ROOT,
            env=env,
            timeout=60,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )
    except subprocess.TimeoutExpired:  # run() has killed it
        smoke.fail(f"{what}: the hall started instead of refusing")
        return
    print(f"{what}: exit {done.returncode}: {done.stderr.strip()[:160]}")
    if done.returncode == 0 or expected not in done.stderr:
        smoke.fail(f"{what}: exit {done.returncode}, {done.stderr.strip()[:300]!r}")


# Changed by the running hall, not by a second start: SQLite's files (a connection's open and
# close, a checkpoint; the database's content is compared instead), the hall's log (its
# children may still be starting), the backup loop's heartbeat (written through a temporary
# ".backup-state.json.tmp", which a snapshot can catch mid-write) and its backups.
OWN_WRITES = re.compile(
    r"\.sqlite3(-wal|-shm)?$|^hall\.log(\.\d+)?$|^\.?backup-state\.json(\.tmp)?$|^backups/"
)


def snapshot(folder: Path) -> dict[str, object]:
    """Every file's size and modification time but the running hall's own writes, and the
    database's content."""
    import sqlite3

    from common import datafolder

    files = {
        name: (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file() and not OWN_WRITES.search(name := p.relative_to(folder).as_posix())
    }
    database = datafolder.database_path(folder)
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
        files["database content"] = hash("\n".join(connection.iterdump()))
    return files


def read_only_folder(smoke: Smoke, root: Path) -> None:
    folder = root / "read-only"
    folder.mkdir()
    if os.geteuid() == 0:  # root writes through permissions: a file system mounted ro
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)], check=True
        )
    else:
        folder.chmod(0o555)
    try:
        refused_start(
            smoke, folder, smoke.port + 1, "kann nicht beschrieben werden", "read-only data folder"
        )
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(folder)], check=True)
        folder.chmod(0o755)


def first_start(smoke: Smoke) -> Client:
    director, phone = smoke.laptop(), smoke.phone()
    smoke.get(director, "laptop", "/", 302)
    if not (director.headers["Location"] or "").endswith("/hall/setup/"):
        smoke.fail(f"first start: / leads to {director.headers['Location']}")
    smoke.get(phone, "phone", "/hall/setup/", 403)
    page = smoke.get(director, "laptop", "/hall/setup/", 200).decode()
    for name in ("club_name", "club_short_name", "town", "username", "password", "password_again"):
        if f'name="{name}"' not in page:
            smoke.fail(f"first-run page: no field {name}")
    form = {
        "club_name": "Rommé-Club Saalbau",
        "club_short_name": "RC Saalbau",
        "town": "Kassel",
        "username": DIRECTOR,
        "password": PASSWORD,
    }
    smoke.post(director, "laptop", "/hall/setup/", {**form, "password_again": "x"}, 200)
    smoke.get(director, "laptop", "/", 302)  # two different passwords: nobody was made
    smoke.post(director, "laptop", "/hall/setup/", {**form, "password_again": PASSWORD}, 302)
    smoke.get(director, "laptop", "/", 200)
    smoke.get(director, "laptop", "/hall/setup/", 302)  # done once: never again
    return director


def foreign_host(smoke: Smoke) -> None:
    for who, source in (("laptop", None), ("phone", PHONE)):
        client = Client(smoke.base, host=f"evil.example:{smoke.port}", source=source)
        smoke.get(client, f"{who} as evil.example", "/", 400)


def second_start(smoke: Smoke, folder: Path) -> None:
    before = snapshot(folder)
    refused_start(smoke, folder, smoke.port + 1, "läuft bereits", "second hall, same folder")
    after = snapshot(folder)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    if changed:
        smoke.fail(f"second hall changed the data folder: {changed}")


def qr_shows(image, text: str) -> bool:
    """Whether a QR image drawn as scoring.sheets.codes draws it (error correction M, border
    2) encodes ``text``: its modules, read at their centres, are those of ``text``'s QR."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M

    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=2)
    qr.add_data(text)
    qr.make(fit=True)
    matrix = qr.get_matrix()
    gray = image.convert("L")
    if gray.size[0] != gray.size[1]:
        return False
    box = gray.size[0] / len(matrix)
    return all(
        (gray.getpixel((int((x + 0.5) * box), int((y + 0.5) * box))) < 128) == dark
        for y, row in enumerate(matrix)
        for x, dark in enumerate(row)
    )


def links_page(smoke: Smoke, director: Client, series) -> dict[int, str]:
    """The table-links page: every table's link on the hall's address, its QR encoding it
    (or, when the address is this machine's, no QR and the page saying why)."""
    from PIL import Image

    path = f"/series/{series.pk}/table-links/"
    smoke.get(director, "laptop", path, 200)
    smoke.post(director, "laptop", path, {}, 302)
    page = smoke.get(director, "laptop", path, 200).decode()
    cards = re.findall(
        r'<section class="link-card" id="link-table-(\d+)">(.*?)</section>', page, re.S
    )
    links = {}
    for number, card in cards:
        url = re.search(r'class="link-url"><a href="([^"]+)"', card)
        if not url or not url[1].startswith(f"{smoke.hall_url}/t/"):
            smoke.fail(f"table-links page, table {number}: link {url and url[1]!r}")
            continue
        links[int(number)] = url[1]
        qr = re.search(r'src="data:image/png;base64,([^"]+)"', card)
        if smoke.expect_qr and not qr:
            smoke.fail(f"table-links page, table {number}: no QR")
        elif qr and not smoke.expect_qr:
            smoke.fail(f"table-links page, table {number}: a QR to this machine's address")
        elif qr and not qr_shows(Image.open(io.BytesIO(base64.b64decode(qr[1]))), url[1]):
            smoke.fail(f"table-links page, table {number}: the QR does not encode {url[1]}")
    if not smoke.expect_qr and 'id="links-local"' not in page:
        smoke.fail("table-links page: no QR and no reason given")
    if len(links) != series.tables.count():
        smoke.fail(f"table-links page: {len(links)} links for {series.tables.count()} tables")
    print(
        f"table-links page: {len(links)} links on {smoke.hall_url}, "
        f"{'QR codes checked' if smoke.expect_qr else 'no QR (a loopback address)'}"
    )
    return links


def check_pdf(smoke: Smoke, what: str, content: bytes, links: dict[int, str]) -> None:
    from pypdf import PdfReader

    if not content.startswith(b"%PDF"):
        smoke.fail(f"{what}: not a PDF")
        return
    pages = PdfReader(io.BytesIO(content)).pages
    text = re.sub(r"\s+", "", "".join(page.extract_text() for page in pages))
    images = [image.image for page in pages for image in page.images]
    for number, url in links.items():
        if url not in text:
            smoke.fail(f"{what}: table {number}'s link {url} is not printed")
        if smoke.expect_qr and not any(qr_shows(image, url) for image in images):
            smoke.fail(f"{what}: no QR encodes table {number}'s link")
    if not smoke.expect_qr and (images or "(localhost)" not in text):
        smoke.fail(
            f"{what}: {len(images)} images, the reason for no QR printed: {'(localhost)' in text}"
        )
    print(f"{what}: {len(pages)} pages, {len(links)} links, {len(images)} QR codes")


def score_sheets(smoke: Smoke, director: Client, series, links: dict[int, str]) -> None:
    path = f"/exports/series/{series.pk}/score-sheets.pdf"
    check_pdf(smoke, "score sheets", smoke.get(director, "laptop", path, 200), links)
    # The same as a job: rendered by the hall's task worker.
    smoke.get(director, "laptop", f"/exports/series/{series.pk}/", 200)
    token = next((c.value for c in director.jar if c.name == "csrftoken"), "")
    status, body = director.fetch(
        path + "/job/",
        body=f"csrfmiddlewaretoken={token}".encode(),
        headers={"Accept": "application/json", "Referer": smoke.base + path},
    )
    smoke.seen("laptop", f"POST {path}/job/", status, body)
    if status != 202:
        smoke.fail(f"score sheets job: {status}")
        return
    status_url, deadline, state = json.loads(body)["status_url"], time.monotonic() + 120, {}
    while time.monotonic() < deadline:
        state = json.loads(smoke.get(director, "laptop", status_url, 200) or b"{}")
        if state.get("state") not in ("queued", "running"):
            break
        time.sleep(0.5)
    if state.get("state") != "done":
        smoke.fail(f"score sheets job: {state}")
        return
    content = smoke.get(director, "laptop", state["download_url"], 200)
    check_pdf(smoke, "score sheets (job)", content, links)


def phone_at_table(smoke: Smoke, event, series, link) -> None:
    from bench.load.phones import Phone, _hand_fields
    from scoring.models import TableHand

    phone = Phone(smoke.base, host=smoke.hall, source=PHONE)
    root = f"/t/{link.token}/"
    smoke.get(phone, "phone", root, 200)
    smoke.post(phone, "phone", root + "seat/", {"code": link.seat_codes[0]}, 302)
    hand = {**_hand_fields(event.ruleset, random.Random(5), 1, 4), "client_id": "smoke-hand-1"}
    status, answer = phone.post_json(root + "hand/", hand)
    smoke.seen("phone", f"POST {root}hand/", status, json.dumps(answer).encode())
    if status != 200 or not answer.get("created"):
        smoke.fail(f"phone: the hand was not saved: {status} {answer}")
    if not TableHand.objects.filter(table=link.table, client_id="smoke-hand-1").exists():
        smoke.fail("phone: the saved hand is not in the database")
    for path in (
        "/",
        f"/public/events/{event.pk}/",
        f"/public/events/{event.pk}/display/",
        f"/public/events/{event.pk}/version.json",
        f"/api/events/{event.pk}/standings",
        "/about/",
    ):
        smoke.get(phone, "phone", path, 200)
    closed = [
        "/admin/",
        "/hall/setup/",
        "/events/",
        f"/exports/series/{series.pk}/score-sheets.pdf",
        "/healthz",
        "/login/",
        f"/series/{series.pk}/table-links/",
    ]
    for path in closed:
        if LAPTOP_ONLY not in smoke.get(phone, "phone", path, 403).decode(errors="replace"):
            smoke.fail(f"phone: {path} answered 403 without the German laptop-only page")


def remote_direction(smoke: Smoke, director: Client) -> None:
    """On: a phone reaches the login (a second director's tablet), never the admin or the
    hall's own pages; off again: the login is closed again."""
    phone = smoke.phone()
    for on, login in ((True, 200), (False, 403)):
        data = {"remote_direction": "on"} if on else {}
        smoke.get(director, "laptop", "/", 200)
        smoke.post(director, "laptop", "/hall/settings/", {**data, "backup_folder": ""}, 302)
        smoke.get(phone, f"phone, remote direction {on}", "/login/", login)
        for path in ("/admin/", "/hall/setup/", "/healthz"):
            smoke.get(phone, f"phone, remote direction {on}", path, 403)


def short_load(smoke: Smoke, hall, director_user, club) -> None:
    from bench.load import hall as hall_load
    from bench.load.command import build_parser

    args = build_parser().parse_args(["--phones", "--hall", "--short", "--port", str(smoke.port)])
    hall_load.configure(args)
    scenario = hall_load.make_scenario(args, director_user, club)
    result = hall_load.drive(args, scenario, smoke.port, hall, smoke.hall_host)
    hall_load.check(result, scenario, [])
    saves = result.stats.save_latencies
    print(
        f"short phone load: {len(saves)} hands saved, {len(result.confirmed_at)} sheets "
        f"confirmed, lost / duplicated {result.lost} / {result.duplicated}"
    )
    for failure in result.failures:
        smoke.fail(f"short phone load: {failure}")


def run(args) -> int:
    started = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="hallbench-smoke-", dir="/tmp"))
    folder = root / "data"
    port = args.port or free_ports()
    if port + 1 not in PORTS:  # the second hall's port (it must never get to bind it)
        raise SystemExit(f"--port: {port} and {port + 1} must be in {PORTS.start}-{PORTS.stop - 1}")
    smoke = Smoke(port, args.hall_host)
    output = root / "hall-output.log"
    hall = None
    try:
        with output.open("wb") as log:
            hall = start_hall(folder, port, smoke.hall_url, PHONE, log=log)
            print(f"hall up on 127.0.0.1:{port} in {time.monotonic() - started:.0f} s", flush=True)
            director = first_start(smoke)
            foreign_host(smoke)
            second_start(smoke, folder)
            read_only_folder(smoke, root)
            with_django(smoke, folder, director, hall)
            stopped = stop_hall(hall)
            if hall.returncode != 0 or stopped:
                smoke.fail(f"Ctrl+C: exit {hall.returncode}, {stopped} children left to kill")
        from common import datafolder

        for problem in log_errors([datafolder.log_path(folder), output]):
            smoke.fail(problem)
    finally:
        if hall is not None and hall.poll() is None:
            stop_hall(hall)
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(
        f"statuses: {dict(sorted(smoke.statuses.items()))}; "
        f"{time.monotonic() - started:.0f} s in all"
    )
    return verdict("hall smoke", smoke.failures)


def with_django(smoke: Smoke, folder: Path, director: Client, hall) -> None:
    """The checks that need data beside the first start: made with the app's services in
    this process, on the hall's own database (SQLite in WAL mode takes both processes)."""
    from bench.load.hall import setup_django

    setup_django(folder)
    from django.contrib.auth import get_user_model

    from bench.rigs.datasets import _players
    from clubs.models import Club
    from scoring.demo.generate import Plan, generate_event

    director_user = get_user_model().objects.get(username=DIRECTOR)
    club = Club.objects.get(short_name="RC Saalbau")
    event = generate_event(
        Plan(
            name="Rauchpause-Cup",
            club=club,
            players=_players(16, [club], "SM"),
            series=1,
            rounds=2,
            confirmed_series=0,
            seed=3,
        )
    )
    series = event.series.get(number=1)
    series.published = True
    series.save(update_fields=["published"])
    links = links_page(smoke, director, series)
    score_sheets(smoke, director, series, links)
    from scoring.models import TableLink

    phone_at_table(smoke, event, series, TableLink.objects.filter(table__series=series).first())
    remote_direction(smoke, director)
    short_load(smoke, hall, director_user, club)


def installed_hall_command(folder: Path, port: int, listen: str = "127.0.0.1") -> list[str]:
    """`romme-ledger hall` of the installed package (the console script beside this Python),
    on loopback only, as bench.rigs.serving.hall_command."""
    if not listen.startswith("127."):
        raise ValueError(f"the hall of a smoke listens on loopback only, not {listen}")
    return [str(Path(sys.executable).with_name("romme-ledger")), "hall", "--data", str(folder),
            "--port", str(port), "--listen", listen, "--no-browser"]  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--port",
        type=int,
        default=0,
        help=f"0: a free one in {PORTS.start}-{PORTS.stop - 1}; the next port is the second hall's",
    )
    parser.add_argument(
        "--hall-host", default="127.0.0.2",
        help="HALL_URL's host; the hall prints no QR for a loopback address, so its QR checks "
        "run with an address a phone could follow, e.g. 192.0.2.10 (only ever sent as a Host "
        "header: every request goes to 127.0.0.1)",
    )  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the data folder")
    parser.add_argument(
        "--installed", action="store_true",
        help="start `romme-ledger hall` of the installed package (never a source tree's app)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.installed:
        from tests.prod_smoke import require_installed

        require_installed()
        global hall_command  # this module's and bench.rigs.serving's (start_hall) starts
        hall_command = bench_serving.hall_command = installed_hall_command
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
