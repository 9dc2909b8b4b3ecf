"""The map matches the house: docs/architecture.md names every package that exists and no
other, every package says in its opening docstring what it owns, and the docs name only
modules, files and templates that exist (the performance log keeps the names of its day)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROOTS = ("rules", "common", "clubs", "tournaments", "scoring", "prizes", "live", "federation",
         "leagues", "hall", "romme", "bench")  # fmt: skip
# Django's own folders inside an app: named by Django, not rooms of the house.
NOT_ROOMS = {"migrations", "management", "commands", "templatetags"}
ROOM_HEADING = re.compile(r"^### `([a-z_/]+)/`$", re.M)
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def packages() -> list[Path]:
    found = []
    for name in ROOTS:
        if (ROOT / name / "__init__.py").exists():
            found += [p.parent for p in (ROOT / name).rglob("__init__.py")]
    return sorted(found)


def rooms() -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for p in packages()
        if not NOT_ROOMS & set(p.relative_to(ROOT).parts)
    }


def test_architecture_names_every_package_and_only_those():
    named = set(ROOM_HEADING.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    assert sorted(rooms() - named) == [], "packages missing from docs/architecture.md"
    assert sorted(named - rooms()) == [], "docs/architecture.md names packages that do not exist"


def test_every_package_says_what_it_owns():
    silent = [
        p.relative_to(ROOT).as_posix()
        for p in packages()
        if not ast.get_docstring(ast.parse((p / "__init__.py").read_text(encoding="utf-8")))
    ]
    assert silent == []


def _exists(name: str) -> bool:
    """A path (file, folder or template) or a dotted name: a module, or an attribute of one."""
    if "/" in name:
        return (ROOT / name).exists() or (ROOT / "templates" / name).exists()
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:i])
        if base.with_suffix(".py").exists() or (base / "__init__.py").exists():
            return i >= len(parts) - 2  # the module, then at most a name and its attribute
    return False


def test_docs_name_what_exists():
    tops = {*ROOTS, "tests"}
    missing = []
    for doc in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        if doc.name == "performance-log.md":
            continue
        for token in re.findall(r"`([^`\s]+)`", doc.read_text(encoding="utf-8")):
            name = token.split("(")[0].split("::")[0].split(":")[0].rstrip(".,")
            if re.split(r"[./]", name)[0] not in tops or any(c in name for c in "*<{…"):
                continue
            if not _exists(name):
                missing.append(f"{doc.name}: {token}")
    assert missing == []
