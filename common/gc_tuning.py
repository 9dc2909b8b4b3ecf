"""Python's cyclic garbage collector kept off the hot paths.

The collector runs every 700 new objects and, every so often, walks the whole heap. A page
that reads a federation's 10,000 ranking lines makes some 200,000 objects, and a ranking's
computation 235,000 results: the walks over Django's own objects (modules, URL patterns,
models) and a worker's kept results were a third to a half of their time
(docs/performance-log.md, 2026-11-26). Those objects hold no reference cycles, so reference
counting frees them; the collector only needs to see what a request or task leaves behind.

- `freeze_startup_heap()`: once, when an app server has loaded the project (romme/wsgi.py):
  what exists then lives as long as the process and is not walked again (gc.freeze).
- `cycle_collection_paused()`: around one large computation (the ranking task); the
  collector runs again as usual afterwards."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def freeze_startup_heap() -> None:
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 -- imports the URLconf and every view module now
    gc.collect()
    gc.freeze()


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
