"""Every limit on hostile input, and the readers that keep to them (see docs/security.md).

An upload is checked from the cheapest fact to the dearest: its size in bytes first, then
(XLSX) the zip directory and a streaming scan of every XML member, then the rows while they
are read, so nothing larger than a limit is ever held in memory. Each refusal is a
:class:`LimitExceeded` whose message says, in the user's language, which limit was hit.

The values below are defaults; ``settings.UPLOAD_LIMITS`` may override any of them.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import math
import re
import zipfile
from collections.abc import Iterator
from typing import Any
from xml.parsers import expat

from django.conf import settings
from django.utils.translation import gettext as _

DEFAULTS = {
    # Player files (CSV or XLSX).
    "player_file_bytes": 5 * 1024 * 1024,
    "player_rows": 20_000,  # data rows, header not counted
    "player_columns": 200,
    "cell_chars": 1_000,
    "csv_line_chars": 10_000,
    # XLSX: the zip container.
    "xlsx_members": 500,
    "xlsx_member_bytes": 25 * 1024 * 1024,  # uncompressed, per member
    "xlsx_total_bytes": 50 * 1024 * 1024,  # uncompressed, all members
    "xlsx_ratio": 100,  # uncompressed / compressed, for members over 1 MB
    "xlsx_shared_strings": 250_000,
    # Event archive (JSON).
    "archive_bytes": 20 * 1024 * 1024,
    "archive_depth": 32,
    "archive_array_items": 100_000,
    "archive_number_chars": 20,
    "archive_string_chars": 10_000,
    # Text typed into any form.
    "form_text_chars": 10_000,
}


RATIO_FLOOR = 1024 * 1024  # small members (styles, themes) may compress very well
CHUNK = 64 * 1024


# C0 controls except TAB, LF and CR; DEL; C1 controls. NUL is among them. And a surrogate
# without its pair (JSON's "\\ud800"): it has no UTF-8, so no database can store it.
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def limit(name: str) -> int:
    return getattr(settings, "UPLOAD_LIMITS", {}).get(name, DEFAULTS[name])


class LimitExceeded(ValueError):
    """Input refused because it breaks a limit; ``str()`` is the message for the user."""

    def __init__(self, message: str, name: str = ""):
        super().__init__(message)
        self.name = name


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.0f}"


# ----- text ------------------------------------------------------------------------------


def has_control_chars(text: str) -> bool:
    return bool(CONTROL_CHARS.search(text))


def check_text(text: str, what: str = "") -> str:
    """Refuse NUL bytes and other control characters (tab and line breaks are fine)."""
    match = CONTROL_CHARS.search(text)
    if match:
        raise LimitExceeded(
            _(
                "%(what)sThe text contains a control character (code %(code)d) that cannot be "
                "stored. Remove it and try again."
            )
            % {"what": f"{what}: " if what else "", "code": ord(match.group())},
            "control_chars",
        )
    return text


# ----- upload size -----------------------------------------------------------------------


def check_size(size: int, name: str = "player_file_bytes") -> None:
    maximum = limit(name)
    if size > maximum:
        raise LimitExceeded(
            _("The file is %(size)s MB; at most %(max)s MB can be uploaded.")
            % {"size": f"{size / (1024 * 1024):.1f}", "max": _mb(maximum)},
            name,
        )


# ----- XLSX ------------------------------------------------------------------------------


def _column_index(ref: str) -> int:
    """``"AB12"`` -> 28; 0 when the reference has no letters."""
    index = 0
    for char in ref:
        if "A" <= char <= "Z":
            index = index * 26 + ord(char) - 64
        elif "a" <= char <= "z":
            index = index * 26 + ord(char) - 96
        else:
            break
    return index


class _XmlScan:
    """Streams one XML member through expat and refuses, before anything is built:
    DTDs and entities (XXE, billion laughs), over-long cells, too many rows, columns
    or shared strings."""

    def __init__(self, member: str):
        self.member = member
        self.rows = self.cells_in_row = self.strings = 0
        self.cell_chars = 0
        self.in_cell = False
        self.max_rows = limit("player_rows") + 1  # the header row
        self.max_columns = limit("player_columns")
        self.max_cell = limit("cell_chars")
        self.max_strings = limit("xlsx_shared_strings")
        parser = expat.ParserCreate()
        parser.StartDoctypeDeclHandler = self._refuse_dtd
        parser.EntityDeclHandler = self._refuse_dtd
        parser.ExternalEntityRefHandler = self._refuse_dtd
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text
        parser.buffer_text = True
        self.parser = parser

    def _refuse_dtd(self, *args):
        raise LimitExceeded(
            _(
                "The Excel file contains XML declarations (DTD or entities) that are not "
                "allowed; save it again from Excel or LibreOffice."
            ),
            "xml_dtd",
        )

    def _start(self, tag, attrs):
        local = tag.rpartition(":")[2]
        if local == "row":
            self.rows += 1
            self.cells_in_row = 0
            number = attrs.get("r", "")
            if self.rows > self.max_rows or (number.isdigit() and int(number) > self.max_rows):
                raise LimitExceeded(
                    _("The file has more than %(max)d rows; at most %(max)d can be imported.")
                    % {"max": self.max_rows - 1},
                    "player_rows",
                )
        elif local == "c":
            self.cells_in_row += 1
            self.in_cell, self.cell_chars = True, 0
            if (
                self.cells_in_row > self.max_columns
                or _column_index(attrs.get("r", "")) > self.max_columns
            ):
                raise LimitExceeded(
                    _("A row has more than %(max)d columns.") % {"max": self.max_columns},
                    "player_columns",
                )
        elif local == "si":
            self.strings += 1
            self.in_cell, self.cell_chars = True, 0
            if self.strings > self.max_strings:
                raise LimitExceeded(
                    _("The file holds more than %(max)d different texts.")
                    % {"max": self.max_strings},
                    "xlsx_shared_strings",
                )

    def _end(self, tag):
        if tag.rpartition(":")[2] in ("c", "si"):
            self.in_cell = False

    def _text(self, data):
        if self.in_cell:
            self.cell_chars += len(data)
            if self.cell_chars > self.max_cell:
                raise_cell_too_long(self.max_cell)

    def feed(self, data: bytes, final: bool = False):
        try:
            self.parser.Parse(data, final)
        except expat.ExpatError as err:
            raise LimitExceeded(
                _("The Excel file is damaged (%(member)s: %(error)s).")
                % {"member": self.member, "error": err},
                "xml_error",
            ) from None


def raise_cell_too_long(maximum: int):
    raise LimitExceeded(
        _("A cell holds more than %(max)d characters.") % {"max": maximum}, "cell_chars"
    )


def inspect_xlsx(content: bytes) -> None:
    """Check the zip directory, then stream every XML member through a defused scan."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except (zipfile.BadZipFile, ValueError, OSError) as err:
        raise LimitExceeded(
            _("The Excel file could not be opened (%(error)s). Is it really an .xlsx file?")
            % {"error": err},
            "zip_error",
        ) from None
    with archive:
        members = archive.infolist()
        if len(members) > limit("xlsx_members"):
            raise LimitExceeded(
                _("The Excel file has more than %(max)d parts.") % {"max": limit("xlsx_members")},
                "xlsx_members",
            )
        total = 0
        for info in members:
            total += info.file_size
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > RATIO_FLOOR and ratio > limit("xlsx_ratio"):
                raise LimitExceeded(
                    _(
                        "A part of the Excel file (%(member)s) is compressed %(ratio)d-fold; "
                        "at most %(max)d-fold is accepted (a “zip bomb” is refused)."
                    )
                    % {"member": info.filename[:80], "ratio": ratio, "max": limit("xlsx_ratio")},
                    "xlsx_ratio",
                )
            if info.file_size > limit("xlsx_member_bytes"):
                raise LimitExceeded(
                    _("Unpacked, a part of the Excel file (%(member)s) is larger than %(max)s MB.")
                    % {"member": info.filename[:80], "max": _mb(limit("xlsx_member_bytes"))},
                    "xlsx_member_bytes",
                )
        if total > limit("xlsx_total_bytes"):
            raise LimitExceeded(
                _("Unpacked, the Excel file is larger than %(max)s MB.")
                % {"max": _mb(limit("xlsx_total_bytes"))},
                "xlsx_total_bytes",
            )
        for info in members:
            if not info.filename.lower().endswith((".xml", ".rels", ".vml")):
                continue
            scan = _XmlScan(info.filename)
            read = 0
            try:
                with archive.open(info) as stream:
                    while chunk := stream.read(CHUNK):
                        read += len(chunk)
                        if read > info.file_size:  # a directory that lies about sizes
                            raise zipfile.BadZipFile("size mismatch")
                        scan.feed(chunk)
            except (zipfile.BadZipFile, EOFError, OSError, ValueError) as err:
                if isinstance(err, LimitExceeded):
                    raise
                raise LimitExceeded(
                    _("The Excel file is damaged (%(member)s: %(error)s).")
                    % {"member": info.filename[:80], "error": err},
                    "zip_error",
                ) from None
            scan.feed(b"", final=True)


def iter_xlsx_rows(content: bytes) -> Iterator[list]:
    """The first sheet's rows, streamed read-only; checks the file with
    :func:`inspect_xlsx` before openpyxl sees it and the limits again while reading."""
    from openpyxl import load_workbook

    inspect_xlsx(content)
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as err:  # openpyxl raises many kinds on a damaged file
        raise LimitExceeded(
            _("The Excel file could not be opened (%(error)s). Is it really an .xlsx file?")
            % {"error": str(err)[:200]},
            "xlsx_error",
        ) from None
    try:
        if not workbook.worksheets:
            return
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()  # a forged <dimension> must not pad every row
        max_rows, max_columns = limit("player_rows") + 1, limit("player_columns")
        max_cell = limit("cell_chars")
        for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
            _check_row(number, row, max_rows, max_columns, max_cell)
            yield list(row)
    finally:
        workbook.close()


def _check_row(number: int, row, max_rows: int, max_columns: int, max_cell: int) -> None:
    """The limits every imported row meets, XLSX and CSV alike (``max_rows`` counts the
    header row)."""
    if number > max_rows:
        raise LimitExceeded(
            _("The file has more than %(max)d rows; at most %(max)d can be imported.")
            % {"max": max_rows - 1},
            "player_rows",
        )
    if len(row) > max_columns:
        raise LimitExceeded(
            _("A row has more than %(max)d columns.") % {"max": max_columns},
            "player_columns",
        )
    if any(isinstance(value, str) and len(value) > max_cell for value in row):
        raise_cell_too_long(max_cell)


# ----- CSV -------------------------------------------------------------------------------


def iter_csv_rows(text: str, dialect) -> Iterator[list[str]]:
    """CSV rows with limits on line length, rows, columns and cell length, refusing NUL."""
    if "\x00" in text:
        raise LimitExceeded(
            _("The file contains NUL bytes; save it again as CSV (UTF-8)."), "control_chars"
        )
    max_line, max_rows = limit("csv_line_chars"), limit("player_rows") + 1
    max_columns, max_cell = limit("player_columns"), limit("cell_chars")

    def lines():
        for number, line in enumerate(io.StringIO(text, newline=None), start=1):
            if len(line) > max_line:
                raise LimitExceeded(
                    _("Line %(line)d is longer than %(max)d characters.")
                    % {"line": number, "max": max_line},
                    "csv_line_chars",
                )
            yield line

    old = csv.field_size_limit()
    csv.field_size_limit(max_line)
    try:
        for number, row in enumerate(csv.reader(lines(), dialect), start=1):
            _check_row(number, row, max_rows, max_columns, max_cell)
            yield row
    except csv.Error as err:
        raise LimitExceeded(
            _("The CSV file is malformed: %(error)s") % {"error": err}, "csv_error"
        ) from None
    finally:
        csv.field_size_limit(old)


# ----- JSON ------------------------------------------------------------------------------


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},]', re.DOTALL)


def _scan_json_structure(text: str) -> None:
    """Depth and array length from the raw text, before ``json`` builds anything."""
    max_depth, max_items = limit("archive_depth"), limit("archive_array_items")
    stack: list[list] = []  # [is_array, commas]
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            stack.append([token == "[", 0])
            if len(stack) > max_depth:
                raise LimitExceeded(
                    _("The data are nested deeper than %(max)d levels.") % {"max": max_depth},
                    "archive_depth",
                )
        elif token in "]}":
            if stack:
                stack.pop()
        elif token == ",":
            if stack and stack[-1][0]:
                stack[-1][1] += 1
                if stack[-1][1] >= max_items:
                    raise LimitExceeded(
                        _("A list holds more than %(max)d entries.") % {"max": max_items},
                        "archive_array_items",
                    )
        elif len(token) - 2 > limit("archive_string_chars"):
            raise LimitExceeded(
                _("A text is longer than %(max)d characters.")
                % {"max": limit("archive_string_chars")},
                "archive_string_chars",
            )


def _number(kind):
    def parse(text: str):
        if len(text) > limit("archive_number_chars"):
            raise LimitExceeded(
                _("A number has more than %(max)d digits.")
                % {"max": limit("archive_number_chars")},
                "archive_number_chars",
            )
        value = kind(text)
        if kind is float and not math.isfinite(value):  # "1e999" is short: infinity
            _refuse_constant(text)
        return value

    return parse


def _refuse_constant(name: str):
    raise LimitExceeded(
        _("“%(value)s” is not a number that can be stored.") % {"value": name}, "archive_number"
    )


def _check_strings(data: Any) -> None:
    """Refuse control characters in every key and string, iteratively (no recursion)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, dict):
            for key, value in item.items():
                check_text(key)
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)


# Escapes in raw JSON text that no database can store: a control character (PostgreSQL's
# JSON refuses NUL) and a surrogate without its pair (no UTF-8 for it: SQLite fails).
_ESCAPED_CONTROL = re.compile(r"\\u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])")
_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


def parse_json_numbers(text: str) -> Any:
    """JSON with the number limits and without the escapes above, at C speed (0.35 s for
    15 MB): for a document stored at once and scanned whole later (`load_json`'s depth,
    lengths and control characters). Raises LimitExceeded, ``ValueError`` or
    RecursionError (nesting beyond Python's limit)."""
    control = _ESCAPED_CONTROL.search(text)
    if control is not None:
        check_text(chr(int(control.group()[2:], 16)))  # raises LimitExceeded
    if _LONE_SURROGATE.search(text) is not None:
        raise ValueError("lone surrogate")
    return json.loads(
        text, parse_int=_number(int), parse_float=_number(float), parse_constant=_refuse_constant
    )


def load_json(content: bytes | str) -> Any:
    """Parse JSON within the archive limits; raises LimitExceeded or ``ValueError``."""
    size = len(content.encode() if isinstance(content, str) else content)
    check_size(size, "archive_bytes")
    if isinstance(content, bytes):
        content = codecs.decode(content, "utf-8-sig")
    _scan_json_structure(content)
    data = json.loads(
        content,
        parse_int=_number(int),
        parse_float=_number(float),
        parse_constant=_refuse_constant,
    )
    _check_strings(data)
    return data
