"""The production recipe of the README: `check --deploy` is clean with deploy/romme.env."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


def _env_file() -> dict[str, str]:
    values = {}
    for line in (DEPLOY / "romme.env.example").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key] = value
    return values


def test_the_example_environment_passes_the_deploy_check(tmp_path):
    values = _env_file()
    assert values["DEBUG"] == "0"
    assert values["DATABASE_URL"].startswith("postgres")
    assert values["CACHE_URL"].startswith("redis://")
    values["STATIC_ROOT"] = str(tmp_path / "static")
    dropped = {"DEBUG", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}
    env = {k: v for k, v in os.environ.items() if k not in dropped} | values
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


def test_the_settings_read_the_example_environment(tmp_path):
    values = _env_file() | {"STATIC_ROOT": str(tmp_path / "static")}
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"} | values
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'romme.settings');"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DEBUG, s.CACHES['default']['BACKEND'], s.STATIC_ROOT,"
        " s.DATABASES['default']['NAME'], s.STORAGES['staticfiles']['BACKEND'],"
        " s.TASKS['default']['BACKEND'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    debug, cache, static_root, database, storage, tasks = result.stdout.split()
    assert debug == "False"
    assert cache == "romme.cache.SharedClientRedisCache"  # Django's RedisCache, one client per pool
    assert static_root == str(tmp_path / "static")
    assert database == "romme"
    assert storage == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert tasks == "django_tasks_db.DatabaseBackend"


def test_the_unit_runs_what_the_readme_says():
    unit = (DEPLOY / "romme.service").read_text(encoding="utf-8")
    assert "EnvironmentFile=/etc/romme/romme.env" in unit
    assert "manage.py migrate --noinput" in unit and "collectstatic --noinput" in unit
    assert "gunicorn romme.wsgi --bind 127.0.0.1:8000" in unit
    nginx = (DEPLOY / "nginx-romme.conf").read_text(encoding="utf-8")
    assert "proxy_pass http://127.0.0.1:8000;" in nginx
    assert "X-Forwarded-Proto $scheme" in nginx  # SECURE_PROXY_SSL_HEADER relies on it
    backup = (DEPLOY / "romme-backup").read_text(encoding="utf-8")
    assert "pg_dump" in backup and "export_event" in backup


def test_the_worker_unit_runs_the_database_worker():
    unit = (DEPLOY / "romme-worker.service").read_text(encoding="utf-8")
    assert "EnvironmentFile=/etc/romme/romme.env" in unit
    assert "manage.py db_worker" in unit and "--no-reload" in unit
    assert "Restart=always" in unit


def test_gunicorn_started_in_the_checkout_opens_no_control_socket():
    # Two gunicorns on one server (romme.service and romme-readers.service) would share the
    # per-user default socket: the second takes it over, or fails to bind it at the same moment.
    gunicorn = Path(sys.executable).with_name("gunicorn")
    result = subprocess.run(
        [str(gunicorn), "--print-config", "romme.wsgi"],  # loads the app: settings need DEBUG
        cwd=ROOT, env=os.environ | {"DEBUG": "1"}, capture_output=True, text=True, timeout=60,
        check=True,
    )  # fmt: skip
    settings = {
        name.strip(): value.strip()
        for name, _, value in (line.partition("=") for line in result.stdout.splitlines())
    }
    assert settings["config"] == "./gunicorn.conf.py"
    assert settings["control_socket_disable"] == "True"
