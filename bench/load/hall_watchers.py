"""The readers of ``bench.load.hall``: the hall display and the spectators' phones, each doing
what its page's script does in a browser, and how soon the display shows a confirmation.

The public page (static/js/live.js) and the hall display (static/js/display.js) ask for the
event's results version at a fixed rate (setInterval) and load the page again only when the
version changed. A browser's ``fetch(…, {cache: "no-cache"})`` revalidates what it holds, so
every request carries the ETag it saw last; pages are asked for with gzip.
"""

from __future__ import annotations

import gzip
import http.client
import json
import random
import re
import threading
import time
from dataclasses import dataclass, field

from bench.load.read_clients import Tally
from bench.rigs.serving import Client


@dataclass
class Poll:
    sent: float  # time.monotonic()
    answered: float
    version: int | None  # None: no answer


@dataclass
class Follower:
    """One browser tab following an event: the public page or the hall display."""

    client: Client
    page: str  # the page's path
    version_url: str
    interval: float  # seconds between two version polls
    kind: str  # "spectator" or "display": names the rows of the tally
    polls: list[Poll] = field(default_factory=list)
    etags: dict[str, str] = field(default_factory=dict)
    version: int | None = None

    def get(self, path: str, view: str, tally: Tally) -> tuple[int, bytes]:
        headers = {"Accept-Encoding": "gzip", "Accept-Language": "de"}
        if path in self.etags:
            headers["If-None-Match"] = self.etags[path]
        started = time.perf_counter()
        try:
            status, body = self.client.fetch(path, headers=headers)
        except (OSError, http.client.HTTPException):
            status, body = 0, b""
        tally.add(f"{self.kind} {view}", time.perf_counter() - started, status)
        answer = self.client.headers
        if status == 200 and answer is not None:
            if answer.get("ETag"):
                self.etags[path] = answer["ETag"]
            if answer.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
        return status, body

    def load_page(self, tally: Tally) -> None:
        status, body = self.get(self.page, "page", tally)
        if status == 200 and self.version is None:
            # The version the page shows (data-version), as the script starts from it.
            match = re.search(rb'data-version="(\d+)"', body)
            self.version = int(match[1]) if match else None

    def poll(self, tally: Tally) -> None:
        sent = time.monotonic()
        status, body = self.get(self.version_url, "version", tally)
        if status == 200:
            shown = json.loads(body)["version"]
        elif status == 304:
            shown = self.version  # unchanged since the last answer
        else:
            self.polls.append(Poll(sent, time.monotonic(), None))
            return
        self.polls.append(Poll(sent, time.monotonic(), shown))
        if shown != self.version:
            self.version = shown
            self.load_page(tally)

    def follow(self, stop: threading.Event, tally: Tally, rng: random.Random) -> None:
        stop.wait(rng.random() * self.interval)  # the tabs were not opened at one moment
        self.load_page(tally)
        next_poll = time.monotonic() + self.interval
        while not stop.wait(max(0.0, next_poll - time.monotonic())):
            self.poll(tally)
            next_poll += self.interval


def display_interval(html: str) -> float:
    """The hall display's poll in seconds, as its page sets it (data-poll on <body>)."""
    match = re.search(r'data-poll="(\d+)"', html)
    if not match:
        raise RuntimeError("the hall display names no data-poll")
    return float(match[1])


def start(followers: list[Follower], tally: Tally, stop: threading.Event):
    threads = [
        threading.Thread(target=f.follow, args=(stop, tally, random.Random(k)))
        for k, f in enumerate(followers)
    ]
    for thread in threads:
        thread.start()
    return threads


@dataclass
class Staleness:
    seconds: list[float]  # per confirmation: its answer to the display's answer showing it
    late: list[str]  # confirmations the first poll sent after their answer did not show
    unseen: int  # confirmations no poll came after


def staleness(confirmations: dict[int, tuple[float, int]], polls: list[Poll]) -> Staleness:
    """``confirmations``: table -> (when its answer came, the results version it made).
    A poll answered before a confirmation's own answer may already show it (0 s)."""
    result = Staleness([], [], 0)
    answered = [p for p in polls if p.version is not None]
    for table, (at, version) in sorted(confirmations.items()):
        showing = next((p for p in answered if p.version >= version and p.answered >= at), None)
        before = any(p.version >= version and p.answered < at for p in answered)
        if before:
            result.seconds.append(0.0)
            continue
        if showing is None:
            result.unseen += 1
            continue
        result.seconds.append(showing.answered - at)
        first_after = next((p for p in answered if p.sent >= at), None)
        if first_after is not None and first_after.version < version:
            result.late.append(f"table {table}: version {version} not shown by the next poll")
    return result
