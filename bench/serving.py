"""The server side the load benches share: a browser-like client, gunicorn with production
settings on 127.0.0.1, waiting for a server, a gunicorn master's workers (bench.load,
bench.phone_load, bench.readers, bench.scorers, bench.faults)."""

from __future__ import annotations

import http.cookiejar
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "load-test-password-1"


class Client:
    """One browser: a cookie jar, CSRF handling, no redirects followed."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), self._NoRedirect
        )
        self.headers = None  # the last answer's headers

    def request(self, path: str, data: dict | None = None) -> tuple[int, str]:
        body = None
        headers = {"Accept-Language": "en"}
        if data is not None:
            token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            data = {**data, "csrfmiddlewaretoken": token}
            body = urllib.parse.urlencode(data).encode()
            headers["Referer"] = self.base + path
        req = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(req, timeout=30) as response:
                self.headers = response.headers
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            self.headers = error.headers
            return error.code, error.read().decode(errors="replace")

    def login(self, username: str) -> None:
        self.request("/login/")
        status, _ = self.request("/login/", {"username": username, "password": PASSWORD})
        if status != 302:
            raise RuntimeError(f"login of {username} failed: {status}")


def start_gunicorn(db_url: str, port: int, workers: int, log=None) -> subprocess.Popen:
    """gunicorn with production settings on 127.0.0.1; its output to ``log`` (a file) if given."""
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DEBUG": "0",
        "SECRET_KEY": "load-test-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
    }
    collect_static(env)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "romme.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--timeout", "30", "--graceful-timeout", "5", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=log,
    )  # fmt: skip
    return wait_until_up(process, port)


def collect_static(env: dict) -> None:
    """`collectstatic` (the manifest production serves from), unless the collected files are
    newer than static/ and requirements.txt: it takes 5-12 s on this machine."""
    manifest = Path(env.get("STATIC_ROOT") or ROOT / "staticfiles") / "staticfiles.json"
    sources = [p for p in (ROOT / "static").rglob("*") if p.is_file()]
    sources.append(ROOT / "requirements.txt")
    if manifest.exists() and manifest.stat().st_mtime > max(p.stat().st_mtime for p in sources):
        return
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip


def wait_until_up(process: subprocess.Popen, port: int) -> subprocess.Popen:
    """Wait until the server on 127.0.0.1:``port`` answers the login page (20 s at most)."""
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/login/", timeout=1)
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"the server on port {port} did not start")


def worker_pids(pid: int) -> list[str]:
    """The process ids of a gunicorn master's workers."""
    return subprocess.run(
        ["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False
    ).stdout.split()
