"""The command `romme-ledger` (romme.cli): its verbs, its version, German errors with exit
status 2 for what it does not know."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from common.version import __version__, parse
from romme import cli

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_read_from_one_place(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"romme-ledger {__version__}"
    import romme

    assert romme.__version__ == __version__


def test_versions_compare_by_their_numbers():
    assert parse("1.10.0") > parse("1.9.3") > parse("1.9") == (1, 9, 0)
    assert parse("1.1.0rc1") == (1, 1, 0) and parse("x") == (0, 0, 0)


def test_unknown_verb_is_refused_in_german(capsys):
    assert cli.main(["start"]) == 2
    err = capsys.readouterr().err
    assert "unbekannter Befehl „start“" in err and "hall, run, doctor" in err


def test_no_verb_shows_the_verbs(capsys):
    assert cli.main([]) == 2
    out = capsys.readouterr().out
    assert all(verb in out for verb in cli.VERBS)


def test_unknown_option_of_a_verb_is_german(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["hall", "--turbo"])
    assert stop.value.code == 2
    assert "unbekannte Angaben: --turbo" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        cli.main(["doctor", "--port", "acht"])
    assert stop.value.code == 2
    assert "--port: ungültiger Wert 'acht'" in capsys.readouterr().err


def test_the_command_runs_as_a_process():
    done = subprocess.run(
        [sys.executable, "-m", "romme.cli", "kaffee"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2 and "unbekannter Befehl" in done.stderr


def test_backup_without_data_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    for name in ("HALL_MODE", "ROMME_DATA"):
        monkeypatch.delenv(name, raising=False)
    assert cli.main(["backup", "--data", str(tmp_path / "leer")]) == 2
    assert "noch keine Daten" in capsys.readouterr().err


def test_the_changelog_starts_with_this_version_in_german_and_english():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first = text.split("\n## ", 2)[1]
    assert first.startswith(f"{__version__} ")
    assert "### Deutsch" in first and "### English" in first
