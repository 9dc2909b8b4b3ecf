"""A live server on another machine, as the laptop sees it, for the director's cost alone
(``python -m bench live --cost-only N --server-elsewhere S``): it takes every batch and
acknowledges it after ``S`` seconds (the real server's apply, measured in the same bench
without this option), so the push's wait is the same as with a real server while the
server's work uses none of this machine's CPU. The laptop's part of a push (the dump, the
fingerprints, the request, the acknowledgement's write) is unchanged: that is the
director's cost of live results; the server's apply is another machine's in a hall.

    python -m bench.live.elsewhere --port 8712 --delay 0.3

No Django here: the answer is the protocol's (``live.shared.protocol``): a final batch is
answered with ``{"last_seq": to_seq}``, any other batch and the status with ``{}``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bench.live.proxy import BATCHES_PATH  # (the protocol's, without Django)


def answer_for(body: bytes) -> dict:
    """What the server answers a batch: its last number for a final one."""
    batch = json.loads(body or b"{}")
    return {"last_seq": batch["to_seq"]} if batch.get("final") else {}


def handler(delay: float):
    class Handler(BaseHTTPRequestHandler):
        def _send(self, data: dict) -> None:
            text = json.dumps(data).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            data = answer_for(body) if self.path.startswith(BATCHES_PATH) else {}
            time.sleep(delay)
            self._send(data)

        def do_GET(self):  # the status probe after a failure
            self._send({})

        def log_message(self, *args):  # quiet
            pass

    return Handler


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--delay", type=float, default=0.3)
    args = parser.parse_args(argv)
    if hasattr(os, "nice"):
        os.nice(19)  # its little CPU (reading the batch) never before the director's
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler(args.delay))
    print("ready", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
