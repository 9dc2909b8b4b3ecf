"""`bench.rigs.serving.collect_static` collects once when two callers come at the same time
(two xdist workers' test modules): the second waits and finds the manifest."""

from __future__ import annotations

import threading
import time

from bench.rigs import serving


def test_two_callers_at_once_collect_once(tmp_path, monkeypatch):
    root = tmp_path / "static"
    runs, inside = [], []

    def fake_collectstatic(*_args, **_kwargs):
        inside.append(1)
        assert len(inside) == 1, "two collectstatic runs at once"
        time.sleep(0.3)  # long enough for the other caller to arrive
        root.mkdir(exist_ok=True)
        (root / "staticfiles.json").write_text("{}")
        runs.append(1)
        inside.pop()

    monkeypatch.setattr(serving.subprocess, "run", fake_collectstatic)
    errors = []

    def call():
        try:
            serving.collect_static({"STATIC_ROOT": str(root)})
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=call) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(runs) == 1
