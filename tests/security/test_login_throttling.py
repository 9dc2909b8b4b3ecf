"""Brute force: a few wrong passwords lock the user name and the address, with a German
message and a growing wait; success or an admin lifts the lock."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from axes.utils import reset
from django.contrib.auth import get_user_model
from django.urls import reverse

LIMIT = 5


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("anna", password="richtig-geheim-42")


@pytest.fixture
def admin_user(db):
    return get_user_model().objects.create_superuser("chef", password="richtig-geheim-42")


def attempt(client, username, password, *, ip="10.0.0.1", url=None):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=ip,
        HTTP_ACCEPT_LANGUAGE="de",
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def fail(client, username, times, **kw):
    for _ in range(times):
        response = attempt(client, username, "falsch", **kw)
    return response


def test_right_password_after_many_wrong_ones_is_refused(client, user):
    fail(client, "anna", 30)
    response = attempt(client, "anna", "richtig-geheim-42")
    assert response.status_code == 429
    assert not logged_in(client)
    page = response.content.decode()
    assert "Zu viele fehlgeschlagene Anmeldeversuche" in page
    assert "5 Minuten gesperrt" in page


def test_fewer_failures_than_the_limit_do_not_lock(client, user):
    fail(client, "anna", LIMIT - 1)
    response = attempt(client, "anna", "richtig-geheim-42")
    assert response.status_code == 302
    assert logged_in(client)


def test_success_resets_the_count(client, user):
    fail(client, "anna", LIMIT - 1)
    attempt(client, "anna", "richtig-geheim-42")
    client.logout()
    fail(client, "anna", LIMIT - 1)
    assert attempt(client, "anna", "richtig-geheim-42").status_code == 302


def test_username_is_locked_from_any_address(client, user):
    for i in range(LIMIT):
        attempt(client, "anna", "falsch", ip=f"10.0.1.{i}")
    assert attempt(client, "anna", "richtig-geheim-42", ip="10.9.9.9").status_code == 429


def test_address_is_locked_for_any_username(client, user):
    for i in range(LIMIT):
        attempt(client, f"someone{i}", "falsch", ip="10.0.2.1")
    assert attempt(client, "anna", "richtig-geheim-42", ip="10.0.2.1").status_code == 429
    # Another address is not affected.
    assert attempt(client, "anna", "richtig-geheim-42", ip="10.0.2.2").status_code == 302


def test_admin_login_is_throttled_too(client, admin_user):
    url = reverse("admin:login")
    fail(client, "chef", LIMIT, url=url)
    response = attempt(client, "chef", "richtig-geheim-42", url=url)
    assert response.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldeversuche" in response.content.decode()
    assert not logged_in(client)


def test_an_admin_can_lift_the_lock(client, user):
    fail(client, "anna", LIMIT)
    assert attempt(client, "anna", "richtig-geheim-42").status_code == 429
    reset(username="anna")
    reset(ip="10.0.0.1")
    assert attempt(client, "anna", "richtig-geheim-42").status_code == 302


def test_the_wait_grows_with_each_lockout(client, user):
    fail(client, "anna", LIMIT)
    assert "5 Minuten" in attempt(client, "anna", "x").content.decode()
    # The first lockout has run out ...
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=6)
    )
    assert attempt(client, "anna", "richtig-geheim-42").status_code == 302
    client.logout()
    # ... a second round of failures the same day locks for twice as long.
    fail(client, "anna", LIMIT)
    assert "10 Minuten" in attempt(client, "anna", "x").content.decode()


def test_forwarded_for_is_only_trusted_behind_a_configured_proxy(client, user, settings):
    # Without a trusted proxy, a forged header does not give a fresh address.
    for i in range(LIMIT):
        client.post(
            reverse("login"),
            {"username": f"x{i}", "password": "falsch"},
            REMOTE_ADDR="10.0.3.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{i}",
        )
    assert attempt(client, "anna", "richtig-geheim-42", ip="10.0.3.1").status_code == 429
    settings.TRUSTED_PROXY_COUNT = 1
    response = client.post(
        reverse("login"),
        {"username": "anna", "password": "richtig-geheim-42"},
        REMOTE_ADDR="10.0.3.1",
        HTTP_X_FORWARDED_FOR="192.0.2.77",
    )
    assert response.status_code == 302


def test_admin_sees_and_can_delete_the_attempts(client, user, admin_user):
    fail(client, "anna", LIMIT)
    assert AccessAttempt.objects.filter(username="anna").exists()
    client.force_login(admin_user)
    page = client.get(reverse("admin:axes_accessattempt_changelist"))
    assert page.status_code == 200 and "anna" in page.content.decode()
