"""Database unavailable, disk full, read-only: 503 with a German page, nothing half-saved."""

import errno
import os
import sqlite3
from contextlib import contextmanager
from unittest import mock

import psycopg.errors
import pytest
from django import db as django_db
from django.core.exceptions import ValidationError
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import reverse

from romme import faults
from scoring.models import Hand, Sheet
from scoring.sheets import services
from tests.sheets.conftest import make_series, post_data, random_grid, scorer

pytestmark = pytest.mark.django_db

KEPT = "Ihre Eingaben in der Spielliste bleiben in diesem Browser erhalten"
WRITES = ("INSERT", "UPDATE", "DELETE")


@contextmanager
def failing_sql(error, *, writes_only=True, table=None):
    """Every SQL statement (or every write, of `table` only) raises `error` as the database
    driver would."""
    original = CursorWrapper._execute

    def execute(self, sql, params, *args):
        if (not writes_only or sql.lstrip().upper().startswith(WRITES)) and (
            table is None or table in sql
        ):
            if isinstance(error, sqlite3.Error | psycopg.Error):
                # What Django's wrapper makes of a driver's error, on either database.
                names = [k.__name__ for k in type(error).__mro__]
                name = next(n for n in names if n != "Error" and hasattr(django_db, n))
                raise getattr(django_db, name)(*error.args) from error
            raise error
        return original(self, sql, params, *args)

    with mock.patch.object(CursorWrapper, "_execute", execute):
        yield


@pytest.fixture
def table(club_a):
    _series, tables = make_series(club_a)
    return tables[0]


@pytest.fixture
def scorer_client(scorer_a):
    client = Client(raise_request_exception=False)
    client.force_login(scorer_a)
    return client


def _save(client, table):
    url = reverse("scoring:sheet_entry", args=[table.series_id, table.number])
    return client.post(url, post_data(random_grid(seed=3)), HTTP_ACCEPT_LANGUAGE="de")


def _page(response) -> str:
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"]
    text = response.content.decode()
    assert '<html lang="de">' in text and KEPT in text
    assert "Fehler / Error" not in text
    return text


@pytest.mark.parametrize(
    ("error", "says"),
    [
        (
            sqlite3.OperationalError("database or disk is full"),
            "Speicherplatz des Servers ist voll",
        ),
        (sqlite3.OperationalError("attempt to write a readonly database"), "schreibgeschützt"),
        (
            psycopg.errors.ReadOnlySqlTransaction(
                "cannot execute INSERT in a read-only transaction"
            ),
            "schreibgeschützt",
        ),
        (psycopg.errors.DiskFull("could not extend file: No space left"), "Speicherplatz"),
        (psycopg.errors.AdminShutdown("terminating connection"), "nicht erreichbar"),
        (psycopg.OperationalError("connection refused"), "nicht erreichbar"),
    ],
)
def test_a_failing_save_answers_503_and_keeps_the_database(scorer_client, table, error, says):
    sheets, hands = Sheet.objects.count(), Hand.objects.count()
    with failing_sql(error):
        response = _save(scorer_client, table)
    assert says in _page(response)
    # Nothing half-written: the transaction of the save rolled back.
    assert (Sheet.objects.count(), Hand.objects.count()) == (sheets, hands)
    # The same save goes through once the fault is gone.
    assert _save(scorer_client, table).status_code in (200, 302)
    assert Hand.objects.count() > hands


def test_database_unavailable_on_every_query(scorer_client):
    with failing_sql(sqlite3.OperationalError("unable to open database file"), writes_only=False):
        response = scorer_client.get(reverse("home"))
    assert "nicht erreichbar" in _page(response)


def test_interface_error_is_database_unavailable(scorer_client):
    error = psycopg.InterfaceError("connection already closed")
    with failing_sql(error, writes_only=False):
        response = scorer_client.get(reverse("home"))
    assert "nicht erreichbar" in _page(response)


@pytest.mark.parametrize(
    ("read_only", "free_bytes", "says"),
    [
        (True, 10**9, "schreibgeschützt"),
        (False, 4096, "Speicherplatz des Servers ist voll"),
        (False, 10**9, "nicht erreichbar"),
    ],
)
@pytest.mark.parametrize("message", ["unable to open database file", "disk I/O error"])
def test_sqlite_unable_to_open_is_told_by_the_folder(
    scorer_client, table, tmp_path, read_only, free_bytes, says, message
):
    # SQLite in WAL mode on a read-only or full disk cannot create its -shm file and says
    # only "unable to open database file" or "disk I/O error" (found by bench.faults).
    stat = mock.Mock(f_flag=os.ST_RDONLY if read_only else 0, f_bavail=free_bytes, f_frsize=1)
    with (
        mock.patch("romme.faults._sqlite_folder", return_value=tmp_path),
        mock.patch("romme.faults.os.statvfs", return_value=stat) as statvfs,
        failing_sql(sqlite3.OperationalError(message), writes_only=False),
    ):
        response = _save(scorer_client, table)
    assert says in _page(response)
    statvfs.assert_called_with(tmp_path)


def test_the_folder_is_only_asked_on_sqlite():
    with mock.patch("romme.faults.db.connection") as connection:
        connection.vendor = "postgresql"
        assert faults._sqlite_folder() is None
        connection.vendor, connection.settings_dict = "sqlite", {"NAME": "/srv/romme/db.sqlite3"}
        assert str(faults._sqlite_folder()) == "/srv/romme"


@pytest.mark.parametrize("debug", [False, True])
def test_a_fault_after_the_commit_answers_503_and_the_resend_is_saved(
    scorer_client, table, settings, debug
):
    # bench.faults: PostgreSQL restarted after a save's commit, while the answer wrote the
    # session. Django's session middleware made that a 400 "Bad request" (DEBUG: debug page).
    settings.DEBUG = debug
    shutdown = psycopg.errors.AdminShutdown("terminating connection due to administrator command")
    with failing_sql(shutdown, table="django_session"):
        response = _save(scorer_client, table)
    assert "nicht erreichbar" in _page(response)
    sheet = Sheet.objects.get(table=table)
    assert sheet.version == 1  # committed before the answer failed
    # The browser sends its draft again: answered as saved, not as someone else's conflict.
    response = _save(scorer_client, table)
    assert response.status_code == 302
    assert Sheet.objects.get(table=table).versions.count() == 1


def test_a_page_whose_only_write_is_the_session_answers_503(scorer_client, table):
    # The sheet page after a save drops the "saved" note from the session: a write on a GET.
    assert _save(scorer_client, table).status_code == 302
    url = reverse("scoring:sheet_entry", args=[table.series_id, table.number])
    full = sqlite3.OperationalError("database or disk is full")
    with failing_sql(full, table="django_session"):
        response = scorer_client.get(url)
    assert "Speicherplatz des Servers ist voll" in _page(response)


def test_a_session_really_gone_is_still_djangos_400(scorer_client, table):
    from django.contrib.sessions.backends.base import UpdateError

    # Deleted meanwhile (logged out in another tab): no fault, Django's answer stays.
    with mock.patch(
        "django.contrib.sessions.backends.db.SessionStore.save", side_effect=UpdateError
    ):
        response = _save(scorer_client, table)
    assert response.status_code == 400


def test_a_resend_is_the_same_save_only_when_nothing_differs(table, scorer_a, club_a):
    grid, other_grid = random_grid(seed=3), random_grid(seed=4)
    first = services.save_sheet(scorer_a, table, grid, expected_version=0, submit=True)
    again = services.save_sheet(scorer_a, table, grid, expected_version=0, submit=True)
    assert again.version.pk == first.version.pk and again.stored_hands == 20
    someone_else = scorer(club_a, "bernd")
    for actor, sent, submit in [
        (someone_else, grid, True),  # another user's save is a conflict
        (scorer_a, other_grid, True),  # so is a different grid
    ]:
        with pytest.raises(services.SheetConflict):
            services.save_sheet(actor, table, sent, expected_version=0, submit=submit)
    services.save_sheet(scorer_a, table, other_grid, expected_version=1, submit=True)
    with pytest.raises(services.SheetConflict):  # two versions on: not the save it repeats
        services.save_sheet(scorer_a, table, grid, expected_version=0, submit=True)
    assert Sheet.objects.get(table=table).version == 2


def test_a_resent_draft_is_the_same_save_but_not_as_an_entry(table, scorer_a):
    grid = random_grid(seed=3)
    services.save_sheet(scorer_a, table, grid, expected_version=0, submit=False)
    assert services.save_sheet(scorer_a, table, grid, expected_version=0).version.number == 1
    with pytest.raises(services.SheetConflict):  # entering it is a new save
        services.save_sheet(scorer_a, table, grid, expected_version=0, submit=True)


def test_disk_full_while_writing_a_file(scorer_client, table):
    with mock.patch(
        "scoring.sheets.services.save_sheet",
        side_effect=OSError(errno.ENOSPC, "No space left on device"),
    ):
        response = _save(scorer_client, table)
    assert "Speicherplatz des Servers ist voll" in _page(response)


def test_a_fault_in_a_middleware_gets_the_page_too(scorer_client, settings):
    # Exceptions outside the view (session, authentication) reach handler500.
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.test_faults.DiskFullMiddleware"]
    assert "Speicherplatz des Servers ist voll" in _page(scorer_client.get(reverse("home")))


def test_a_script_asking_for_json_gets_json(scorer_client):
    with failing_sql(sqlite3.OperationalError("unable to open database file"), writes_only=False):
        response = scorer_client.get(reverse("home"), HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    answer = response.json()
    assert (answer["error"], answer["fault"]) == ("service_unavailable", "database")
    assert answer["message"].startswith("Die Datenbank ist im Moment nicht erreichbar.")
    assert "bleibt auf diesem Gerät" in answer["message"]
    assert answer["message_en"].startswith("The database cannot be reached")


@pytest.mark.parametrize(
    "error, said",
    [
        ("database or disk is full", "Der Speicherplatz des Servers ist voll."),
        ("attempt to write a readonly database", "Die Datenbank ist im Moment schreibgeschützt."),
    ],
)
def test_a_phone_saving_a_hand_gets_the_fault_in_german_as_json(client, club_a, error, said):
    """The table link's JSON (static/js/table.js shows ``message``), not a 500; the same
    hand sent again once the fault is gone lands."""
    import random

    from bench.load.phones import _hand_fields
    from scoring.models import TableHand
    from scoring.sheets.table import links as table_links
    from tests.factories import user_with_role

    series, tables = make_series(club_a)
    director = user_with_role(club_a, "organiser")
    link = next(x for x in table_links.create_table_links(director, series) if x.table == tables[0])
    root = f"/t/{link.token}/"
    assert client.post(root + "seat/", {"code": link.seat_codes[0]}).status_code == 302
    hand = _hand_fields(series.event.ruleset, random.Random(3), 1, 4)
    hand["client_id"] = "fault-hand-1"
    with failing_sql(sqlite3.OperationalError(error)):
        response = client.post(root + "hand/", hand, HTTP_ACCEPT="application/json")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert response.json()["message"].startswith(said)
    assert not TableHand.objects.filter(table=tables[0]).exists()
    response = client.post(root + "hand/", hand, HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json()["created"] is True
    assert TableHand.objects.filter(table=tables[0]).count() == 1


def test_a_bug_is_still_a_500(scorer_client, table):
    with mock.patch("scoring.sheets.services.save_sheet", side_effect=ValueError("a bug")):
        response = _save(scorer_client, table)
    assert response.status_code == 500
    assert KEPT not in response.content.decode()


def test_other_os_errors_and_programming_errors_are_not_faults():
    from django.db import IntegrityError, ProgrammingError

    assert faults.classify(OSError(errno.EACCES, "denied")) is None
    assert faults.classify(IntegrityError("UNIQUE constraint failed")) is None
    assert faults.classify(ProgrammingError("syntax error")) is None
    assert faults.classify(ConnectionResetError(errno.ECONNRESET, "reset")) is None
    assert faults.classify(OSError(errno.EROFS, "read-only file system")) == faults.READ_ONLY


class DiskFullMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        self.get_response(request)
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_resent_confirmation_is_answered_as_confirmed(table, scorer_a, club_a):
    # The confirmation's answer lost to a fault after its commit: the browser sends it again.
    grid = random_grid(seed=3)
    services.save_sheet(scorer_a, table, grid, expected_version=0, submit=True)
    second = scorer(club_a, "bernd")
    first = services.confirm_sheet(second, table, grid, expected_version=1)
    again = services.confirm_sheet(second, table, grid, expected_version=1)
    assert again.pk == first.pk
    assert Sheet.objects.get(table=table).versions.count() == 2
    # Not the same confirmation: another scorer, another grid, an older page.
    for actor, sent, version in [
        (scorer(club_a, "carla"), grid, 1),
        (second, random_grid(seed=4), 1),
        (second, grid, 0),
    ]:
        with pytest.raises((ValidationError, services.SheetConflict)):
            services.confirm_sheet(actor, table, sent, expected_version=version)
    assert Sheet.objects.get(table=table).versions.count() == 2
