"""The hall's worker children watch their stdin pipe (romme.hall._watch_parent) while a long
print forks its PDF workers (scoring.exports.formats.pdf_parts). The forked worker must not
hang on the watcher's lock: in the hall, the standings prerender of a 400-player event never
finished, and the live bench waited for it for ever."""

import os
import subprocess
import sys
import textwrap

from romme.hall import BASE_DIR

SCRIPT = textwrap.dedent(
    """
    import multiprocessing, threading, time
    from concurrent.futures import ProcessPoolExecutor
    from romme import hall

    threading.Thread(target=hall._watch_parent, daemon=True).start()
    time.sleep(0.3)  # the watcher is blocked reading the pipe
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    try:
        print(pool.submit(abs, -42).result(timeout=10), flush=True)
    finally:
        for worker in list(pool._processes.values()):  # a hung one must not outlive the test
            worker.kill()
    """
)


def test_a_forked_worker_runs_while_the_parent_pipe_is_watched():
    parent_end, hall_end = os.pipe()  # held open: the hall is still there
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT],
        cwd=BASE_DIR,
        stdin=parent_end,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(parent_end)
    try:
        out, err = process.communicate(timeout=30)
    finally:
        os.close(hall_end)
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err[-2000:]
    assert out.strip() == "42"


def test_the_watcher_ends_the_child_when_the_pipe_closes():
    script = "import threading, time\nfrom romme import hall\n" + (
        "threading.Thread(target=hall._watch_parent, daemon=True).start()\ntime.sleep(30)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], cwd=BASE_DIR, stdin=subprocess.PIPE)
    process.stdin.close()
    assert process.wait(timeout=15) == 0
