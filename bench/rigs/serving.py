"""The server side the load benches share: a browser-like client, gunicorn with production
settings on 127.0.0.1, waiting for a server, a gunicorn master's workers (bench.load,
bench.load.phones, bench.load.readers, bench.load.scorers, bench.faults); the hall mode started and
stopped as a director does (bench.load.hall, tests.hall_smoke)."""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "load-test-password-1"


class _Route(urllib.request.HTTPHandler):
    """Sends every request with another Host header and/or from another local address: the
    hall's phones name the hall's address (HALL_URL) and come from a loopback alias
    (HALL_OTHER_DEVICES) while the connection goes to 127.0.0.1."""

    def __init__(self, host: str | None, source: str | None):
        super().__init__()
        self.host, self.source = host, source

    def http_request(self, request):
        if self.host:
            request.add_unredirected_header("Host", self.host)
        return super().http_request(request)

    def http_open(self, request):
        source = (self.source, 0) if self.source else None
        return self.do_open(partial(http.client.HTTPConnection, source_address=source), request)


class Client:
    """One browser: a cookie jar, CSRF handling, no redirects followed. ``host`` is the Host
    header to send (default: the one of ``base``), ``source`` the local address to send from."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base: str, *, host: str | None = None, source: str | None = None):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), self._NoRedirect, _Route(host, source)
        )
        self.headers = None  # the last answer's headers

    def fetch(self, path: str, body=None, headers=None, timeout=30) -> tuple[int, bytes]:
        """One request as it is; (status, body bytes). The answer's headers in ``headers``."""
        req = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        try:
            with self.opener.open(req, timeout=timeout) as response:
                self.headers = response.headers
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            self.headers = error.headers
            return error.code, error.read()

    def request(self, path: str, data: dict | None = None) -> tuple[int, str]:
        body = None
        headers = {"Accept-Language": "en"}
        if data is not None:
            token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            data = {**data, "csrfmiddlewaretoken": token}
            body = urllib.parse.urlencode(data).encode()
            headers["Referer"] = self.base + path
        status, content = self.fetch(path, body, headers)
        return status, content.decode(errors="replace")

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
    newer than static/ and requirements.txt: it takes 5-12 s on this machine. One process at
    a time: two test modules on two xdist workers collecting into the same folder at once
    pulled each other's files away mid-compression (FileNotFoundError in whitenoise)."""
    from filelock import FileLock

    root = Path(env.get("STATIC_ROOT") or ROOT / "staticfiles")
    manifest = root / "staticfiles.json"
    sources = [p for p in (ROOT / "static").rglob("*") if p.is_file()]
    sources.append(ROOT / "requirements.txt")
    lock = ROOT / "bench" / "out" / "collectstatic.lock"  # (bench/out: ignored by git)
    lock.parent.mkdir(exist_ok=True)
    with FileLock(str(lock), timeout=300):
        newest = max(p.stat().st_mtime for p in sources)
        if manifest.exists() and manifest.stat().st_mtime > newest:
            return  # (collected already, perhaps by the process this one waited for)
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip


def wait_until_up(
    process: subprocess.Popen, port: int, seconds: float = 20.0, host: str = "127.0.0.1"
):
    """Wait until the server on ``host``:``port`` answers the login page (``seconds`` at
    most; the hall mode collects its static files first). Any HTTP answer counts: in the
    hall, a request from an address HALL_OTHER_DEVICES names is a phone's, answered 403."""
    base = f"http://{host}:{port}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited ({process.returncode})")
        try:
            urllib.request.urlopen(base + "/login/", timeout=1)
            return process
        except urllib.error.HTTPError:
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


def hall_command(folder: Path, port: int, listen: str = "127.0.0.1") -> list[str]:
    """The hall mode on ``folder``, listening on ``listen``, a loopback address (never on
    the LAN)."""
    if not listen.startswith("127."):
        raise ValueError(f"the hall of a bench or test listens on loopback only, not {listen}")
    return [sys.executable, "-m", "romme.hall", "--data", str(folder), "--port", str(port),
            "--listen", listen, "--no-browser"]  # fmt: skip


def start_hall(folder: Path, port: int, hall_url: str, others: str = "", *, backups=True,
               threads=0, log=None, env=None, listen="127.0.0.1") -> subprocess.Popen:  # fmt: skip
    """`python -m romme.hall` on ``listen`` only (127.0.0.1; a loopback address, never the
    LAN), as a director starts it, with the phones' address ``hall_url`` (HALL_URL) and
    ``others`` (HALL_OTHER_DEVICES: loopback aliases that count as phones); its output to
    ``log``, ``env`` added to its environment. Stop it with ``stop_hall``."""
    env = {**os.environ, "HALL_URL": hall_url, "HALL_OTHER_DEVICES": others, "CI": "true",
           **(env or {})}  # fmt: skip
    for name in ("HALL_MODE", "ROMME_DATA", "HALL_BACKUPS", "DEBUG", "DATABASE_URL"):
        env.pop(name, None)
    if not backups:
        env["HALL_BACKUPS"] = "0"
    command = hall_command(folder, port, listen)
    if threads:
        command += ["--threads", str(threads)]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
    )
    try:
        # The hall migrates and collects its static files first (10-15 s on 2 cores).
        return wait_until_up(process, port, seconds=180, host=listen)
    except RuntimeError:
        stop_hall(process)
        raise


def hall_cpu(process: subprocess.Popen) -> dict[tuple[str, int], float]:
    """User + system CPU seconds of the hall and of each child (task worker, backup loop,
    a child of theirs), by (role, process id): a child started again is another key."""
    import psutil

    hall = psutil.Process(process.pid)
    spent = {}
    for member in [hall, *hall.children(recursive=True)]:
        try:
            line = " ".join(member.cmdline())
            times = member.cpu_times()
        except psutil.Error:
            continue
        role = next((n for n in ("worker", "live", "backups") if f"--child {n}" in line), "hall")
        spent[role, member.pid] = times.user + times.system
    return spent


def stop_hall(process: subprocess.Popen) -> int:
    """Ctrl+C, as the director ends it; its children end when their pipe closes. Returns how
    many children were still there after 15 s (they are killed then)."""
    import psutil

    try:
        children = psutil.Process(process.pid).children(recursive=True)
    except psutil.Error:
        children = []
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    _gone, alive = psutil.wait_procs(children, timeout=15)
    for child in alive:  # started by this bench through the hall: never left behind
        child.kill()
    return len(alive)


SERVER_ERROR = r"Traceback|Internal Server Error"


def log_errors(paths) -> list[str]:
    """A line per log that holds a traceback or a server error (a 500), with its first one."""
    found = []
    for path in paths:
        text = path.read_text(errors="replace") if path.exists() else ""
        bad = [line for line in text.splitlines() if re.search(SERVER_ERROR, line)]
        if bad:
            found.append(f"{path.name}: {len(bad)} errors, first: {bad[0][:300]}")
    return found
