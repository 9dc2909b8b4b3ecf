"""Shared fixtures. Django imports stay inside them so tests/rules can run without Django."""

from collections import Counter

import pytest

# The hall mode's fake network and settings (tests/hall/fakes.py), for every test folder.
pytest_plugins = ["tests.hall.fakes"]

# The files that take longest, slowest first: the first five as measured in CI (session 17),
# then others that start processes of their own. `make test` hands whole files to its
# workers in collection order (--no-loadscope-reorder): these start first, so none of them
# holds up the end of the run. The other files follow, most tests first (xdist's own order).
SLOW_FIRST = (
    "tests/hall/test_power_cut.py",
    "tests/live/test_two_servers.py",
    "tests/federation/submissions/test_submit_command.py",
    "tests/browser/test_hall_phone_clock.py",
    "tests/hall/test_hall_process.py",
    "tests/hall/test_upgrade.py",
    "tests/live/laptop/test_hall_children.py",
    "tests/live/laptop/test_worker_sync.py",
    "tests/packaging/test_cli.py",
    "tests/packaging/test_doctor.py",
    "tests/exports/test_pdf_worker_orphans.py",
)


# Test files whose code never reaches the configured database: the hall's own SQLite data
# folders in processes of their own (DATABASE_URL taken out of their environment), the
# package's files, the pure rules engine. CI's PostgreSQL pass leaves them out (`make test
# TEST_ARGS='-m "not same_on_every_database"'`): they ran in the SQLite pass, the same test.
SAME_ON_EVERY_DATABASE = (
    "tests/rules/",
    "tests/hall/test_hall_process.py",
    "tests/hall/test_power_cut.py",
    "tests/hall/test_upgrade.py",
    "tests/hall/test_faults_wal.py",
    "tests/browser/test_hall_phone_clock.py",
    "tests/packaging/test_cli.py",
    "tests/packaging/test_wheel.py",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(SAME_ON_EVERY_DATABASE):
            item.add_marker(pytest.mark.same_on_every_database)
    file_of = {id(item): item.nodeid.split("::", 1)[0] for item in items}
    tests = Counter(file_of.values())
    rank = {path: n for n, path in enumerate(SLOW_FIRST)}

    def order(item):
        path = file_of[id(item)]
        return (rank.get(path, len(rank)), -tests[path], path)

    items.sort(key=order)  # stable: a file's own tests keep their order


@pytest.fixture(autouse=True)
def _environment_kept():
    """The command line and the doctor set the hall's variables (HALL_MODE, ROMME_DATA,
    SECRET_KEY, …) for their own process; run inside a test they must not reach the next
    one (the deploy and settings tests read the environment)."""
    import os

    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def _pdf_workers_of_this_test():
    """Spawned PDF workers are kept for the next print, with the settings of the test that
    started them; each test's prints get their own."""
    yield
    from scoring.exports.formats import pdf_parts

    if pdf_parts._kept:
        pdf_parts.forget_kept_pools()


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in German, the users' language: a request or a test that switched the
    thread's language (the footer's switcher, an English page) must not carry it into the next
    test, whose messages would then be English (an order-dependent failure)."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def club_a(db):
    from tests.factories import ClubFactory

    return ClubFactory(name="Herz Dame Kassel", short_name="HDK")


@pytest.fixture
def club_b(db):
    from tests.factories import ClubFactory

    return ClubFactory(name="Kreuz Bube Fulda", short_name="KBF")


def _with_role(club, role, username):
    from tests.factories import user_with_role

    return user_with_role(club, role, username=username)


@pytest.fixture
def organiser_a(club_a):
    return _with_role(club_a, "organiser", "org_a")


@pytest.fixture
def scorer_a(club_a):
    return _with_role(club_a, "scorer", "scorer_a")


@pytest.fixture
def viewer_a(club_a):
    return _with_role(club_a, "viewer", "viewer_a")


@pytest.fixture
def superuser(db):
    from tests.factories import UserFactory

    return UserFactory(username="root", is_superuser=True, is_staff=True)


@pytest.fixture
def member_a(club_a):
    from tests.factories import MembershipFactory

    return MembershipFactory(club=club_a).player


@pytest.fixture
def member_b(club_b):
    from tests.factories import MembershipFactory

    return MembershipFactory(club=club_b).player


@pytest.fixture
def client():
    """Pages in English unless a test asks for another language (German is the default)."""
    from django.test import Client

    return Client(HTTP_ACCEPT_LANGUAGE="en")
