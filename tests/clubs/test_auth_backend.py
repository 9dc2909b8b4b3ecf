"""The authentication backend reads a signed-in user's club roles with the user: one query
for both, so that a page's role checks cost no round trip of their own (issue 38)."""

import importlib

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.auth import PATH, ClubRoleBackend
from clubs.models import ClubRole
from clubs.permissions import SCORER, has_role, role_in
from tests.factories import ClubFactory, EventFactory, UserFactory

pytestmark = pytest.mark.django_db

rewrite = importlib.import_module("clubs.migrations.0005_sessions_club_role_backend")


def test_the_backend_is_the_one_that_signs_in():
    assert PATH in settings.AUTHENTICATION_BACKENDS
    assert "django.contrib.auth.backends.ModelBackend" not in settings.AUTHENTICATION_BACKENDS


def test_user_and_every_role_in_one_query(django_assert_num_queries):
    user = UserFactory()
    home, other, none = ClubFactory(), ClubFactory(), ClubFactory()
    ClubRole.objects.create(user=user, club=home, role=ClubRole.Role.ORGANISER)
    ClubRole.objects.create(user=user, club=other, role=ClubRole.Role.VIEWER)
    with django_assert_num_queries(1):
        loaded = ClubRoleBackend().get_user(user.pk)
        assert loaded == user
        assert role_in(loaded, home) == ClubRole.Role.ORGANISER
        assert role_in(loaded, other.pk) == ClubRole.Role.VIEWER
        assert role_in(loaded, none) is None
        assert has_role(loaded, home, SCORER)
        assert not has_role(loaded, other, SCORER)


def test_a_user_without_roles_has_none_and_asks_no_more(django_assert_num_queries):
    user = UserFactory()
    club = ClubFactory()
    with django_assert_num_queries(1):
        loaded = ClubRoleBackend().get_user(user.pk)
        assert loaded == user
        assert role_in(loaded, club) is None


def test_unknown_or_inactive_users_are_nobody():
    assert ClubRoleBackend().get_user(987654) is None
    assert ClubRoleBackend().get_user(UserFactory(is_active=False).pk) is None


def test_a_page_asks_the_roles_in_the_users_query(client):
    event = EventFactory()
    user = UserFactory()
    ClubRole.objects.create(user=user, club=event.club, role=ClubRole.Role.ORGANISER)
    client.force_login(user)
    assert client.session[BACKEND_SESSION_KEY] == PATH
    with CaptureQueriesContext(connection) as queries:
        # The director's JSON asks is_director and sees_unpublished.
        response = client.get(reverse("standings:api", args=[event.pk]) + "?provisional=1")
    assert response.status_code == 200
    sqls = [q["sql"] for q in queries]
    assert sum('FROM "auth_user" LEFT OUTER JOIN "clubs_clubrole"' in sql for sql in sqls) == 1
    assert not any(sql.startswith('SELECT "clubs_clubrole"') for sql in sqls)


def _session_with(backend: str, user) -> str:
    store = SessionStore()
    store.update(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )
    store.create()
    return store.session_key


def test_the_upgrade_keeps_signed_in_sessions_signed_in(client):
    user = UserFactory()
    key = _session_with("django.contrib.auth.backends.ModelBackend", user)
    other = _session_with("somewhere.else.Backend", user)
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    # Before the rewrite Django no longer knows the stored backend: signed out.
    assert client.get(reverse("home")).wsgi_request.user.is_anonymous

    rewrite.forwards(apps, None)
    assert SessionStore(session_key=key).load()[BACKEND_SESSION_KEY] == PATH
    assert SessionStore(session_key=other).load()[BACKEND_SESSION_KEY] == "somewhere.else.Backend"
    assert client.get(reverse("home")).wsgi_request.user == user

    rewrite.backwards(apps, None)
    assert SessionStore(session_key=key).load()[BACKEND_SESSION_KEY] == (
        "django.contrib.auth.backends.ModelBackend"
    )
