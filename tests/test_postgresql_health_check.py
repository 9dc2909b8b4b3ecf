"""The PostgreSQL connection's health check (romme/postgresql/base.py): no round trip for an
idle connection that is well, the real `SELECT 1` when the socket has something to say, and a
connection PostgreSQL ended found unusable, so that Django replaces it before the request's
first query (`CONN_HEALTH_CHECKS`)."""

import socket
import time

import pytest
from django.db import connection, connections
from django.db.backends.postgresql import base as django_base

from romme.postgresql.base import has_something_to_read

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def wrapper():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's connection (the SQLite pass has no round trip to save)")
    own = connections.create_connection("default")  # a connection of its own, in autocommit
    own.ensure_connection()
    yield own
    own.close()


@pytest.fixture
def real_checks(monkeypatch):
    """How often Django's own check (the `SELECT 1`) ran."""
    calls = []
    usable = django_base.DatabaseWrapper.is_usable
    monkeypatch.setattr(
        django_base.DatabaseWrapper, "is_usable", lambda self: calls.append(1) or usable(self)
    )
    return calls


def test_the_settings_use_the_backend():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's settings")
    assert connection.settings_dict["ENGINE"] == "romme.postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True


def test_an_idle_connection_that_is_well_costs_no_round_trip(wrapper, real_checks):
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT 42")
        assert cursor.fetchone() == (42,)
    assert wrapper.is_usable() is True
    assert real_checks == []


def test_inside_a_transaction_the_server_is_asked(wrapper, real_checks):
    with wrapper.cursor() as cursor:
        cursor.execute("BEGIN")
        cursor.execute("SELECT 1")
        assert wrapper.is_usable() is True
        cursor.execute("ROLLBACK")
    assert real_checks == [1]


def _ended_by_the_server(victim) -> None:
    pid = victim.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone() == (True,)
    deadline = time.monotonic() + 10
    while not has_something_to_read(victim.connection.fileno()):
        assert time.monotonic() < deadline, "the ended connection's socket never became readable"
        time.sleep(0.01)


def test_a_connection_the_server_ended_is_found_and_replaced(wrapper, real_checks):
    _ended_by_the_server(wrapper)
    assert wrapper.is_usable() is False
    assert real_checks == [1]  # the socket had something to say: the server was asked
    # As Django does before a request's first query: the check fails, a new connection answers.
    wrapper.health_check_enabled, wrapper.health_check_done = True, False
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT 7")
        assert cursor.fetchone() == (7,)


def test_a_quiet_socket_is_not_readable_and_a_closed_one_is():
    left, right = socket.socketpair()
    try:
        assert has_something_to_read(left.fileno()) is False
        right.sendall(b"E")
        assert has_something_to_read(left.fileno()) is True
        left.recv(1)
        right.close()
        assert has_something_to_read(left.fileno()) is True  # the end of the stream
    finally:
        left.close()
