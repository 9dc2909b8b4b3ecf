"""The app's version: the one place that the package (pyproject.toml reads it), the page
footer, `romme-ledger --version`, the event archive, /healthz, the doctor and the hall's
data folder (the version that last migrated it) all read.

Plain Python, no import: setuptools reads the literal below without running the app."""

__version__ = "1.0.0"


def parse(text: str) -> tuple[int, ...]:
    """ "1.2.10" -> (1, 2, 10), for comparing versions; anything after the digits of a part
    ("1.1.0rc1", "1.1.0.dev3") is ignored, an unreadable part counts as 0."""
    parts = []
    for part in str(text).strip().split(".")[:3]:
        digits = ""
        for char in part:
            if not char.isdigit():
                break
            digits += char
        parts.append(int(digits) if digits else 0)
    return tuple(parts + [0] * (3 - len(parts)))
