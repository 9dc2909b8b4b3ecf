"""Project-level promises: settings from the environment, demo data, pages render."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from clubs.models import Club, ClubRole, Membership, Player

ROOT = Path(__file__).resolve().parent.parent


def test_deploy_check_is_clean_with_production_values():
    dropped = {"DEBUG", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in dropped} | {
        "DEBUG": "0",
        "SECRET_KEY": "x" * 20 + "a-real-looking-production-secret-key-1234567890",
        "ALLOWED_HOSTS": "romme.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    env["DEBUG"] = "0"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


@pytest.mark.django_db
def test_seed_demo_twice_changes_nothing(capsys):
    call_command("seed_demo")
    counts = (
        Club.objects.count(),
        Player.objects.count(),
        Membership.objects.count(),
        ClubRole.objects.count(),
    )
    # the registry's 2 clubs and 40 players, and the demo league's 2 clubs of 8 players
    assert counts[0] == 4 and counts[1] == 56 and counts[3] == 3
    from scoring.models import Sheet
    from tournaments.models import Event

    tournament = Event.objects.get(name="Kasseler Rommé-Open 2026")
    assert tournament.series.count() == 3
    assert set(
        Sheet.objects.filter(table__series__event=tournament).values_list("status", flat=True)
    ) == {"confirmed"}
    evening = Event.objects.get(kind="club_evening")
    assert set(
        Sheet.objects.filter(table__series__event=evening, table__series__number=2).values_list(
            "status", flat=True
        )
    ) == {"entered", "draft"}
    sheets = Sheet.objects.count()
    assert Membership.objects.filter(valid_until__isnull=False).exists()
    call_command("seed_demo")
    assert sheets == Sheet.objects.count()
    assert counts == (
        Club.objects.count(),
        Player.objects.count(),
        Membership.objects.count(),
        ClubRole.objects.count(),
    )
    out = capsys.readouterr().out
    assert "organiser" in out and "organiser-demo" in out


@pytest.mark.django_db
def test_every_registry_page_renders_for_an_organiser(client):
    call_command("seed_demo")
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="organiser"))
    club = Club.objects.get(short_name="HD Kassel")
    player = Player.objects.filter(memberships__club=club).first()
    for url in [
        reverse("home"),
        reverse("about"),
        reverse("clubs:club_list"),
        club.get_absolute_url(),
        reverse("clubs:club_edit", args=[club.pk]),
        reverse("clubs:club_users", args=[club.pk]),
        reverse("clubs:import_upload", args=[club.pk]),
        reverse("clubs:player_create", args=[club.pk]),
        reverse("clubs:player_list") + "?name=a&club=" + str(club.pk) + "&sort=-birth_year",
        player.get_absolute_url(),
        reverse("clubs:player_edit", args=[player.pk]),
    ]:
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_admin_registers_every_model_with_search(admin_client):
    from django.apps import apps
    from django.contrib import admin

    for app in ("clubs", "tournaments", "scoring", "prizes", "live", "hall"):
        for model in apps.get_app_config(app).get_models():
            if model.__name__.startswith("Historical"):
                continue
            assert model in admin.site._registry, model
            model_admin = admin.site._registry[model]
            assert model_admin.search_fields, model
            url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
            assert admin_client.get(url + "?q=a").status_code == 200, url


def test_the_slow_first_list_names_test_files_that_exist():
    """`make test` starts these files first (tests/conftest.py); a renamed file would drop
    out of the list silently and end up last again."""
    from pathlib import Path

    from tests.conftest import SLOW_FIRST

    root = Path(__file__).resolve().parent.parent
    missing = [path for path in SLOW_FIRST if not (root / path).is_file()]
    assert missing == []
    assert len(set(SLOW_FIRST)) == len(SLOW_FIRST)
