"""Room on CPython's frame stack for a request, so no hot loop sits on a chunk's edge.

CPython 3.11 keeps the frames of Python calls in chunks (16 KB at first). A call that does
not fit in the current chunk maps a new one, and its return unmaps it again: when a loop
calls a function right at a chunk's end, every call maps and unmaps memory (page faults,
system calls). Which loop hits the edge depends on how deep the stack already is, so one
middleware more or less turned it on and off: the public standings page of 400 players took
100-145 ms of CPU at one depth and 42-44 ms a few frames deeper (7,500-13,400 page faults
a request against 90-200; issue 38, performance log 2026-11-27). Laying out a PDF showed the
same (5.8 s and 135,000 page faults at one depth, 4.8 s and 1,800 at another), but there the
fresh chunk alone did not settle it: prints are not wrapped yet.

`run_with_room(call, ...)` calls `call` from a frame that asks for a large, unused value
stack (its code's stack size raised): the chunk mapped for that frame is about twice its
size, and everything `call` does runs in the other half, far from any edge. It costs one
map and unmap per call; the unused half is never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Words (8 bytes) the frame asks for: the chunk mapped for it is 512 KiB, about 250 KB of it
# above the frame, more than the deepest request uses. (64 Ki words mapped 1 MiB and cost
# some 1,400 page faults a request; 32 Ki words cost 6.)
ROOM_WORDS = 32 * 1024


def _run(call: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    return call(*args, **kwargs)


# Only the frame's size changes; the code runs as written.
_run.__code__ = _run.__code__.replace(co_stacksize=ROOM_WORDS)


def run_with_room(call: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, run in a fresh chunk of the frame stack."""
    return _run(call, args, kwargs)


class FrameStackMiddleware:
    """The first middleware: the rest of the request runs with `run_with_room`."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return _run(self.get_response, (request,), {})
