"""A TCP proxy between the laptop and the live server (bench.faults.live, tests/live/
test_two_servers.py): the laptop's network, in the bench's process, on 127.0.0.1 only.

It relays one HTTP request per connection (the sender's urllib sends ``Connection: close``,
gunicorn closes after each answer) and records every batch that passes: its numbers, the
server's answer and what happened on the way. It can

* ``stop()`` and ``start()``: the network gone (connections cut, nothing listening) and back;
* ``cut_next_batch()``: the next batch's head and half its body reach the server, then the
  network is gone (``stop()``) in the middle of the body;
* ``duplicate_next_batch()``: the next batch is delivered to the server twice (the second
  time on a connection of its own, once the first answer is in), as a network that
  retransmits a whole request would;
* ``hold_next_batch()``: the next batch is taken from the laptop and kept, never forwarded
  (the sender waits for its answer) until ``release()`` drops it.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from dataclasses import dataclass

BATCHES_PATH = "/api/live/v1/batches"  # live.shared.protocol.BATCHES_PATH (no Django here)


@dataclass
class Delivery:
    """One batch as it passed the proxy."""

    at: float  # time.monotonic() when the laptop had sent it whole
    from_seq: int | None
    to_seq: int | None
    final: bool | None
    parts: int
    how: str  # "forwarded", "cut mid-body", "duplicate", "held", "no server"
    phase: str = ""  # the proxy's label when it passed
    status: int = 0  # the server's HTTP status (0: none)
    last_seq: int | None = None
    code: str = ""


def _head_and_body(conn: socket.socket) -> tuple[bytes, bytes] | None:
    """One request read whole from ``conn``: (head with its blank line, body); None at EOF."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _colon, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip() or 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        body += chunk
    return head + b"\r\n\r\n", body


def _answer(raw: bytes) -> tuple[int, dict]:
    """(status, JSON body or {}) of a raw HTTP answer."""
    head, _sep, body = raw.partition(b"\r\n\r\n")
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0, {}
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        data = {}
    return status, data if isinstance(data, dict) else {}


def _batch_fields(body: bytes) -> tuple:
    try:
        data = json.loads(body.decode("utf-8"))
        return data.get("from_seq"), data.get("to_seq"), data.get("final"), len(data["parts"])
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return None, None, None, 0


class Proxy:
    def __init__(self, port: int, target_port: int, host: str = "127.0.0.1"):
        if not host.startswith("127."):
            raise ValueError("the proxy listens on loopback only")
        self.host, self.port, self.target = host, port, (host, target_port)
        self.deliveries: list[Delivery] = []
        self.requests = 0  # every request relayed or cut (batches and status probes)
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.sockets: set[socket.socket] = set()
        self.mode = ""  # "", "cut", "duplicate", "hold": what happens to the next batch
        self.done = threading.Event()  # the armed mode has happened
        self.held: list[socket.socket] = []
        self.label = ""  # set by the bench: each Delivery's phase

    # ----- the network up and down ------------------------------------------------------------

    @property
    def up(self) -> bool:
        return self.listener is not None

    def start(self) -> None:
        listener = socket.create_server((self.host, self.port), reuse_port=False)
        listener.settimeout(0.2)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        """The network gone: nothing listens, every open connection is cut."""
        with self.lock:
            listener, self.listener = self.listener, None
            sockets, self.sockets = list(self.sockets), set()
        if listener is not None:
            listener.close()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while self.listener is listener:
            try:
                conn, _addr = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            self._track(conn)
            threading.Thread(target=self._relay, args=(conn,), daemon=True).start()

    def _track(self, sock: socket.socket) -> None:
        with self.lock:
            self.sockets.add(sock)

    def _forget(self, *socks: socket.socket) -> None:
        with self.lock:
            for sock in socks:
                self.sockets.discard(sock)
        for sock in socks:
            sock.close()

    # ----- the faults -------------------------------------------------------------------------

    def _arm(self, mode: str) -> threading.Event:
        with self.lock:
            self.mode = mode
            self.done = threading.Event()
        return self.done

    def cut_next_batch(self) -> threading.Event:
        return self._arm("cut")

    def duplicate_next_batch(self) -> threading.Event:
        return self._arm("duplicate")

    def hold_next_batch(self) -> threading.Event:
        return self._arm("hold")

    def release(self) -> None:
        """Drop the held batch's connection unanswered (the laptop is gone by then)."""
        with self.lock:
            held, self.held = self.held, []
        self._forget(*held)

    def _take_mode(self, is_batch: bool) -> str:
        with self.lock:
            if not is_batch or not self.mode:
                return ""
            mode, self.mode = self.mode, ""
            return mode

    # ----- relaying ---------------------------------------------------------------------------

    def _upstream(self, payload: bytes, *, whole: bool = True) -> bytes | None:
        """Send ``payload`` to the server on a new connection; its whole answer (None when
        the server cannot be reached or the connection was cut)."""
        try:
            upstream = socket.create_connection(self.target, timeout=60)
        except OSError:
            return None
        self._track(upstream)
        try:
            upstream.sendall(payload)
            if not whole:
                return None
            answer = b""
            while chunk := upstream.recv(65536):
                answer += chunk
            return answer
        except OSError:
            return None
        finally:
            self._forget(upstream)

    def _relay(self, conn: socket.socket) -> None:
        try:
            request = _head_and_body(conn)
        except (OSError, ValueError):
            request = None
        if request is None:
            self._forget(conn)
            return
        head, body = request
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        is_batch = line.startswith("POST ") and line.split(" ")[1] == BATCHES_PATH
        mode = self._take_mode(is_batch)
        with self.lock:
            self.requests += 1
        delivery = Delivery(time.monotonic(), *_batch_fields(body), "forwarded", phase=self.label)
        if mode == "hold":
            delivery.how = "held"
            with self.lock:
                self.held.append(conn)
                self.deliveries.append(delivery)
            self.done.set()
            return
        if mode == "cut":
            delivery.how = "cut mid-body"
            with self.lock:
                self.deliveries.append(delivery)
            self._upstream(head + body[: len(body) // 2], whole=False)
            self.stop()
            self.done.set()
            return
        answer = self._upstream(head + body)
        if answer is None:
            delivery.how = "no server"
        if is_batch:
            delivery.status, data = _answer(answer or b"")
            delivery.last_seq, delivery.code = data.get("last_seq"), str(data.get("code", ""))
            with self.lock:
                self.deliveries.append(delivery)
        if mode == "duplicate" and answer is not None:
            again = Delivery(time.monotonic(), *_batch_fields(body), "duplicate", phase=self.label)
            again.status, data = _answer(self._upstream(head + body) or b"")
            again.last_seq, again.code = data.get("last_seq"), str(data.get("code", ""))
            with self.lock:
                self.deliveries.append(again)
            self.done.set()
        try:
            if answer is not None:
                conn.sendall(answer)
        except OSError:
            pass
        finally:
            self._forget(conn)
