"""The readers of ``bench.load.readers``: phones, hall displays and club websites asking for the
public standings. Each reader is a thread; with ``processes`` above 1 the threads are spread
over that many forked processes, so that 200 readers do not queue on one interpreter lock
(on a 2-core machine the client's own overhead otherwise limits what it measures)."""

from __future__ import annotations

import multiprocessing
import random
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field

VIEWS = {"page": 0.5, "display": 0.2, "json": 0.3}


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    not_modified: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, view: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies.setdefault(view, []).append(seconds)
            if status == 304:
                self.not_modified[view] = self.not_modified.get(view, 0) + 1
            elif status != 200:
                self.errors[view] = self.errors.get(view, 0) + 1

    def merge(self, latencies, not_modified, errors) -> None:
        with self.lock:
            for view, values in latencies.items():
                self.latencies.setdefault(view, []).extend(values)
            for mine, theirs in ((self.not_modified, not_modified), (self.errors, errors)):
                for view, n in theirs.items():
                    mine[view] = mine.get(view, 0) + n


def reader(base, paths, cookie, conditional, stop, tally, seed, think=0.0):
    rng = random.Random(seed)
    etags: dict[str, str] = {}
    names, weights = list(VIEWS), list(VIEWS.values())
    if think:
        stop.wait(rng.random() * think)  # phones do not all refresh at the same moment
    while not stop.is_set():
        view = rng.choices(names, weights)[0]
        headers = {"Accept-Encoding": "gzip", "Accept-Language": "de"}
        if cookie:
            headers["Cookie"] = cookie
        if conditional and view in etags and rng.random() < 0.5:
            headers["If-None-Match"] = etags[view]
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(
                urllib.request.Request(base + paths[view], headers=headers), timeout=30
            ) as response:
                response.read()
                status = response.status
                if response.headers.get("ETag"):
                    etags[view] = response.headers["ETag"]
        except urllib.error.HTTPError as error:
            status = error.code
        except OSError:
            status = 0
        tally.add(view, time.perf_counter() - started, status)
        if think:
            stop.wait(rng.uniform(0.5, 1.5) * think)


def _reader_threads(base, paths, cookie, conditional, tally, seeds, think):
    """Start one reader thread per seed; returns ``stop()``, which ends and joins them."""
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=reader, args=(base, paths, cookie, conditional, stop, tally, seed, think)
        )
        for seed in seeds
    ]
    for t in threads:
        t.start()

    def stop_all():
        stop.set()
        for t in threads:
            t.join(timeout=35)

    return stop_all


def _reader_process(base, paths, cookie, conditional, stop, seeds, think, out) -> None:
    """A forked client process: its share of the readers as threads until ``stop``."""
    tally = Tally()
    stop_all = _reader_threads(base, paths, cookie, conditional, tally, seeds, think)
    stop.wait()
    stop_all()
    out.put((tally.latencies, tally.not_modified, tally.errors))


def start_readers(base, paths, cookie, conditional, count, think, tally, processes):
    """Start ``count`` readers; returns ``finish()``, which stops them and merges what the
    client processes counted into ``tally`` (threads count into it directly)."""
    if processes <= 1 or count < 2:
        return _reader_threads(base, paths, cookie, conditional, tally, range(count), think)
    # fork: before this phase starts any thread of its own; the children touch no database
    ctx = multiprocessing.get_context("fork")
    stop, out = ctx.Event(), ctx.Queue()
    groups = [list(range(k, count, processes)) for k in range(min(processes, count))]
    children = [
        ctx.Process(
            target=_reader_process, args=(base, paths, cookie, conditional, stop, g, think, out)
        )
        for g in groups
    ]
    for child in children:
        child.start()

    def finish_processes():
        stop.set()
        for _ in children:
            tally.merge(*out.get(timeout=60))
        for child in children:
            child.join(timeout=10)

    return finish_processes
