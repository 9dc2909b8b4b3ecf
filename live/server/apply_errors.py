"""The live apply's refusal (`live.server.apply`), apart so the apply's modules share it."""

from __future__ import annotations


class ApplyError(Exception):
    """A batch the server refuses, nothing written: ``message`` in the active language
    (German on the endpoint), ``path`` where in the batch ("$.parts[3].key", or a part
    key and the JSON path inside it: "sheet:2:4 $.versions[1].grid.hands[0]")."""

    def __init__(self, message: str, path: str = "$"):
        self.message = message
        self.path = path
        super().__init__(f"{path}: {message}")
