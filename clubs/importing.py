"""Reading player files (CSV or XLSX) and planning what an import would change.

Nothing here writes: `read_player_file` turns bytes into rows and problems, `plan_import`
compares them with the registry. `clubs.services.apply_player_import` writes the plan.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from common import limits

# Header spellings accepted for each field, lower-cased; German first, as our users write.
COLUMNS = {
    "player_number": (
        "spielernummer",
        "passnummer",
        "pass-nr",
        "pass-nr.",
        "nr",
        "nr.",
        "player_number",
        "player number",
        "number",
    ),
    "given_name": ("vorname", "given_name", "given name", "first name", "first_name"),
    "family_name": (
        "nachname",
        "familienname",
        "name",
        "family_name",
        "family name",
        "last name",
        "surname",
    ),
    "birth_year": ("geburtsjahr", "jahrgang", "birth_year", "birth year", "year of birth"),
    "active": ("aktiv", "active"),
    "gender": ("geschlecht", "gender", "sex"),
    "member_from": (
        "mitglied seit",
        "eintritt",
        "member_from",
        "member from",
        "member since",
    ),
}
REQUIRED = ("player_number", "given_name", "family_name")
# The optional column "Geschlecht": the registry's codes (clubs.models.Gender).
GENDER_WORDS = {
    "w": "f", "weiblich": "f", "f": "f", "female": "f",
    "m": "m", "männlich": "m", "maennlich": "m", "male": "m",
    "d": "d", "divers": "d", "diverse": "d",
}  # fmt: skip
MAX_LENGTH = {"player_number": 30, "given_name": 100, "family_name": 100}
TRUE_WORDS = {"", "1", "ja", "j", "yes", "y", "true", "wahr", "x", "aktiv", "active"}
FALSE_WORDS = {"0", "nein", "n", "no", "false", "falsch", "inaktiv", "inactive"}


class ImportFileError(Exception):
    """The file as a whole cannot be read; the message says why and what to do."""


@dataclass
class RowProblem:
    row: int
    column: str
    message: str
    severity: str = "error"  # "error" skips the row, "warning" only informs


@dataclass
class ImportRow:
    row: int
    values: dict
    problems: list[RowProblem] = field(default_factory=list)
    action: str = ""  # create, update, unchanged, skip
    player_id: int | None = None
    changes: list[str] = field(default_factory=list)

    @property
    def has_errors(self):
        return any(p.severity == "error" for p in self.problems)


@dataclass
class ParsedFile:
    rows: list[ImportRow]
    columns: list[str]
    notices: list[str] = field(default_factory=list)


def _decode(content: bytes) -> tuple[str, list[str]]:
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return content.decode("utf-16"), []
    if b"\x00" in content[:4096]:
        raise ImportFileError(
            _("This is not a text file. Save the list as CSV (UTF-8) or as an Excel file (.xlsx).")
        )
    try:
        return content.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        utf8_error = exc
    try:
        text = content.decode("cp1252")
    except UnicodeDecodeError:
        raise ImportFileError(
            _(
                "The file's text encoding could not be read (byte %(position)d is not UTF-8). "
                "Save the list as “CSV UTF-8” and upload it again."
            )
            % {"position": utf8_error.start + 1}
        ) from None
    # Excel on German Windows still writes CSV in Windows-1252: read it, but say so.
    return text, [
        _(
            "The file is not UTF-8; it was read as Windows-1252 (Excel's default). "
            "Check the umlauts in the preview before you confirm."
        )
    ]


def _read_csv(content: bytes) -> tuple[list[list[str]], list[str]]:
    text, notices = _decode(content)
    sample = text[:8192]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=";,\t")
    except csv.Error:
        dialect = csv.excel
        if sample.count(";") > sample.count(","):
            dialect = type("semicolon", (csv.excel,), {"delimiter": ";"})
    return list(limits.iter_csv_rows(text, dialect)), notices


def _read_xlsx(content: bytes) -> list[list]:
    return list(limits.iter_xlsx_rows(content))


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value).strip()


def _parse_date(text: str) -> dt.date | None:
    for fmt in ("%d.%m.%Y", "%Y-%m-%d", "%d.%m.%y"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError(text)


def read_player_file(filename: str, content: bytes) -> ParsedFile:
    """Read a CSV or XLSX registry file into rows, each with its problems."""
    if not content or not content.strip():
        raise ImportFileError(_("The file is empty."))
    notices: list[str] = []
    name = filename.lower()
    try:
        limits.check_size(len(content), "player_file_bytes")
        if name.endswith(".xlsx") or content.startswith(b"PK\x03\x04"):
            table = _read_xlsx(content)
        elif name.endswith((".csv", ".txt")):
            table, notices = _read_csv(content)
        else:
            raise ImportFileError(_("Upload a .csv or .xlsx file."))
    except limits.LimitExceeded as error:
        raise ImportFileError(str(error)) from None

    table = [row for row in table if any(_cell_text(v) for v in row)]
    if not table:
        raise ImportFileError(_("The file is empty."))
    header = [_cell_text(v).lower() for v in table[0]]
    positions: dict[str, int] = {}
    for key, spellings in COLUMNS.items():
        for index, title in enumerate(header):
            if title in spellings:
                positions.setdefault(key, index)
    missing = [key for key in REQUIRED if key not in positions]
    if missing:
        raise ImportFileError(
            _(
                "Columns missing: %(missing)s. The first row must name the columns, for "
                "example: Spielernummer; Vorname; Nachname; Geburtsjahr. Found: %(found)s."
            )
            % {
                "missing": ", ".join(COLUMNS[k][0].title() for k in missing),
                "found": ", ".join(h for h in header if h) or "–",
            }
        )
    body = table[1:]
    if len(body) > limits.limit("player_rows"):
        raise ImportFileError(
            _("The file has %(rows)d rows; at most %(max)d can be imported at once.")
            % {"rows": len(body), "max": limits.limit("player_rows")}
        )

    rows: list[ImportRow] = []
    seen_numbers: dict[str, int] = {}
    this_year = dt.date.today().year
    for offset, raw in enumerate(body):
        number = offset + 2  # the row number a spreadsheet shows, header being row 1
        values = {
            key: _cell_text(raw[index]) if index < len(raw) else ""
            for key, index in positions.items()
        }
        row = ImportRow(row=number, values=values)
        problems = row.problems
        for key, value in values.items():
            if limits.has_control_chars(value):
                values[key] = limits.CONTROL_CHARS.sub("", value)
                problems.append(
                    RowProblem(number, key, _("Contains control characters (such as NUL).")),
                )
        for key in REQUIRED:
            if not values.get(key):
                problems.append(RowProblem(number, key, _("This field is required.")))
        for key, limit in MAX_LENGTH.items():
            if len(values.get(key, "")) > limit:
                problems.append(
                    RowProblem(number, key, _("At most %(n)d characters.") % {"n": limit})
                )
        player_number = values.get("player_number", "")
        if player_number:
            if player_number in seen_numbers:
                problems.append(
                    RowProblem(
                        number,
                        "player_number",
                        _("Player number %(number)s already appears in row %(row)d.")
                        % {"number": player_number, "row": seen_numbers[player_number]},
                    )
                )
            else:
                seen_numbers[player_number] = number
        birth_year = values.get("birth_year", "")
        values["birth_year"] = None
        if birth_year:
            try:
                year = int(birth_year)
                if not 1900 <= year <= this_year:
                    raise ValueError
                values["birth_year"] = year
            except ValueError:
                problems.append(
                    RowProblem(
                        number,
                        "birth_year",
                        _("“%(value)s” is not a birth year between 1900 and %(year)d.")
                        % {"value": birth_year, "year": this_year},
                    )
                )
        raw_gender = values.get("gender", "")
        values["gender"] = GENDER_WORDS.get(raw_gender.strip().casefold(), "")
        if raw_gender.strip() and raw_gender.strip().casefold() not in GENDER_WORDS:
            problems.append(
                RowProblem(
                    number,
                    "gender",
                    _("Row %(row)d: “%(value)s” is not a gender: w, m or d.")
                    % {"row": number, "value": raw_gender},
                )
            )
        raw_active = values.get("active", "")
        active = raw_active.lower()
        values["active"] = active not in FALSE_WORDS  # blank keeps the default: active
        if active not in TRUE_WORDS and active not in FALSE_WORDS:
            problems.append(
                RowProblem(
                    number,
                    "active",
                    _("“%(value)s” is not yes or no (ja/nein).") % {"value": raw_active},
                )
            )
        member_from = values.get("member_from", "")
        values["member_from"] = None
        if member_from:
            try:
                values["member_from"] = _parse_date(member_from)
            except ValueError:
                problems.append(
                    RowProblem(
                        number,
                        "member_from",
                        _("“%(value)s” is not a date such as 01.03.2024.") % {"value": member_from},
                    )
                )
        rows.append(row)
    return ParsedFile(rows=rows, columns=list(positions), notices=notices)


def plan_import(parsed: ParsedFile, club, user) -> list[ImportRow]:
    """Decide per row: create, update, unchanged or skip. Reads the registry, writes nothing."""
    from .models import Membership, Player, make_name_key
    from .permissions import ORGANISER, has_role

    numbers = [r.values["player_number"] for r in parsed.rows if r.values.get("player_number")]
    existing = {p.player_number: p for p in Player.objects.filter(player_number__in=numbers)}
    open_memberships: dict[int, list] = {}
    for membership in Membership.objects.filter(
        player__in=[p.pk for p in existing.values()], valid_until__isnull=True
    ).select_related("club"):
        open_memberships.setdefault(membership.player_id, []).append(membership)

    # Same name and birth year under another number: probably the same person twice.
    new_keys = {
        make_name_key(r.values["given_name"], r.values["family_name"])
        for r in parsed.rows
        if not r.has_errors and r.values["player_number"] not in existing
    }
    lookalikes = {
        (p.name_key, p.birth_year): p for p in Player.objects.filter(name_key__in=new_keys)
    }

    compared = ["given_name", "family_name", "birth_year"]
    for optional in ("active", "gender"):  # a file without the column changes nothing
        if optional in parsed.columns:
            compared.append(optional)
    for row in parsed.rows:
        if row.has_errors:
            row.action = "skip"
            continue
        values = row.values
        player = existing.get(values["player_number"])
        if player is None:
            row.action = "create"
            key = make_name_key(values["given_name"], values["family_name"])
            twin = lookalikes.get((key, values["birth_year"]))
            if twin is not None:
                row.problems.append(
                    RowProblem(
                        row.row,
                        "player_number",
                        _(
                            "Looks like %(name)s (no. %(number)s), already in the registry; "
                            "check the player number."
                        )
                        % {"name": twin.full_name, "number": twin.player_number},
                        severity="warning",
                    )
                )
            continue
        row.player_id = player.pk
        row.changes = [name for name in compared if getattr(player, name) != values[name]]
        memberships = open_memberships.get(player.pk, [])
        if not any(m.club_id == club.pk for m in memberships):
            for other in memberships:
                if not has_role(user, other.club, ORGANISER):
                    row.problems.append(
                        RowProblem(
                            row.row,
                            "player_number",
                            _(
                                "%(name)s is a member of %(club)s; only an organiser of that "
                                "club can move them to this club."
                            )
                            % {"name": player.full_name, "club": other.club.name},
                        )
                    )
            if row.has_errors:
                row.action = "skip"
                continue
            row.changes.append("membership")
        row.action = "update" if row.changes else "unchanged"
    return parsed.rows
