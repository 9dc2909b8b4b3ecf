"""The hall mode as a process (romme.hall), run the way a director starts it: a subprocess
with its own data folder, talking HTTP on loopback only.

What runs here runs the same on Windows and macOS: no fork, no POSIX signal in the hall
itself, the children end when their pipe closes. CI runs on Linux only, so these tests are
what stands for the other systems (README, "Tried on")."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
PORTS = iter(range(8190, 8200))


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    # As a director starts it: not the test run's database, debug flag or the browser
    # tests' DJANGO_ALLOW_ASYNC_UNSAFE (set while they run; check --deploy refuses it).
    for name in ("DATABASE_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    env.update({"PYTHONUNBUFFERED": "1", **extra})
    return env


def _start(folder: Path, port: int, listen: str = "127.0.0.1", **extra) -> subprocess.Popen:
    """The hall in a process group of its own, as a console window gives it."""
    command = [sys.executable, "-m", "romme.hall", "--data", str(folder), "--port", str(port)]
    return subprocess.Popen(
        [*command, "--no-browser", "--listen", listen],
        cwd=ROOT,
        env=_env(**extra),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=sys.platform != "win32",
    )


def _wait_until_up(
    process: subprocess.Popen, port: int, seconds: float = 60, address: str = "127.0.0.1"
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the hall ended: {process.stdout.read()}")
        try:
            urllib.request.urlopen(f"http://{address}:{port}/healthz", timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers (503 until the worker has taken a task is fine)
        except OSError:
            time.sleep(0.3)
    raise AssertionError("the hall did not answer within a minute")


def _children(process) -> list[psutil.Process]:
    try:
        return psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _cmd(process: psutil.Process) -> list[str]:
    try:
        return process.cmdline()
    except psutil.Error:  # gone, or a zombie its parent has not reaped yet
        return []


def _stop(process) -> None:
    for child in _children(process):
        child.kill()
    if process.poll() is None:
        process.kill()
    process.wait(timeout=20)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _get(port: int, path: str, host: str | None = None, address: str = "127.0.0.1"):
    request = urllib.request.Request(f"http://{address}:{port}{path}")
    if host:
        request.add_header("Host", host)
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    """A data folder migrated once, copied for each hall: a fresh migration is most of a
    hall's start, and every test here starts one."""
    folder = tmp_path_factory.mktemp("migrated") / "daten"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=_env(HALL_MODE="1", ROMME_DATA=str(folder)),
        check=True,
        timeout=300,
    )
    return folder


@pytest.fixture
def hall(request, tmp_path, migrated):
    port = next(PORTS)
    folder = tmp_path / "daten"
    shutil.copytree(migrated, folder)
    extra = getattr(request, "param", {})
    process = _start(folder, port, HALL_URL=f"http://127.0.0.2:{port}", **extra)
    try:
        _wait_until_up(process, port)
        yield process, folder, port
    finally:
        _stop(process)


def test_a_fresh_folder_becomes_a_hall(hall):
    process, folder, port = hall
    # The secret key: made on the first start, readable by the user only.
    key = folder / "secret_key.txt"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_text()) > 40
    # Production settings on the laptop: no debug page, the CSP enforced, no demo data.
    status, headers, body = _get(port, "/static/no-such-file.css")
    assert status == 404 and "Traceback" not in body and "DEBUG" not in body
    status, headers, body = _get(port, "/")
    assert status == 302 and headers["Location"] == "/hall/setup/"  # the first start
    status, headers, body = _get(port, "/hall/setup/")
    assert status == 200 and "Content-Security-Policy" in headers
    assert "Content-Security-Policy-Report-Only" not in headers
    assert "Strict-Transport-Security" not in headers  # plain HTTP in the hall's LAN
    assert headers.get("Server", "") == ""
    # The phones' address is HALL_URL's host: accepted; a foreign host is not.
    assert _get(port, "/hall/setup/", host=f"127.0.0.2:{port}")[0] == 200
    assert _get(port, "/", host="evil.example")[0] == 400
    # The database: in the folder, WAL, every commit synced.
    with sqlite3.connect(folder / "romme.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = {_cmd(p)[-5] for p in _children(process) if "--child" in _cmd(p)}
    assert names == {"worker", "live", "backups"}


def _settled(folder: Path, quiet: float = 2.0, seconds: float = 30) -> list[str]:
    """The folder's listing once the running hall has stopped adding files (its log file
    appears with the first warning it logs)."""
    listing, since = None, time.monotonic()
    deadline = since + seconds
    while time.monotonic() < deadline:
        now = sorted(p.name for p in folder.iterdir())
        if now != listing:
            listing, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return listing
        time.sleep(0.2)
    raise AssertionError(f"the folder kept changing: {listing}")


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "hall.log")


# The first hall without its backup loop: that loop's files would come and go under the test.
@pytest.mark.parametrize("hall", [{"HALL_BACKUPS": "0"}], indirect=True)
def test_a_second_hall_on_the_same_folder_is_refused(hall):
    process, folder, port = hall
    before = _settled(folder)
    second = subprocess.run(
        [sys.executable, "-m", "romme.hall", "--data", str(folder), "--port", str(port + 100)],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 2
    assert "läuft bereits mit dem Datenordner" in second.stderr
    # Refused before it touched anything: no migration, no server, no children. (The running
    # hall's own log file may appear at any time: its children log their first line late on a
    # loaded machine.)
    assert "Datenordner:" not in second.stdout
    assert _listing(folder) == [name for name in before if name != "hall.log"]
    assert process.poll() is None and _get(port, "/")[0] == 302  # the first one runs on


def test_a_hall_on_one_address_names_that_address_and_answers_on_it(tmp_path, migrated):
    """`--listen` with one address (a laptop that should answer on the hall's network only):
    nothing answers at 127.0.0.1, so the banner, the first-start hint and the browser all
    name the address it listens on, and a request to it is no unknown host."""
    port = next(PORTS)
    folder = tmp_path / "daten"
    shutil.copytree(migrated, folder)
    process = _start(folder, port, listen="127.0.0.3")
    try:
        _wait_until_up(process, port, address="127.0.0.3")
        status, headers, _body = _get(port, "/", host=f"127.0.0.3:{port}", address="127.0.0.3")
        assert status == 302 and headers["Location"].startswith("/hall/setup/")
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
    finally:
        _stop(process)
    output = process.stdout.read()
    assert f"Am Laptop:   http://127.0.0.3:{port}/" in output
    assert f"Erster Start: Öffnen Sie http://127.0.0.3:{port}/ an diesem Laptop" in output
    assert "127.0.0.1" not in output


def test_a_folder_that_cannot_be_written_is_refused_before_anything_starts(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = subprocess.run(
        [sys.executable, "-m", "romme.hall", "--data", str(blocker / "daten"), "--port", "8199"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "kann nicht beschrieben werden" in result.stderr and "Nichts wurde gestartet" in (
        result.stderr
    )


def test_the_children_end_when_the_hall_is_killed_hard(hall):
    """kill -9 of the hall (a crash, the task manager): its workers and backup loop see their
    pipe close and end by themselves; nothing stays behind holding the database."""
    process, folder, port = hall
    children = [p for p in _children(process) if "--child" in _cmd(p)]
    assert len(children) == 3  # the worker, the live results' worker, the backup loop
    process.kill()
    process.wait(timeout=10)
    _gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive, [_cmd(p) for p in alive]
    # The lock went with the process: the hall starts again on the same folder at once.
    again = _start(folder, port)
    try:
        _wait_until_up(again, port)
        assert _get(port, "/")[0] == 302
    finally:
        _stop(again)


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl+C is CTRL_C_EVENT there")
def test_ctrl_c_stops_the_hall_and_its_children(hall):
    process, _folder, _port = hall
    children = [p for p in _children(process) if "--child" in _cmd(p)]
    process.send_signal(signal.SIGINT)  # what Ctrl+C in the terminal sends
    try:
        code = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        # Where it hangs (CI saw this once): every thread's stack of the hall and its children.
        left = [p for p in [psutil.Process(process.pid), *_children(process)] if p.is_running()]
        for stuck in left:
            stuck.send_signal(signal.SIGUSR1)
        time.sleep(2)
        states = [(p.pid, _cmd(p)[-6:], p.status()) for p in left if p.is_running()]
        _stop(process)
        output = process.stdout.read()[-8000:]
        raise AssertionError(f"no stop in 30 s: {states}\n{output}") from None
    assert code == 0
    assert "wird beendet" in process.stdout.read()
    _gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl+C is CTRL_C_EVENT there")
def test_ctrl_c_in_the_console_stops_every_process_without_a_traceback(hall):
    """The console's Ctrl+C reaches the hall's whole process group: the children leave the
    stopping to the hall (before, the backup loop printed a KeyboardInterrupt traceback)."""
    process, _folder, _port = hall
    children = [p for p in _children(process) if "--child" in _cmd(p)]
    assert len(children) == 3
    time.sleep(2)  # the children past their start, in their loops
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=30) == 0
    output = process.stdout.read()
    assert "wird beendet" in output and "Traceback" not in output, output[-3000:]
    _gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl+C is CTRL_C_EVENT there")
def test_ctrl_c_during_the_first_start_stops_it_and_the_next_start_goes_on(tmp_path):
    folder, port = tmp_path / "daten", next(PORTS)
    process = _start(folder, port)
    try:
        deadline = time.monotonic() + 60
        while not (folder / "romme.sqlite3").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        # The migrations under way, the static files' child wherever it is in its start.
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=30) == 130
        output = process.stdout.read()
        assert "Start abgebrochen (Strg+C)" in output and "Traceback" not in output, output
        time.sleep(1)  # (a child ends by its pipe)
        left = [p for p in psutil.process_iter() if str(folder) in " ".join(_cmd(p))]
        assert not left, [_cmd(p) for p in left]
    finally:
        _stop(process)
    again = _start(folder, port)
    try:
        _wait_until_up(again, port, seconds=120)  # (it answers: migrated, its children up)
    finally:
        _stop(again)


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl+C is CTRL_C_EVENT there")
def test_ctrl_c_in_a_childs_first_moments_neither_stops_it_nor_prints_a_traceback(
    tmp_path, migrated, capfd
):
    """A child starts with the hall and again whenever one died: the console's Ctrl+C can
    come before Python has read a line of it (before, that stopped it, and a little later
    printed a KeyboardInterrupt traceback)."""
    from romme.hall import Child

    folder = tmp_path / "daten"
    shutil.copytree(migrated, folder)
    port = next(PORTS)  # (the static files' child listens on none: one for all six)
    for delay in (0, 0.005, 0.02, 0.05, 0.1, 0.2):
        child = Child("static", folder, port)  # (collects, then ends by itself)
        child.start()
        time.sleep(delay)
        child.process.send_signal(signal.SIGINT)
        code = child.process.wait(timeout=120)
        child.process.stdin.close()
        err = capfd.readouterr().err
        assert code == 0 and "Traceback" not in err, (delay, code, err[-2000:])


def test_a_child_that_dies_is_started_again(hall):
    process, _folder, _port = hall
    worker = next(p for p in _children(process) if "worker" in _cmd(p))
    worker.kill()
    deadline = time.monotonic() + 90  # RESTART_SECONDS, then Django's start on a busy CI
    while time.monotonic() < deadline:
        workers = [p for p in _children(process) if "worker" in _cmd(p)]
        if workers and workers[0].pid != worker.pid:
            return
        time.sleep(0.5)
    raise AssertionError("the worker was not started again")


def test_the_hall_settings_pass_the_deploy_check(tmp_path):
    """`manage.py check --deploy` with the hall's settings: what a server would be told,
    less the four that plain HTTP in a LAN cannot have (HSTS, SSL redirect, Secure
    cookies), which the settings silence with their reason."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(HALL_MODE="1", ROMME_DATA=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
