"""Every page carries a strict Content-Security-Policy and the other protective headers,
and no page relies on what that policy forbids (inline script, handlers, style attributes)."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ATTR = re.compile(r"<[^>]+\sstyle\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style([^>]*)>", re.I)


def directives(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {
        part.split()[0]: " ".join(part.split()[1:])
        for part in (p.strip() for p in header.split(";"))
        if part
    }


def assert_protected(response):
    policy = directives(response)
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]
    body = response.content.decode()
    assert not INLINE_SCRIPT.search(body), INLINE_SCRIPT.search(body).group()
    assert not HANDLER.search(body), HANDLER.search(body).group()
    assert not STYLE_ATTR.search(body), STYLE_ATTR.search(body).group()
    nonce = re.search(r"'nonce-([^']+)'", policy.get("style-src", ""))
    for attrs in STYLE_ELEMENT.findall(body):
        assert nonce and f'nonce="{nonce.group(1)}"' in attrs, attrs


def pages(series):
    event = series.event
    return [
        reverse("home"),
        reverse("login"),
        reverse("scoring:sheet_entry", args=[series.pk, 1]),
        reverse("tournaments:seating", args=[series.pk]),
        reverse("exports:menu", args=["series", series.pk]),
        reverse("exports:export", args=["series", series.pk, "score-sheets", "html"]),
        reverse("exports:export", args=["series", series.pk, "seating", "html"]),
        reverse("exports:export", args=["event", event.pk, "standings", "html"]),
        reverse("standings:display", args=[event.pk]),
        reverse("standings:event", args=[event.pk]),
        reverse("tournaments:event_detail", args=[event.pk]),
        reverse("clubs:player_list"),
        reverse("clubs:import_upload", args=[event.club_id]),
    ]


def test_pages_carry_the_policy(client, seated_series, organiser_a):
    client.force_login(organiser_a)
    for url in pages(seated_series):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_protected(response)


def test_job_page_carries_the_policy(client, seated_series, organiser_a):
    client.force_login(organiser_a)
    url = reverse("exports:job_start", args=["series", seated_series.pk, "seating", "xlsx"])
    response = client.post(url, follow=True)
    assert response.status_code == 200
    assert "/exports/jobs/" in response.redirect_chain[-1][0]
    assert_protected(response)


def test_admin_and_error_pages_carry_the_policy(client):
    assert_protected(client.get(reverse("admin:login")))
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    assert_protected(missing)


def test_no_nonce_is_issued_without_a_style_element(client):
    first = client.get(reverse("login"))["Content-Security-Policy"]
    assert "nonce" not in first


def test_nonce_is_new_on_every_request(client, seated_series, organiser_a):
    client.force_login(organiser_a)
    url = reverse("exports:export", args=["series", seated_series.pk, "score-sheets", "html"])
    nonces = {re.search(r"'nonce-([^']+)'", client.get(url)["Content-Security-Policy"])[1]}
    nonces.add(re.search(r"'nonce-([^']+)'", client.get(url)["Content-Security-Policy"])[1])
    assert len(nonces) == 2


@pytest.mark.parametrize(
    ("env", "enforced"),
    [
        ({"DEBUG": "0", "SECRET_KEY": "x" * 50}, True),
        ({"DEBUG": "1"}, False),
        ({"DEBUG": "1", "CSP_ENFORCE": "1"}, True),
    ],
)
def test_the_server_enforces_the_policy_and_the_laptop_reports_it(env, enforced):
    """DEBUG=0 enforces the CSP; `make run` (DEBUG=1) sends it report-only, so accessibility
    checkers can inject their scripts while pages are reviewed."""
    import os
    import subprocess
    import sys

    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.CONTENT_SECURITY_POLICY is not None, "
        "getattr(settings, 'CONTENT_SECURITY_POLICY_REPORT_ONLY', None) is not None)"
    )
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "romme.settings", **env}
    if "CSP_ENFORCE" not in env:
        environ.pop("CSP_ENFORCE", None)
    out = subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(enforced), str(not enforced)]
