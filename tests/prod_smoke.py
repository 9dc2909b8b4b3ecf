"""Production smoke: the app as `make serve-prod` runs it, asked for every page and export.

    .venv/bin/python -m tests.prod_smoke [--database postgres://…/romme_smoke]
                                         [--cache redis://127.0.0.1:6379/9] [--port 0]

A fresh PostgreSQL database (dropped and created), migrated, with the demo data
(`seed_demo`); `collectstatic` into a temporary STATIC_ROOT; two gunicorn "app servers"
(two ports, as behind a load balancer) with DEBUG=0, a throw-away SECRET_KEY and the Redis
cache, and one task worker (`manage.py db_worker`). Then, for every demo role and for a visitor
without login, it crawls the pages linked from the home page (same site, GET only, bounded)
and asserts every answer is 200, 302, 403 or 404, never a 500. As the organiser it fetches
every export of the demo events (XLSX, PDF, print page), checks each PDF for what
print.css gives it (DejaVu Sans embedded, "Seite n von N" in the footer), reads the JSON
API, and writes the event archive with `manage.py export_event`. The long exports go
through the job path: started on the first server, rendered by the worker, polled and
downloaded on the second. Exit status 1 on any failure; the logs of gunicorn and the worker
are checked for tracebacks too.

Not collected by pytest (no test_ prefix): CI runs it after the PostgreSQL tests.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.cookiejar
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from tests.pdf_checks import print_style_problems

ROOT = Path(__file__).resolve().parent.parent
# --installed: the app of an installed wheel (`romme-ledger manage …`, gunicorn beside this
# Python), run from a folder outside any source tree (.ci/run, issue 36).
INSTALLED = {"on": False}
ROLES = [("admin", "admin-demo"), ("organiser", "organiser-demo"), ("scorer", "scorer-demo"),
         ("viewer", "viewer-demo")]  # fmt: skip
ALLOWED = {200, 302, 403, 404}
MAX_PAGES_PER_ROLE = 300
# At most this many URLs of one shape (/players/N/, /events/N/?sort=…) per role.
PER_SHAPE = 3
# Never followed by the crawl: side effects or endless lists.
SKIP = re.compile(r"^/(logout|i18n|static)/|/history/|[?&]page=\d{2,}|[?&](sort|page)=.*&")
EXPORT = re.compile(r"^/exports/(club|event|series)/\d+/[\w-]+\.(xlsx|pdf|html)$")


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.jobs: list[str] = []  # the export menu's forms that start a long export

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])
        if tag == "form" and "data-export-job" in attrs and attrs.get("action"):
            self.jobs.append(attrs["action"])


class Browser:
    """One user: a cookie jar, no redirects followed, German preferred."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base: str, jar: http.cookiejar.CookieJar | None = None):
        self.base = base
        # Cookies ignore the port: a shared jar is one session on both app servers.
        self.jar = jar if jar is not None else http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), self._NoRedirect
        )

    def get(self, path: str, **headers) -> tuple[int, str, bytes]:
        return self._open(path, None, headers)

    def post(self, path: str, data: dict, **headers) -> tuple[int, str, bytes]:
        token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        return self._open(path, body, {"Referer": self.base + path, **headers})

    def _open(self, path, body, headers):
        headers = {"Accept-Language": "de", **headers}
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=120) as response:
                return response.status, response.headers.get("Content-Type", ""), response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type", ""), error.read()

    def login(self, username: str, password: str) -> None:
        self.get("/login/")
        status, _, _ = self.post("/login/", {"username": username, "password": password})
        if status != 302:
            raise SystemExit(f"login of {username} failed: HTTP {status}")


class Smoke:
    def __init__(self, base: str, other_base: str = ""):
        self.base = base
        self.other_base = other_base or base  # the second app server
        self.failures: list[str] = []
        self.statuses: Counter = Counter()
        self.export_urls: set[str] = set()
        self.job_urls: set[str] = set()
        self.event_ids: set[int] = set()

    def check(self, who: str, path: str, status: int) -> None:
        self.statuses[status] += 1
        if status not in ALLOWED:
            self.failures.append(f"{who}: GET {path} -> {status}")

    def crawl(self, browser: Browser, who: str, starts: list[str]) -> int:
        queue, seen = list(starts), set(starts)
        shapes: Counter = Counter()
        fetched = 0
        self.visited: dict[str, list[str]] = getattr(self, "visited", {})
        self.visited[who] = []
        while queue and fetched < MAX_PAGES_PER_ROLE:
            path = queue.pop(0)
            status, content_type, body = browser.get(path)
            fetched += 1
            self.visited[who].append(f"{status} {path}")
            self.check(who, path, status)
            if status != 200 or not content_type.startswith("text/html"):
                continue
            parser = Links()
            parser.feed(body.decode("utf-8", errors="replace"))
            if who == "organiser":  # the jobs are started as the organiser (export_jobs)
                self.job_urls.update(link for a in parser.jobs if (link := self._local(a, path)))
            for href in parser.hrefs:
                link = self._local(href, path)
                if link is None:
                    continue
                if EXPORT.match(link):
                    self.export_urls.add(link)
                    continue
                if match := re.match(r"^/events/(\d+)/", link):
                    self.event_ids.add(int(match[1]))
                if link in seen or SKIP.search(link):
                    continue
                seen.add(link)
                shape = _shape(link)
                if shapes[shape] < PER_SHAPE:
                    shapes[shape] += 1
                    queue.append(link)
        return fetched

    def _local(self, href: str, current: str) -> str | None:
        url = urllib.parse.urlsplit(urllib.parse.urljoin(self.base + current, href))
        if f"{url.scheme}://{url.netloc}" != self.base or not url.path.startswith("/"):
            return None
        return url.path + (f"?{url.query}" if url.query else "")


def _shape(link: str) -> str:
    """/players/17/?sort=-name -> /players/N/?sort"""
    path, _, query = link.partition("?")
    keys = sorted(urllib.parse.parse_qs(query))
    return re.sub(r"\d+", "N", path) + ("?" + "&".join(keys) if keys else "")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fresh_database(url: str) -> None:
    import psycopg

    parsed = urllib.parse.urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def manage_command(*args: str) -> list[str]:
    if INSTALLED["on"]:
        return [str(Path(sys.executable).with_name("romme-ledger")), "manage", *args]
    return [sys.executable, "manage.py", *args]


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        manage_command(*args), cwd=ROOT, env=env, capture_output=True, text=True
    )
    if result.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def wait_healthy(base: str, process: subprocess.Popen) -> dict:
    for _ in range(150):
        if process.poll() is not None:
            raise SystemExit("gunicorn exited")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            raise SystemExit(f"/healthz answered {error.code}: {error.read()[:500]!r}") from error
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer /healthz")


def run(args) -> int:
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="romme-smoke-"))
    port = args.port or free_port()
    other_port = args.port + 1 if args.port else free_port()
    base, other_base = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{other_port}"
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),  # throw-away
        "DATABASE_URL": args.database,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_ROOT": str(work / "static"),
        # Plain http on the loopback: no TLS redirect, no secure-only cookies.
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
    }
    if args.cache:
        env["CACHE_URL"] = args.cache
    env.pop("DJANGO_SETTINGS_MODULE", None)
    fresh_database(args.database)
    manage(env, "migrate", "--noinput", "-v0")
    logins = manage(env, "seed_demo")
    manage(env, "collectstatic", "--noinput", "-v0")
    # The source tree's static folder is not needed: PDFs read the collected, hashed files.
    print(f"prepared in {time.monotonic() - started:.1f}s; {logins.strip().splitlines()[0]}")

    # gunicorn reads gunicorn.conf.py from its working directory; without it two app servers
    # race for one control socket and one logs an error at random (CI, stop 44).
    if not (ROOT / "gunicorn.conf.py").is_file():
        raise SystemExit(f"no gunicorn.conf.py in {ROOT}, the app servers' working directory")
    log_path, worker_log_path = work / "gunicorn.log", work / "worker.log"
    with log_path.open("wb") as log, worker_log_path.open("wb") as worker_log:
        gunicorn = Path(sys.executable).with_name("gunicorn")
        commands = [
            ([str(gunicorn), "romme.wsgi", "--bind", f"127.0.0.1:{p}", "--workers", str(n),
              "--timeout", "120", "--log-level", "warning"], log)
            for p, n in ((port, 2), (other_port, 1))
        ]  # fmt: skip
        worker = manage_command("db_worker", "--no-reload", "--interval", "0.5",
                                "--queue-name", "*")  # fmt: skip
        commands.append((worker, worker_log))
        processes = [
            subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
            for command, out in commands
        ]
        try:
            health = wait_healthy(base, processes[0])
            wait_healthy(other_base, processes[1])
            smoke = Smoke(base, other_base)
            smoke_all(smoke, env, health, args)
            if processes[2].poll() is not None:
                smoke.failures.append("the task worker exited")
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(timeout=60)
    if args.verbose:
        for who, lines in smoke.visited.items():
            print(f"--- {who}\n" + "\n".join(lines))
        print("--- exports\n" + "\n".join(sorted(smoke.export_urls)))
    log_text = log_path.read_text(errors="replace")
    # 403s log their traceback as a warning; a 500 logs "Internal Server Error".
    errors = [line for line in log_text.splitlines() if "Internal Server Error" in line]
    errors += [line for line in log_text.splitlines() if "[ERROR]" in line or "CRITICAL" in line]
    if errors:
        smoke.failures.append("gunicorn logged errors:\n    " + "\n    ".join(errors[:20]))
    worker_text = worker_log_path.read_text(errors="replace")
    errors = [line for line in worker_text.splitlines() if "Traceback" in line or "FAILED" in line]
    if errors:
        smoke.failures.append("the worker logged errors:\n    " + "\n    ".join(errors[:20]))
    elapsed = time.monotonic() - started
    print(f"statuses: {dict(sorted(smoke.statuses.items()))}; {elapsed:.0f}s in all")
    return verdict("production smoke", smoke.failures)


def verdict(name: str, failures: list[str]) -> int:
    """Every failure again at the end of the output (or that all went well); the exit status."""
    if failures:
        print(f"{name.upper()} FAILED ({len(failures)}):")
        for failure in failures:
            print("  " + failure)
        return 1
    print(f"{name} ok")
    return 0


def smoke_all(smoke: Smoke, env: dict, health: dict, args) -> None:
    checks = health["checks"]
    if checks["database"].get("vendor") != "postgresql":
        smoke.failures.append(f"/healthz: database is not PostgreSQL: {checks['database']}")
    if args.cache and not checks["cache"].get("backend", "").endswith("RedisCache"):
        smoke.failures.append(f"/healthz: cache is not Redis: {checks['cache']}")
    if not checks["jobs"].get("ok"):
        smoke.failures.append(f"/healthz: task queue: {checks['jobs']}")

    organiser = None
    for username, password in ROLES:
        browser = Browser(smoke.base)
        browser.login(username, password)
        t0 = time.monotonic()
        pages = smoke.crawl(browser, username, ["/"])
        print(f"{username}: {pages} pages in {time.monotonic() - t0:.1f}s")
        if username == "organiser":
            organiser = browser
    # A visitor without login: the public pages, and the others answer a redirect to login.
    visitor = Browser(smoke.base)
    starts = ["/", "/login/", "/about/", *(f"/public/events/{e}/" for e in smoke.event_ids)]
    seen_shapes, inside = set(), []
    for line in smoke.visited["organiser"]:
        path = line.split(" ", 1)[1]
        if _shape(path) not in seen_shapes:
            seen_shapes.add(_shape(path))
            inside.append(path)
    pages = smoke.crawl(visitor, "visitor", starts + inside[:60])
    redirected = sum(1 for line in smoke.visited["visitor"] if line.startswith("302 "))
    print(f"visitor: {pages} pages, {redirected} sent to the login page")
    if not redirected:
        smoke.failures.append("visitor: no page asked for a login")
    for event_id in sorted(smoke.event_ids):
        for path in (f"/exports/event/{event_id}/", f"/public/events/{event_id}/"):
            status, _, body = organiser.get(path)
            smoke.check("organiser", path, status)
            if status == 200:
                parser = Links()
                parser.feed(body.decode("utf-8", errors="replace"))
                smoke.job_urls.update(a for a in parser.jobs if a.startswith("/exports/"))
                smoke.export_urls.update(
                    link for href in parser.hrefs if (link := smoke._local(href, path))
                    and EXPORT.match(link)
                )  # fmt: skip
    exports(smoke, organiser)
    export_jobs(smoke, organiser)
    api(smoke, organiser, visitor)
    archive(smoke, env)


def exports(smoke: Smoke, browser: Browser) -> None:
    kinds: Counter = Counter()
    t0 = time.monotonic()
    for path in sorted(smoke.export_urls):
        status, content_type, body = browser.get(path)
        smoke.check("organiser", path, status)
        if status != 200:
            continue
        kinds[check_export(smoke, path, content_type, body)] += 1
    for fmt in ("xlsx", "pdf", "html"):
        if not kinds[fmt]:
            smoke.failures.append(f"no {fmt} export was found and fetched")
    print(f"exports: {dict(kinds)} in {time.monotonic() - t0:.1f}s")


def check_export(smoke: Smoke, path: str, content_type: str, body: bytes) -> str:
    fmt = path.rsplit(".", 1)[1].split("/")[0]
    if fmt == "pdf":
        for problem in print_style_problems(body, "de"):
            smoke.failures.append(f"{path}: {problem}")
    elif fmt == "xlsx" and not body.startswith(b"PK"):
        smoke.failures.append(f"{path}: not an XLSX workbook ({content_type})")
    return fmt


def export_jobs(smoke: Smoke, browser: Browser) -> None:
    """The long exports the menu offers as jobs: start on one app server, the worker renders,
    poll the status on both and download from the other."""
    t0 = time.monotonic()
    other = Browser(smoke.other_base, browser.jar)
    if not smoke.job_urls:
        smoke.failures.append("no long export was offered as a job")
    for path in sorted(smoke.job_urls):
        browser.get(path.rsplit("/", 3)[0] + "/")  # the menu: a fresh CSRF cookie
        status, _, body = browser.post(path, {}, Accept="application/json")
        smoke.statuses[status] += 1
        if status != 202:
            smoke.failures.append(f"POST {path} -> {status}, not 202")
            continue
        status_url = json.loads(body)["status_url"] if status == 202 else None
        deadline = time.monotonic() + 120
        state, polls = {}, 0
        while status_url and time.monotonic() < deadline:
            polls += 1
            code, _, body = (other if polls % 2 else browser).get(status_url)
            smoke.check("organiser", status_url, code)
            state = json.loads(body) if code == 200 else {"state": f"HTTP {code}"}
            if state.get("state") not in ("queued", "running"):
                break
            time.sleep(0.3)
        if state.get("state") != "done":
            smoke.failures.append(f"job {path}: {state}")
            continue
        code, _, body = browser.get(status_url)
        if code != 200 or json.loads(body).get("state") != "done":
            smoke.failures.append(f"job {path}: the servers disagree: {body[:200]!r}")
        code, content_type, content = other.get(state["download_url"])
        smoke.check("organiser", state["download_url"], code)
        if code == 200:
            check_export(smoke, path, content_type, content)
    print(f"export jobs: {len(smoke.job_urls)} in {time.monotonic() - t0:.1f}s")


def api(smoke: Smoke, organiser: Browser, visitor: Browser) -> None:
    if not smoke.event_ids:
        smoke.failures.append("no event found by the crawl")
    for event_id in sorted(smoke.event_ids):
        path = f"/api/events/{event_id}/standings"
        for who, browser in (("organiser", organiser), ("visitor", visitor)):
            status, content_type, body = browser.get(path, Accept="application/json")
            smoke.check(who, path, status)
            if status == 200:
                try:
                    json.loads(body)
                except ValueError:
                    smoke.failures.append(f"{who}: {path} is not JSON ({content_type})")


def archive(smoke: Smoke, env: dict) -> None:
    for event_id in sorted(smoke.event_ids):
        with tempfile.NamedTemporaryFile(suffix=".json") as output:
            manage(env, "export_event", str(event_id), "-o", output.name)
            data = json.loads(Path(output.name).read_text(encoding="utf-8"))
            # The demo's coming winter tournament (federation.demo.rankings) has none yet.
            coming = data.get("event", {}).get("start_date", "") > dt.date.today().isoformat()
            if not data.get("series") and not coming:
                smoke.failures.append(f"archive of event {event_id} has no series")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database",
        default=os.environ.get(
            "SMOKE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/romme_smoke"
        ),
    )
    parser.add_argument(
        "--cache", default=os.environ.get("SMOKE_CACHE_URL", "redis://127.0.0.1:6379/9"),
        help="Redis URL for the cache ('' for local memory).",
    )  # fmt: skip
    parser.add_argument("-v", "--verbose", action="store_true", help="List every URL.")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port.")
    parser.add_argument(
        "--installed", action="store_true",
        help="the installed package's app (romme-ledger manage), never a source tree's",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.installed:
        INSTALLED["on"] = True
        require_installed()
    return run(args)


def require_installed() -> None:
    """Stop unless the app is imported from an installation, not from a source tree."""
    import romme

    where = Path(romme.__file__).resolve()
    if "site-packages" not in where.parts or (where.parents[1] / "manage.py").exists():
        raise SystemExit(f"--installed: romme comes from {where}, not from an installed wheel")
    print(f"installed app: {where.parent}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
