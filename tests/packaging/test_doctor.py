"""`romme-ledger doctor` (romme.doctor): German lines with what to do, exit status 0 only
when the hall can run; the hall's start page links to the same report."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from romme import doctor

ROOT = Path(__file__).resolve().parents[2]


def test_a_busy_port_fails_with_what_to_do():
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        check = doctor.port(taken.getsockname()[1])
    assert check.level == doctor.FAIL and "belegt" in check.text and "--port" in check.text
    assert doctor.port(1, hall_running=True).level == doctor.OK


def test_folders_of_others_and_read_only_ones_fail(tmp_path, monkeypatch):
    other = tmp_path / "Fotos"
    other.mkdir()
    (other / "bild.jpg").write_bytes(b"x")
    [check] = doctor.data_folder(other)
    assert check.level == doctor.FAIL and "kein Datenordner" in check.text
    monkeypatch.setattr(doctor.datafolder, "check_writable", lambda folder: "Read-only file system")
    [check] = doctor.data_folder(tmp_path / "neu")
    assert check.level == doctor.FAIL and "nicht beschreibbar" in check.text


def test_a_new_folder_is_fine_and_not_made(tmp_path):
    [check] = doctor.data_folder(tmp_path / "neu")
    assert check.level == doctor.OK and "wird angelegt" in check.text
    assert not (tmp_path / "neu").exists()


def test_weasyprint_failure_gives_the_steps_of_the_system(monkeypatch):
    failed = subprocess.CompletedProcess([], 1, "", "OSError: cannot load library 'pango'")
    monkeypatch.setattr(doctor.subprocess, "run", lambda *a, **k: failed)
    monkeypatch.setattr(doctor.platform, "system", lambda: "Windows")
    check = doctor.weasyprint_pdf()
    assert check.level == doctor.FAIL and "pango" in check.text
    assert "pacman -S mingw-w64-x86_64-pango" in check.text
    assert "WEASYPRINT_DLL_DIRECTORIES" in check.text
    monkeypatch.setattr(doctor.platform, "system", lambda: "Darwin")
    assert "brew install pango" in doctor.weasyprint_pdf().text


def test_a_public_network_on_windows_is_named(monkeypatch):
    monkeypatch.setattr(doctor.platform, "system", lambda: "Windows")
    monkeypatch.setattr(doctor, "_run", lambda command: "Public\n")
    check = doctor.firewall(8000)
    assert check.level == doctor.WARN and "„Öffentlich“" in check.text
    monkeypatch.setattr(doctor, "_run", lambda command: "Private\n")
    assert doctor.firewall(8000) is None


def test_missing_packages_fail(monkeypatch):
    monkeypatch.setattr(doctor, "REQUIRED", (*doctor.REQUIRED, "romme_missing_package"))
    checks = doctor.dependencies()
    assert any(c.level == doctor.FAIL and "romme_missing_package" in c.text for c in checks)
    assert not doctor.can_run(checks)


@pytest.mark.django_db
def test_the_start_page_links_the_report(client, settings, tmp_path, monkeypatch):
    settings.HALL_MODE = True
    settings.HALL_DATA_DIR = tmp_path
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setattr(doctor, "weasyprint_pdf", lambda: doctor.Check(doctor.OK, "PDF: ok"))
    laptop = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000"}
    # Before the first start too: the report helps when the setup page does not open.
    page = client.get("/hall/doctor/", **laptop)
    assert page.status_code == 200
    text = page.content.decode()
    assert "[OK]" not in text and "Python" in text and "Datenordner" in text
    assert "Version" in text
    phone = {"REMOTE_ADDR": "192.168.1.50", "HTTP_HOST": "192.168.1.23:8000"}
    monkeypatch.setattr("common.lan.laptop_addresses", lambda: ("192.168.1.23",), raising=False)
    assert client.get("/hall/doctor/", **phone).status_code in (400, 403)


def test_the_doctor_as_a_process_on_a_new_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    for name in ("DATABASE_URL", "DEBUG", "SECRET_KEY"):
        env.pop(name, None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    done = subprocess.run(
        [sys.executable, "-m", "romme.cli", "doctor", "--data", str(tmp_path / "d"),
         "--port", str(free)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Rommé Ledger ") and "Prüfung" in lines[0]
    assert any(line.startswith("[OK] PDF") for line in lines), done.stdout + done.stderr
    assert any("Datenstand: neu" in line for line in lines)
    phones = [line for line in lines if line.startswith("[OK] Handys")]
    assert all(f":{free}" in line for line in phones)  # the port asked for
    assert done.returncode == 0 and "kann starten" in lines[-1]
    assert not (tmp_path / "d").exists()  # the doctor only reads
