"""argparse speaking German: the command line's errors (unknown options, a bad number) in
the director's language, exit status 2 as argparse's. Standard library only: it runs before
Django (and its translations) is set up."""

from __future__ import annotations

import argparse
import re
import sys

_MESSAGES = (
    (re.compile(r"^unrecognized arguments: (.*)$"), "unbekannte Angaben: {0}"),
    (re.compile(r"^argument (\S+): invalid (\w+) value: (.*)$"), "{0}: ungültiger Wert {2}"),
    (re.compile(r"^argument (\S+): expected one argument$"), "{0}: ein Wert fehlt"),
    (re.compile(r"^the following arguments are required: (.*)$"), "es fehlt: {0}"),
    (
        re.compile(r"^argument (\S+): invalid choice: (\S+) \(choose from (.*)\)$"),
        "{0}: unbekannt {1} (möglich: {2})",
    ),
)


def german(message: str) -> str:
    for pattern, text in _MESSAGES:
        if match := pattern.match(message):
            return text.format(*match.groups())
    return message


class GermanParser(argparse.ArgumentParser):
    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: Fehler: {german(message)}\n")

    def format_usage(self) -> str:
        return super().format_usage().replace("usage:", "Aufruf:", 1)

    def format_help(self) -> str:
        text = super().format_help().replace("usage:", "Aufruf:", 1)
        return text.replace("options:", "Optionen:").replace(
            "show this help message and exit", "diese Hilfe zeigen und beenden"
        )
