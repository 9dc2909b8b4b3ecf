"""The command `romme-ledger` (the package's console script): the user's verbs.

    romme-ledger hall [--data ORDNER] [--port 8000] …   the hall mode (romme.hall)
    romme-ledger run [--port 8000] [--data ORDNER]      trying the app with demo data
    romme-ledger doctor [--data ORDNER] [--port 8000]   what this computer lacks (romme.doctor)
    romme-ledger backup [--data ORDNER]                 a backup now (database and events)
    romme-ledger restore [DATEI] [--data ORDNER] …      the backups; restoring one
    romme-ledger manage BEFEHL …                        Django's commands (manage.py)
    romme-ledger --version

`manage`, `backup` and `restore` work on the hall's data folder (HALL_MODE) unless
DATABASE_URL names a server's database. An unknown verb: a German message, exit status 2.
"""

from __future__ import annotations

import os
import sys

from common.version import __version__

VERBS = {
    "hall": "der Saalbetrieb: der Laptop als Server für die Handys",
    "run": "ausprobieren mit Beispieldaten (nur an diesem Computer)",
    "doctor": "prüfen, was diesem Computer für den Saalbetrieb fehlt",
    "backup": "jetzt eine Sicherung schreiben (Datenbank und Veranstaltungen)",
    "restore": "Sicherungen zeigen und eine wiederherstellen",
    "manage": "Django-Befehle (wie manage.py)",
}


def usage() -> str:
    lines = [f"Rommé Ledger {__version__}", "", "Aufruf: romme-ledger BEFEHL [Optionen]", ""]
    lines += [f"  {verb:<8} {text}" for verb, text in VERBS.items()]
    lines += ["", "  --version  die Version zeigen", "",
              "Hilfe zu einem Befehl: romme-ledger BEFEHL --help"]  # fmt: skip
    return "\n".join(lines)


def _hall_environment(data: str | None) -> None:
    """Django's settings on the hall's data folder, unless a server's database is named."""
    from common import datafolder

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    if os.environ.get("DATABASE_URL"):
        return
    os.environ["HALL_MODE"] = "1"
    os.environ["ROMME_DATA"] = str(datafolder.resolve(data))
    os.environ.pop("DEBUG", None)


def manage(argv: list[str]) -> int:
    _hall_environment(None)
    from django.core.management import execute_from_command_line

    execute_from_command_line(["romme-ledger manage", *argv])
    return 0


def _split_data(argv: list[str]) -> tuple[str | None, list[str]]:
    """`--data ORDNER` (or --data=ORDNER) taken out of the arguments."""
    rest, data, items = [], None, iter(argv)
    for item in items:
        if item == "--data":
            data = next(items, None)
            if data is None:
                raise SystemExit(_error("--data: ein Ordner fehlt"))
        elif item.startswith("--data="):
            data = item.split("=", 1)[1]
        else:
            rest.append(item)
    return data, rest


def _error(text: str) -> int:
    print(f"romme-ledger: {text}", file=sys.stderr, flush=True)
    return 2


def restore(argv: list[str]) -> int:
    data, rest = _split_data(argv)
    _hall_environment(data)
    from django.core.management import execute_from_command_line

    execute_from_command_line(["romme-ledger restore", "restore_backup", *rest])
    return 0


def backup(argv: list[str]) -> int:
    from romme.arguments import GermanParser

    parser = GermanParser(prog="romme-ledger backup", description=VERBS["backup"])
    parser.add_argument("--data", help="Datenordner (sonst ROMME_DATA oder der Benutzerordner)")
    args = parser.parse_args(argv)
    _hall_environment(args.data)
    from romme.backup_now import backup_now

    return backup_now()


def run_demo(argv: list[str]) -> int:
    from romme.demo_run import main as demo

    return demo(argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if argv else 2
    verb, rest = argv[0], argv[1:]
    if verb in ("--version", "-V", "version"):
        print(f"romme-ledger {__version__}")
        return 0
    if verb == "hall":
        from romme import hall

        return hall.main(rest)
    if verb == "doctor":
        from romme import doctor

        return doctor.main(rest)
    handlers = {"run": run_demo, "backup": backup, "restore": restore, "manage": manage}
    if verb in handlers:
        return handlers[verb](rest)
    known = ", ".join(VERBS)
    return _error(
        f"unbekannter Befehl „{verb}“. Möglich sind: {known} (Übersicht: romme-ledger --help)."
    )


if __name__ == "__main__":
    sys.exit(main())
