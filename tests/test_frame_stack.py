"""common.frame_stack: the request runs unchanged, from a frame with room on CPython's stack."""

from common import frame_stack


def test_the_call_runs_unchanged_with_its_arguments_and_errors():
    assert frame_stack.run_with_room(lambda a, *, b: (a, b), 1, b=2) == (1, 2)
    try:
        frame_stack.run_with_room(int, "x")
    except ValueError:
        pass
    else:  # pragma: no cover
        raise AssertionError("the call's error must reach the caller")


def test_the_frame_asks_for_the_room():
    assert frame_stack._run.__code__.co_stacksize == frame_stack.ROOM_WORDS


def test_the_middleware_passes_the_request_and_the_response(rf):
    request = rf.get("/")
    seen = []
    middleware = frame_stack.FrameStackMiddleware(lambda r: seen.append(r) or "response")
    assert middleware(request) == "response" and seen == [request]
