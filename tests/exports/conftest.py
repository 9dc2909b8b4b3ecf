import io

import pytest
from django.utils import translation

INJECTIONS = ['=HYPERLINK("http://x","y")', "+1", "@SUM(A1)", "-2+3"]
IMG_NAME = '<img src="http://example.invalid/x">'


@pytest.fixture(autouse=True)
def english():
    """Exports built outside a request use the active language; the tests read English."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def job_settings(settings):
    from tests.factories import IMMEDIATE_TASKS

    settings.TASKS = IMMEDIATE_TASKS
    return settings


@pytest.fixture
def event_a(club_a):
    from tests.factories import EventFactory

    return EventFactory(club=club_a, name="Kasseler Herbstturnier ♠♥♦♣")


def _participant(event, club, given, family, number, birth_year=1970, active=True):
    from tests.factories import MembershipFactory, ParticipantFactory, PlayerFactory

    player = PlayerFactory(
        given_name=given,
        family_name=family,
        player_number=number,
        birth_year=birth_year,
        active=active,
    )
    MembershipFactory(player=player, club=club)
    return ParticipantFactory(event=event, player=player, club=club)


@pytest.fixture
def players_a(event_a, club_a):
    """Eight participants of event_a, members of club_a, with umlauts."""
    names = [
        ("Jürgen", "Müller"),
        ("Anna", "Özdemir"),
        ("Grete", "Weiß"),
        ("Heinz", "Äbersold"),
        ("Karl", "Bäcker"),
        ("Lotte", "Schröder"),
        ("Otto", "Krüger"),
        ("Rita", "Hoß"),
    ]
    return [
        _participant(event_a, club_a, given, family, f"K{i:04d}", 1950 + i)
        for i, (given, family) in enumerate(names, start=1)
    ]


@pytest.fixture
def series_a(event_a, players_a):
    """Series 1 of event_a with two tables of four (seat order as in players_a)."""
    from tests.factories import SeriesFactory, seated_table

    series = SeriesFactory(event=event_a, number=1, planned_rounds=5)
    seated_table(series, players_a[:4], number=1)
    seated_table(series, players_a[4:], number=2)
    return series


@pytest.fixture
def hostile_series(event_a, club_a):
    """A series whose one table seats players named like formulas and like markup."""
    from tests.factories import SeriesFactory, seated_table

    participants = [
        _participant(event_a, club_a, "Eva", name, f"X{i:03d}")
        for i, name in enumerate([*INJECTIONS, IMG_NAME], start=1)
    ]
    series = SeriesFactory(event=event_a, number=2, planned_rounds=1)
    seated_table(series, participants, number=1)
    return series


def read_xlsx(content: bytes):
    from openpyxl import load_workbook

    return load_workbook(io.BytesIO(content))


def read_pdf(content: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(content))


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in read_pdf(content).pages)


def _multiply(m, n):
    return [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]


def pdf_lines(page, tolerance=3.0) -> list[list[str]]:
    """The page's text pieces grouped into visual lines (top to bottom, left to right)."""
    pieces = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            matrix = _multiply(tm, cm)
            pieces.append((matrix[5], matrix[4], text.strip()))

    page.extract_text(visitor_text=visit)
    lines: list[tuple[float, list[tuple[float, str]]]] = []
    for y, x, text in sorted(pieces, key=lambda p: -p[0]):
        if lines and abs(lines[-1][0] - y) <= tolerance:
            lines[-1][1].append((x, text))
        else:
            lines.append((y, [(x, text)]))
    return [[text for _, text in sorted(items)] for _, items in lines]


def dealers_by_hand(page) -> dict[int, str]:
    """Hand number -> the dealer cell ("2. Özdemir, Anna") of a score-sheet page."""
    found = {}
    for line in pdf_lines(page):
        if len(line) >= 2 and line[0].isdigit() and line[1][:1].isdigit() and ". " in line[1]:
            found[int(line[0])] = line[1]
    return found


@pytest.fixture
def database_tasks(settings):
    """The backend the app runs with: tasks wait in the database for a worker."""
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": settings.TASK_QUEUES}
    }
    return settings


def run_worker() -> None:
    """A real worker (`manage.py db_worker --batch`): every waiting task, then it exits.
    Needs django_db(transaction=True): the worker closes connections between tasks."""
    import signal
    import time

    from django.core.management import call_command
    from django.db import OperationalError

    # The worker installs its own handlers for a graceful stop; pytest keeps its own.
    kept = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    try:
        for attempt in range(50):
            try:
                call_command("db_worker", "--batch", "--no-reload", "--no-startup-delay",
                             "--interval=0", verbosity=0)  # fmt: skip
                break
            except OperationalError as error:
                # The test database is SQLite in memory with a shared cache: a page's poll
                # answered by the live server thread at that moment holds a table lock, which
                # is refused at once ("table is locked"), not waited for. A task's own work
                # is atomic, so the batch is simply run again.
                if "locked" not in str(error) or attempt == 49:
                    raise
                time.sleep(0.1)
    finally:
        for number, handler in kept.items():
            signal.signal(number, handler)


@pytest.fixture
def links(series_a, organiser_a):
    """Table links of series_a, put in play: {table number: TableLink}."""
    from scoring.sheets.table import links as table_links
    from tournaments.models import Series

    Series.objects.filter(pk=series_a.pk).update(status=Series.Status.IN_PLAY)
    series_a.refresh_from_db()
    made = table_links.create_table_links(organiser_a, series_a)
    return {link.table.number: link for link in made}
