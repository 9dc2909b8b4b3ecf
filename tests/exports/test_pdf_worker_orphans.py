"""A PDF part worker ends when the process that started its pool dies hard (the hall's task
worker killed during a long print): before, both workers waited on their queue for ever."""

import contextlib
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The pool as render_parts makes it (pdf_parts.pool_of), its two
# workers busy with a long task, their process ids printed; then the parent just waits.
PARENT = textwrap.dedent(
    """
    import time

    import django

    django.setup()
    from scoring.exports.formats import pdf_parts

    pool = pdf_parts.pool_of(2)
    futures = [pool.submit(time.sleep, 300) for _ in range(2)]
    while len(pool._processes) < 2:
        time.sleep(0.05)
    print(" ".join(str(pid) for pid in pool._processes), flush=True)
    time.sleep(300)
    """
)


def _alive(pid: int) -> bool:
    """Running (not ended, not a zombie nobody reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_the_workers_end_when_their_parent_is_killed():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "romme.settings", "DEBUG": "1"}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    workers: list[int] = []
    try:
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(pid) for pid in workers)
        parent.kill()  # as SIGKILL or a crash: no handler, no cleanup
        parent.wait()
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        parent.kill()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, 9)


@pytest.mark.skipif(os.name == "nt", reason="POSIX: the watch compares process ids")
def test_a_worker_that_starts_after_its_pool_died_ends_at_once():
    """The pool's process id is read in the pool: a worker that reached its initializer only
    after the pool's process had died (a loaded machine) reads a new parent of its own, and
    must not take that one for the pool."""
    code = (
        "import django; django.setup()\n"
        "from scoring.exports.formats import pdf_parts\n"
        "pdf_parts._watch_parent(-1)  # not this process's parent: the pool is gone\n"
        "raise SystemExit(3)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "romme.settings", "DEBUG": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0  # os._exit(0) from the watch, not the line after it
