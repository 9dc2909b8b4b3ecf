"""Every upload bomb is refused with a German message naming the limit, and importing it
never takes more than 200 MB (measured in a subprocess, whose peak RSS is its own)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.security import bombs

ROOT = Path(__file__).resolve().parents[2]
PEAK_MB = 200


def probe(tmp_path, kind: str, content: bytes) -> dict:
    path = tmp_path / f"bomb.{kind}"
    path.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "tests.security.memory_probe", kind, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "1", "LANG": "C.UTF-8"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


CASES = [
    ("xlsx", bombs.shared_string_bomb, "zip bomb"),
    ("xlsx", bombs.billion_laughs_xlsx, "DTD"),
    ("xlsx", bombs.xxe_xlsx, "DTD"),
    ("xlsx", bombs.row_bomb, "Zeilen"),
    ("xlsx", bombs.forged_dimension_xlsx, "Spalten"),
    ("xlsx", bombs.modest_long_cell, "Zeichen"),
    ("csv", bombs.long_line_csv, "länger als"),
    ("csv", bombs.many_rows_csv, "Zeilen"),
    ("csv", bombs.many_columns_csv, "Spalten"),
    ("archive", bombs.deep_json, "verschachtelt"),
    ("archive", bombs.huge_number_json, "Ziffern"),
    ("archive", bombs.long_array_json, "Einträge"),
]


@pytest.mark.parametrize(("kind", "build", "said"), CASES, ids=[c[1].__name__ for c in CASES])
def test_bomb_is_refused_within_memory(tmp_path, kind, build, said):
    report = probe(tmp_path, kind, build())
    assert report["outcome"] == "refused", report
    assert said in report["message"], report
    assert report["peak_mb"] < PEAK_MB, report


def test_probe_measures_memory(tmp_path):
    """The probe can fail: a plain file is accepted, at a modest but non-zero peak."""
    report = probe(tmp_path, "xlsx", bombs.plain_xlsx())
    assert report["outcome"] == "accepted", report
    assert 10 < report["peak_mb"] < PEAK_MB
