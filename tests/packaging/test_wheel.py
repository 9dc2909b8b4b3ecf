"""The wheel carries everything the app reads at run time: every module of every app package
(migrations and sub-packages added later too: setuptools finds them by pattern), the package
data, and templates/, static/ and the compiled translations inside the package romme (where
romme.settings looks in an installed copy); no tests, no benchmarks, no .po sources. Built
once per session (`python -m build`: the sdist, then the wheel from the sdist, as a release;
`pip wheel` where build is not installed), in a temporary folder; ROMME_DIST names a folder
of artefacts to check instead (`make release`)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from common.version import __version__

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("romme", "common", "rules", "clubs", "tournaments", "scoring", "prizes", "live",
            "hall", "federation", "leagues")  # fmt: skip
ASSETS = ("templates", "static")


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    given = os.environ.get("ROMME_DIST")  # `make release`: check the artefacts it built
    if given:
        found = {"wheel": next(Path(given).glob("romme_ledger-*.whl"))}
        found["sdist"] = next(Path(given).glob("romme_ledger-*.tar.gz"))
        return found
    out = tmp_path_factory.mktemp("dist")
    spec = importlib.util.find_spec("build")
    if spec is not None and spec.origin:  # (not pip's in-tree build/ folder of the checkout)
        command = [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)]
    else:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                   str(ROOT)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    found = {"wheel": next(out.glob("romme_ledger-*.whl"))}
    sdist = list(out.glob("romme_ledger-*.tar.gz"))
    if sdist:
        found["sdist"] = sdist[0]
    return found


@pytest.fixture(scope="session")
def names(built) -> set[str]:
    with zipfile.ZipFile(built["wheel"]) as wheel:
        return set(wheel.namelist())


def _source_files(top: str, suffixes=None) -> list[str]:
    return sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / top).rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and not path.name.startswith(".")
        and (suffixes is None or path.suffix in suffixes)
    )


def test_the_wheel_is_named_with_the_version(built):
    assert built["wheel"].name == f"romme_ledger-{__version__}-py3-none-any.whl"


def test_every_module_and_package_file_is_in_the_wheel(names):
    missing = []
    for package in PACKAGES:
        for name in _source_files(package):
            if not name.endswith((".pyc", ".pyo")) and name not in names:
                missing.append(name)
    assert missing == []
    assert "scoring/archive/schema.json" in names
    assert any(re.match(r"hall/migrations/0001_\w+\.py$", n) for n in names)


def test_templates_static_files_and_translations_are_inside_romme(names):
    missing = [f"romme/{name}" for top in ASSETS for name in _source_files(top)]
    missing += [f"romme/{name}" for name in _source_files("locale", {".mo"})]
    missing = [name for name in missing if name not in names]
    assert missing == []
    assert "romme/locale/de/LC_MESSAGES/django.mo" in names
    assert not [n for n in names if n.endswith(".po")]


def test_no_tests_no_benchmarks_no_source_tree_files(names):
    tops = {name.split("/")[0] for name in names}
    assert tops <= {*PACKAGES, f"romme_ledger-{__version__}.dist-info"}, tops


def test_the_command_and_the_pinned_dependencies(built):
    with zipfile.ZipFile(built["wheel"]) as wheel:
        info = f"romme_ledger-{__version__}.dist-info"
        entry_points = wheel.read(f"{info}/entry_points.txt").decode()
        metadata = wheel.read(f"{info}/METADATA").decode()
    assert re.search(r"^romme-ledger = romme\.cli:main$", entry_points, re.M)
    assert "\nName: romme-ledger\n" in metadata and f"\nVersion: {__version__}\n" in metadata
    required = set(re.findall(r"^Requires-Dist: (.+)$", metadata, re.M))
    pinned = {
        line.split("#")[0].strip()
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    }
    assert {r.replace(" ", "") for r in required} == {p.replace(" ", "") for p in pinned}


def test_the_sdist_builds_the_same_wheel(built):
    if "sdist" not in built:
        pytest.skip("built with pip wheel (python -m build is not installed)")
    with tarfile.open(built["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "CHANGELOG.md"} <= names
    assert "templates/base.html" in names and "locale/de/LC_MESSAGES/django.mo" in names
    assert not [n for n in names if n.startswith(("tests/", "bench/"))]
