"""A fake live server for the laptop's tests: it answers batches as live.shared.protocol
says (the `server` fixture of tests/live/conftest.py puts it in place of the transport)."""

from live.shared import protocol


class FakeServer:
    """Holds parts and a last number; applies a batch as the protocol says. ``script``:
    answers (or exceptions) given instead, one per request, before acting normally."""

    def __init__(self):
        self.last_seq = 0
        self.parts = {}
        self.batches = []
        self.script = []

    def __call__(self, url, token, payload, timeout):
        assert url == "https://ergebnisse.example/api/live/v1/batches"
        assert token == "tok-123"
        self.batches.append(payload)
        if self.script:
            answer = self.script.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer
        if payload["to_seq"] <= self.last_seq:
            return 200, {"last_seq": self.last_seq}
        if payload["from_seq"] != self.last_seq + 1:
            return 409, {"error": "Lücke", "code": protocol.GAP, "last_seq": self.last_seq}
        for part in payload["parts"]:
            self.parts[part["key"]] = part["data"]
        for key in payload["removed"]:
            self.parts.pop(key, None)
        if payload["final"]:
            self.last_seq = payload["to_seq"]
        return 200, {"last_seq": self.last_seq}

    def status(self, url, token, timeout):
        """The status a failing link asks first (the probe); scripted exceptions apply."""
        assert url.startswith("https://ergebnisse.example/api/live/v1/status?")
        self.probes.append(url)
        if self.script and isinstance(self.script[0], Exception):
            raise self.script.pop(0)
        return 200, {"last_seq": self.last_seq, "owner": "laptop"}
