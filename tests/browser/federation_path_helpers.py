"""Shared by tests/browser/test_federation_path.py: the people and the two events of the
federation's whole path, the second installation (a real separate process on its own
SQLite file: `manage.py migrate`, `shell -c`, `submit_event`), the ranking expected from
the default formula computed here in plain Python, and the checks every page passes
(German text, no console error, no failed request)."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CLUBS = {"HDK": ("Herz Dame Kassel", "Kassel"), "KBE": ("Kreuz Bube Erfurt", "Erfurt")}

# The federation's register: (player number, given name, family name, birth year, club).
# HDK plays in the Landesverband Hessen, KBE in Thüringen (its players are guests).
REGISTER = [
    ("HDK-01", "Anna", "Becker", 1961, "HDK"),
    ("HDK-02", "Jürgen", "Müller", 1955, "HDK"),
    ("HDK-03", "Sabine", "Weiß", 1970, "HDK"),
    ("HDK-04", "Klaus", "Hoffmann", 1949, "HDK"),
    ("HDK-05", "Renate", "Köhler", 1958, "HDK"),
    ("HDK-06", "Dieter", "Schröder", 1952, "HDK"),
    ("HDK-07", "Brigitte", "Wagner", 1964, "HDK"),
    ("HDK-08", "Horst", "Zimmermann", 1950, "HDK"),
    ("HDK-09", "Ingrid", "Krüger", 1957, "HDK"),
    ("HDK-10", "Werner", "Braun", 1947, "HDK"),
    ("HDK-11", "Margarete", "Schäfer", 1953, "HDK"),
    ("HDK-12", "Gerhard", "Lange", 1960, "HDK"),
    ("KBE-01", "Monika", "Fuchs", 1966, "KBE"),
    ("KBE-02", "Peter", "Vogel", 1962, "KBE"),
]
FIRST_EVENT = [row[0] for row in REGISTER]  # played and approved on the federation's side

# The club's own installation knows HDK-11 by another given name (the officer matches her
# to the player here) and HDK-20, whom the federation does not know (the officer creates her).
RENAMED = ("HDK-11", "Grete", "Schäfer", 1953, "HDK")
NEWCOMER = ("HDK-20", "Änne", "Groß", 1975, "HDK")
SECOND_REGISTER = [RENAMED if row[0] == RENAMED[0] else row for row in REGISTER] + [NEWCOMER]
SECOND_EVENT = [f"HDK-{i:02d}" for i in range(1, 10)] + ["HDK-11", "HDK-20", "KBE-01"]
SECOND_NAME = "Kasseler Herbstturnier"

# Run in the second installation: its clubs and register.
SETUP = """
import datetime as dt
from clubs.models import Club, Membership, Player
clubs = {{}}
for short, (name, town) in {clubs!r}.items():
    clubs[short] = Club.objects.create(name=name, short_name=short, town=town)
for number, given, family, year, club in {people!r}:
    player = Player.objects.create(
        player_number=number, given_name=given, family_name=family, birth_year=year
    )
    Membership.objects.create(player=player, club=clubs[club], valid_from=dt.date(2020, 1, 1))
print("ok")
"""

# Run in the second installation: the event played there (every sheet confirmed, as
# tests/federation/submit_helpers.played makes one) and its standing by player number.
# Its rule set lets level totals share their rank ("playoff"): with this seed two players
# share a place, so the ranking's points for tied places (the average) are on the path.
PLAY = """
import datetime as dt, json
from clubs.models import Club, Player
from scoring.demo.generate import Plan, generate_event
from scoring.standings.selectors import event_standing
from tournaments.models import Event
numbers = {numbers!r}
by_number = {{p.player_number: p for p in Player.objects.filter(player_number__in=numbers)}}
event = generate_event(Plan(
    name={name!r}, club=Club.objects.get(short_name="HDK"),
    players=[by_number[n] for n in numbers], series=2, rounds=1, seed={seed},
    start_date=dt.date.fromisoformat({day!r}),
))
Event.objects.filter(pk=event.pk).update(ruleset_overrides={{"ties": "playoff"}})
event = Event.objects.get(pk=event.pk)
number_of = {{p.pk: n for n, p in by_number.items()}}
rows = event_standing(event, only_published=False).rows
print(json.dumps({{"event": event.pk, "ranks": {{number_of[r.player_id]: r.rank for r in rows}}}}))
"""


# ----- the second installation ----------------------------------------------------------


def second_env(database: Path) -> dict:
    """The club's own installation: development settings, its own SQLite file, no hall,
    no shared cache."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("HALL_MODE", "ROMME_DATA", "REDIS_URL", "CACHE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_SETTINGS_MODULE="romme.settings",
        DEBUG="1",
        HALL_BACKUPS="0",
        LOG_LEVEL="WARNING",
    )
    return env


def start_second(env: dict, log: Path) -> subprocess.Popen:
    """Migrate and register the clubs and players, in the background (8-15 s: it runs
    while the browser does the first steps)."""
    env = env | {"E2E_SETUP": SETUP.format(clubs=CLUBS, people=SECOND_REGISTER)}
    script = 'set -e; "$0" manage.py migrate --noinput -v0; "$0" manage.py shell -c "$E2E_SETUP"'
    with open(log, "wb") as out:
        return subprocess.Popen(
            ["sh", "-c", script, sys.executable], cwd=ROOT, env=env, stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip


def manage(env: dict, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=timeout,
    )  # fmt: skip


def play_second(env: dict, day: str, seed: int = 11) -> dict:
    """The event played on the second installation: {"event": id, "ranks": {number: rank}}."""
    code = PLAY.format(numbers=SECOND_EVENT, name=SECOND_NAME, seed=seed, day=day)
    done = manage(env, "shell", "-c", code)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# ----- what the default formula gives -----------------------------------------------------


def places(ranks: dict) -> dict:
    """Ranks as places over the field: tied players share the first place of their group."""
    order = sorted(ranks.values())
    return {key: order.index(rank) + 1 for key, rank in ranks.items()}


def event_points(ranks: dict) -> dict:
    """points = field - place + 1; tied places share the average of their places' points."""
    placed = places(ranks)
    size, tied = len(placed), Counter(placed.values())
    return {
        key: Fraction(2 * (size - place + 1) - (tied[place] - 1), 2)
        for key, place in placed.items()
    }


@dataclass
class Line:
    key: str
    points: Fraction
    events: int
    best: Fraction
    rank: int = 0
    results: list = field(default_factory=list)


def expected_ranking(*events: dict, best_n: int = 5, min_events: int = 2):
    """(listed lines in order with their ranks, unlisted keys) from each event's points:
    the best `best_n` count, listed with `min_events`; order by points, then events counted,
    then the best result; equal in all three share a rank."""
    per_player: dict[str, list[Fraction]] = {}
    for points in events:
        for key, value in points.items():
            per_player.setdefault(key, []).append(value)
    lines = []
    for key, results in per_player.items():
        counted = sorted(results, reverse=True)[:best_n]
        lines.append(Line(key, sum(counted), len(counted), max(counted), results=results))
    listed = sorted(
        (ln for ln in lines if len(ln.results) >= min_events),
        key=lambda ln: (-ln.points, -ln.events, -ln.best),
    )
    for i, line in enumerate(listed):
        same = i and (line.points, line.events, line.best) == (
            listed[i - 1].points, listed[i - 1].events, listed[i - 1].best,
        )  # fmt: skip
        line.rank = listed[i - 1].rank if same else i + 1
    unlisted = sorted(ln.key for ln in lines if len(ln.results) < min_events)
    return listed, unlisted


def qualified(listed: list[Line], region_keys: set, places_: int, reserves: int):
    """(qualified keys, cut rank, reserve keys) of one region: its listed players in ranking
    order; all who share the rank of the last place are in."""
    these = [ln for ln in listed if ln.key in region_keys]
    taken = min(places_, len(these))
    while 0 < taken < len(these) and these[taken].rank == these[taken - 1].rank:
        taken += 1
    cut = these[taken - 1].rank if taken else None
    return [ln.key for ln in these[:taken]], cut, [ln.key for ln in these[taken:][:reserves]]


def german_number(text: str) -> Decimal:
    """ "21,50" as shown on a German page."""
    return Decimal(text.strip().replace(".", "").replace(",", "."))


def rounded(value: Fraction) -> Decimal:
    """As the pages show it: two decimals, half up (`rules.ranking.shown`)."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


# ----- every page ---------------------------------------------------------------------------

# Internal values of the federation's models that must never reach a page.
INTERNAL = re.compile(
    r"\b(?:requested|granted|refused|submitted|approved|withdrawn|pending|superseded|"
    r"rejected|matching|imported|replaced|received|ranking_tournament)\b"
)


@functools.cache
def english_phrases() -> frozenset:
    from tests.test_german_crawl import _english_phrases

    return frozenset(_english_phrases())


def english_on(html: str) -> list[str]:
    """English msgid pieces and internal values in the page's visible text."""
    from tests.test_german_crawl import _visible_text

    text = _visible_text(html)
    return sorted(p for p in english_phrases() if p in text) + INTERNAL.findall(text)


class Watched:
    """A browser page whose console errors, uncaught errors and failed requests are kept."""

    def __init__(self, page):
        self.page = page
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"pageerror: {error}"))
        page.on("response", self._response)

    def _console(self, message):
        # Chromium asks every page without <link rel=icon> for /favicon.ico: not ours.
        if message.location.get("url", "").endswith("/favicon.ico"):
            return
        if message.type == "error":
            self.problems.append(f"console: {message.text} ({message.location.get('url')})")

    def _response(self, response):
        if response.status >= 400 and not response.url.endswith("/favicon.ico"):
            self.problems.append(f"{response.status} {response.url}")

    def german(self) -> str:
        """The page's main text, after checking that nothing English shows and nothing
        went wrong in the browser so far."""
        self.page.wait_for_load_state()
        leftovers = english_on(self.page.content())
        assert leftovers == [], (self.page.url, leftovers[:8])
        assert self.problems == [], self.problems
        return self.page.locator("main").inner_text()

    def goto(self, url: str) -> str:
        response = self.page.goto(url)
        assert response is not None and response.status == 200, (url, response and response.status)
        return self.german()

    def click(self, selector: str) -> str:
        self.page.click(selector)
        return self.german()

    def table_rows(self, selector: str) -> list[list[str]]:
        """The cells' texts of every body row of the table."""
        return self.page.eval_on_selector_all(
            f"{selector} tbody tr",
            "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))",
        )
