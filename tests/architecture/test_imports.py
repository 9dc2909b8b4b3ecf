"""The house rules (docs/architecture.md), checked on every `make test`.

The import-linter contracts in pyproject.toml say which way imports may point, that the
score sheet and the standings are independent and that no package has an import cycle;
the pure engines are imported in a fresh interpreter to prove they load without Django.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = ("rules", "rules.standings.metrics", "rules.standings.core", "rules.standings.ties",
        "tournaments.draw", "tournaments.draw_search", "tournaments.draw_types")  # fmt: skip
MAX_LINES = 500


def test_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Contracts: 8 kept, 0 broken." in done.stdout


@pytest.mark.parametrize("module", PURE)
def test_pure_engine_loads_without_django(module):
    code = (
        f"import sys, {module}; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'clubs', 'common', 'romme'} or m in {'scoring.models', 'tournaments.models'}); "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_no_module_over_the_house_limit():
    big = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in {".venv", "tests", "staticfiles", "test-artifacts"} or "migrations" in parts:
            continue
        lines = sum(1 for _ in path.open(encoding="utf-8"))
        if lines > MAX_LINES:
            big.append(f"{path.relative_to(ROOT)}: {lines}")
    assert not big, "split these by what they do: " + ", ".join(big)
