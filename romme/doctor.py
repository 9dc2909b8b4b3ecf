"""`romme-ledger doctor`: whether this computer can run the hall, one German line per check
with what to do. The same report opens from the hall's start page (/hall/doctor/).

Checks: the Python version; every dependency importable; WeasyPrint lays out a one-page
PDF (in a child process: a missing Pango may crash it; on failure the steps for this
operating system); the data folder (ours, writable, free space); the port free; the
addresses the phones would use and whether a firewall is likely to block them; the backup
folder; the version and the data folder's schema. Exit status 0 only when the hall can run
(warnings allowed), 1 otherwise. Only local commands are run, nothing is sent anywhere.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import platform
import shutil
import socket
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from common import datafolder
from common.version import __version__

OK, WARN, FAIL = "OK", "WARNUNG", "FEHLER"
MIN_PYTHON = (3, 11)
# Import names of the runtime dependencies (requirements.txt). The server-only ones (a
# server's PostgreSQL, Redis, gunicorn) are not needed in the hall: a warning at most.
REQUIRED = (
    "django", "dj_database_url", "axes", "csp", "django_filters", "simple_history",
    "django_tables2", "openpyxl", "pypdf", "whitenoise", "waitress", "psutil", "filelock",
    "platformdirs", "qrcode", "jsonschema", "orjson", "defusedxml", "django_tasks",
    "django_tasks_db", "django_stubs_ext", "weasyprint",
)  # fmt: skip
SERVER_ONLY = ("psycopg", "redis", "gunicorn")
MIN_FREE_MB = 200  # as /healthz (HEALTH_MIN_FREE_MB)
LOW_FREE_MB = 1024
PDF_SCRIPT = (
    "import io, weasyprint, pypdf;"
    "pdf = weasyprint.HTML(string='<p>Rommé Ledger: Probeseite</p>').write_pdf();"
    "print(len(pypdf.PdfReader(io.BytesIO(pdf)).pages))"
)
PANGO_STEPS = {
    "Windows": (
        "MSYS2 von msys2.org installieren, in dessen Fenster „pacman -S "
        "mingw-w64-x86_64-pango“ ausführen, dann die Benutzer-Umgebungsvariable "
        "WEASYPRINT_DLL_DIRECTORIES auf C:\\msys64\\mingw64\\bin setzen und ein neues "
        "Fenster öffnen"
    ),
    "Darwin": "Homebrew (brew.sh) installieren, dann im Terminal: brew install pango",
    "Linux": (
        "Pango installieren: Debian/Ubuntu: sudo apt install libpango-1.0-0 "
        "libpangoft2-1.0-0; Fedora: sudo dnf install pango"
    ),
}


@dataclass
class Check:
    level: str
    text: str

    def line(self) -> str:
        return f"[{self.level}] {self.text}"


def python_version() -> Check:
    version = platform.python_version()
    if sys.version_info[:2] < MIN_PYTHON:
        return Check(FAIL, f"Python {version}: zu alt, nötig ist 3.11 oder neuer (python.org)")
    return Check(OK, f"Python {version} ({platform.system()} {platform.release()})")


def dependencies() -> list[Check]:
    missing, server = [], []
    for name in REQUIRED + SERVER_ONLY:
        try:
            importlib.import_module(name)
        except Exception as error:  # ImportError, or OSError of a missing system library
            (server if name in SERVER_ONLY else missing).append(f"{name} ({error})")
    found = [Check(OK, f"{len(REQUIRED)} benötigte Pakete vorhanden")] if not missing else []
    if missing:
        found.append(
            Check(
                FAIL,
                "Pakete fehlen oder laden nicht: " + "; ".join(missing) + ". Neu installieren: "
                "pipx install --force <romme_ledger-….whl>",
            )
        )
    if server:
        found.append(Check(WARN, "nur für einen Server, im Saal unnötig: " + "; ".join(server)))
    return found


def weasyprint_pdf() -> Check:
    try:
        done = subprocess.run(
            [sys.executable, "-c", PDF_SCRIPT], capture_output=True, text=True, timeout=120
        )
    except subprocess.TimeoutExpired:
        done = None
    if done is not None and done.returncode == 0 and done.stdout.strip() == "1":
        return Check(OK, "PDF: WeasyPrint erzeugt eine Probeseite")
    reason = "keine Antwort nach 120 s" if done is None else (done.stderr.strip() or "?")
    steps = PANGO_STEPS.get(platform.system(), PANGO_STEPS["Linux"])
    return Check(
        FAIL,
        f"PDF: WeasyPrint kann keine Seite erzeugen ({reason.splitlines()[-1][:200]}). "
        f"Abhilfe: {steps}.",
    )


def _existing(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def data_folder(folder: Path) -> list[Check]:
    foreign = datafolder.foreign_reason(folder)
    if foreign:
        return [Check(FAIL, f"Datenordner {folder}: kein Datenordner von Rommé Ledger "
                            f"({foreign}); einen anderen wählen (--data)")]  # fmt: skip
    where = _existing(folder)
    problem = datafolder.check_writable(where)
    if problem:
        text = f"Datenordner {folder}: nicht beschreibbar ({problem}); "
        return [Check(FAIL, text + "einen anderen wählen (--data) oder Schreibschutz aufheben")]
    free = shutil.disk_usage(where).free // 2**20
    shown = f"Datenordner {folder}" + ("" if folder.exists() else " (wird angelegt)")
    if free < MIN_FREE_MB:
        return [Check(FAIL, f"{shown}: nur {free} MB frei; mindestens {MIN_FREE_MB} MB "
                            "freimachen")]  # fmt: skip
    if free < LOW_FREE_MB:
        return [Check(WARN, f"{shown}: nur {free} MB frei; für Sicherungen besser 1 GB")]
    return [Check(OK, f"{shown}: beschreibbar, {free // 1024} GB frei")]


def port(number: int, hall_running: bool = False) -> Check:
    if hall_running:
        return Check(OK, f"Port {number}: von diesem Rommé Ledger belegt (läuft)")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("0.0.0.0", number))
        except OSError as error:
            text = f"Port {number} ist belegt ({error.strerror}): läuft Rommé Ledger schon? "
            return Check(FAIL, text + f"Sonst: romme-ledger hall --port {number + 1}")
    return Check(OK, f"Port {number} ist frei")


def _run(command: list[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout


def firewall(number: int) -> Check | None:
    """A likely block of the phones by the system's firewall, None when none is seen."""
    system = platform.system()
    if system == "Windows":
        profiles = _run(["powershell", "-NoProfile", "-Command",
                         "(Get-NetConnectionProfile).NetworkCategory"])  # fmt: skip
        if "Public" in profiles:
            return Check(WARN, "Firewall: das Netzwerk ist als „Öffentlich“ eingestuft, dann "
                               "blockiert Windows die Handys. Einstellungen → Netzwerk und "
                               "Internet → WLAN → Eigenschaften → „Privates Netzwerk“; beim "
                               "ersten Start Python den Zugriff in privaten Netzwerken "
                               "erlauben")  # fmt: skip
        return None
    if system == "Darwin":
        state = _run(["/usr/libexec/ApplicationFirewall/socketfilterfw", "--getglobalstate"])
        if "enabled" in state:
            return Check(WARN, "Firewall von macOS ist an: beim ersten Start „Eingehende "
                               "Verbindungen erlauben“ für Python bestätigen")  # fmt: skip
        return None
    if "Status: active" in _run(["ufw", "status"]):
        return Check(WARN, f"Firewall (ufw) ist an: sudo ufw allow {number}/tcp")
    return None


def network(number: int) -> list[Check]:
    from common import lan

    found = lan.hall_address(fresh=True)
    checks = []
    if found.url:
        others = f" (auch: {', '.join(found.others)})" if found.others else ""
        checks.append(Check(OK, f"Handys erreichen den Laptop unter {found.url}{others}"))
    else:
        text = "kein Netzwerk gefunden: den Laptop mit dem WLAN des Saals (Reiserouter) "
        checks.append(Check(WARN, text + "verbinden oder den Hotspot einschalten"))
    blocked = firewall(number)
    if blocked:
        checks.append(blocked)
    return checks


def backup_folder(folder: Path) -> Check:
    chosen = ""
    database = datafolder.database_path(folder)
    if database.is_file():
        uri = f"{database.resolve().as_uri()}?mode=ro"
        with (
            contextlib.suppress(sqlite3.Error),
            contextlib.closing(sqlite3.connect(uri, uri=True, timeout=5)) as connection,
        ):
            row = connection.execute(
                "SELECT backup_folder FROM hall_hallsettings WHERE id = 1"
            ).fetchone()
            chosen = (row or [""])[0] or ""
    where = Path(chosen).expanduser() if chosen else datafolder.backup_root(folder)
    if where.exists():
        problem = datafolder.check_writable(where)
    elif chosen:
        problem = "nicht vorhanden"
    else:  # made with the data folder
        problem = datafolder.check_writable(_existing(where))
    if problem:
        text = f"Sicherungsordner {where}: nicht erreichbar ({problem}); "
        return Check(
            WARN, text + "USB-Stick einstecken oder auf der Startseite einen anderen wählen"
        )
    return Check(OK, f"Sicherungsordner {where}: erreichbar")


def schema(folder: Path) -> Check:
    from romme import upgrade

    try:
        state = upgrade.inspect(folder)
    except Exception as error:
        return Check(FAIL, f"Version {__version__}; Datenstand nicht lesbar ({error})")
    text = f"Version {__version__}; Datenstand: {state.summary()}"
    if state.foreign or state.newer:
        return Check(FAIL, text + ". Passende Version installieren oder --data ändern")
    return Check(OK, text)


def report(folder: Path, port_number: int, *, hall_running: bool = False) -> list[Check]:
    checks = [python_version(), *dependencies(), weasyprint_pdf(), *data_folder(folder)]
    checks += [port(port_number, hall_running), *network(port_number), backup_folder(folder)]
    checks.append(schema(folder))
    return checks


def can_run(checks: list[Check]) -> bool:
    return all(check.level != FAIL for check in checks)


def _setup(folder: Path, port_number: int) -> None:
    """Django with the hall's settings on `folder`, without writing there (no secret key
    is made: the doctor reads only)."""
    os.environ.update(HALL_MODE="1", ROMME_DATA=str(folder), HALL_PORT=str(port_number))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    os.environ.setdefault("SECRET_KEY", "doctor-reads-only")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    for name in ("DEBUG", "DATABASE_URL"):
        os.environ.pop(name, None)
    import django

    django.setup()


def main(argv: list[str] | None = None) -> int:
    from romme.arguments import GermanParser

    parser = GermanParser(
        prog="romme-ledger doctor",
        description="Prüft, ob dieser Computer den Saalbetrieb ausführen kann.",
    )
    parser.add_argument("--data", help="Datenordner (sonst ROMME_DATA oder der Benutzerordner)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("HALL_PORT", "8000")))
    args = parser.parse_args(argv)
    folder = datafolder.resolve(args.data)
    print(f"Rommé Ledger {__version__}: Prüfung dieses Computers", flush=True)
    try:
        _setup(folder, args.port)
    except Exception as error:
        print(f"[{FAIL}] Die App lädt nicht: {type(error).__name__}: {error}")
        return 1
    checks = report(folder, args.port)
    for check in checks:
        print(check.line(), flush=True)
    if can_run(checks):
        print("Ergebnis: Der Saalbetrieb kann starten (romme-ledger hall).")
        return 0
    print("Ergebnis: Der Saalbetrieb kann so nicht starten; siehe [FEHLER] oben.")
    return 1
