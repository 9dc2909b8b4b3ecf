"""The live bench's stand-in for a server on another machine (bench.live.elsewhere): it
answers the sender as the server does, so the director's cost is measured against it."""

import json
import threading
from http.server import ThreadingHTTPServer
from types import SimpleNamespace

from bench.live.elsewhere import BATCHES_PATH, answer_for, handler
from live.shared import protocol


def test_the_path_is_the_protocols():
    assert BATCHES_PATH == protocol.BATCHES_PATH


def test_a_final_batch_is_acknowledged_with_its_last_number():
    assert answer_for(json.dumps({"to_seq": 17, "final": True}).encode()) == {"last_seq": 17}
    assert answer_for(json.dumps({"to_seq": 17, "final": False}).encode()) == {}


def test_the_sender_pushes_to_it_as_to_a_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(0.05))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        from live.laptop import transport

        url = f"http://127.0.0.1:{server.server_address[1]}{protocol.BATCHES_PATH}"
        payload = {"from_seq": 3, "to_seq": 5, "final": True, "parts": []}
        assert transport.post_json(url, "token", payload, 5) == (200, {"last_seq": 5})
        payload["final"] = False
        assert transport.post_json(url, "token", payload, 5) == (200, {})
        status = f"http://127.0.0.1:{server.server_address[1]}{protocol.STATUS_PATH}"
        assert transport.get_json(status, "token", 5) == (200, {})
    finally:
        server.shutdown()
        server.server_close()


def test_the_report_says_the_server_was_elsewhere(capsys):
    from bench.live.report import report

    args = SimpleNamespace(quick=False, cost_only=20, server_nice=19, server_own_disk=True,
                           server_core=False, server_elsewhere=0.3)  # fmt: skip
    cost = {"times": {"off": [0.01] * 20, "on": [0.01] * 20}, "pushes": {"on": 3, "off": 0},
            "busy": {"on": 1.0, "off": 0.0}, "spent": {"on": 10.0, "off": 10.0}}  # fmt: skip
    assert report(args, None, cost, None, [1.0, 1.0], [(1.0,)], "") == 0
    out = capsys.readouterr().out
    assert "each batch acknowledged after 0.3 s (--server-elsewhere)" in out
