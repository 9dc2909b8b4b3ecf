"""A pause of Python's cyclic garbage collector around work that creates hundreds of
thousands of small objects at once (a federation's ranking: 235,000 results).

The collector runs every 700 new objects and, every so often, walks the whole heap; a
worker that keeps a federation's parsed results between computations has a large heap, so
these walks were half of a ranking's computation (3.1 s with, 1.5 s without;
docs/performance-log.md, 2026-11-26). The objects made there hold no reference cycles, so
reference counting frees them; the collector runs again as usual afterwards."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
