"""Every rule id emitted by the package is registered and documented."""

import re
from pathlib import Path

from rules import RULES

ROOT = Path(__file__).resolve().parents[2]
ID = re.compile(r"""["']((?:card|meld|hand|series|ruleset)\.[a-z0-9-]+)["']""")


def emitted_ids():
    ids = set()
    for path in (ROOT / "rules").glob("*.py"):
        if path.name == "problems.py":
            continue
        ids |= set(ID.findall(path.read_text(encoding="utf-8")))
    return ids


def test_every_emitted_code_is_registered():
    assert emitted_ids() - set(RULES) == set()


def test_every_registered_code_is_emitted():
    assert set(RULES) - emitted_ids() == set()


def test_every_code_is_documented_with_its_source():
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    missing = [code for code in RULES if f"`{code}`" not in doc]
    assert missing == []
    for code, info in RULES.items():
        assert info.summary and info.source and code.isascii()
