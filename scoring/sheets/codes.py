"""Short codes and QR codes that lead from a printed score sheet to its entry page."""

from __future__ import annotations

import base64
import re
from io import BytesIO

import qrcode
from django.urls import NoReverseMatch, reverse
from django.utils.http import base36_to_int, int_to_base36
from qrcode.constants import ERROR_CORRECT_M

from common.lan import points_to_this_machine

CODE_RE = re.compile(r"^([0-9a-z]{1,8})-([0-9a-z]{1,4})$")


def sheet_code(series_pk: int, table_number: int) -> str:
    """`f"{series.pk}-{table.number}"` in base 36, upper case: series 1234, table 12 -> "YA-C"."""
    return f"{int_to_base36(series_pk)}-{int_to_base36(table_number)}".upper()


def parse_sheet_code(code: str) -> tuple[int, int] | None:
    match = CODE_RE.match(code.strip().casefold())
    if not match:
        return None
    return base36_to_int(match.group(1)), base36_to_int(match.group(2))


def sheet_entry_path(series_pk: int, table_number: int) -> str:
    """The entry page of one table's sheet (built in scoring; the literal path if not yet)."""
    try:
        return reverse("scoring:sheet_entry", args=[series_pk, table_number])
    except NoReverseMatch:
        return f"/series/{series_pk}/tables/{table_number}/sheet/"


def absolute(base_url: str, path: str) -> str:
    return base_url.rstrip("/") + path if base_url else path


NO_ADDRESS = "none"
THIS_MACHINE = "local"


def link_problem(base_url: str) -> str:
    """Why a QR built on ``base_url`` could not work on a phone: NO_ADDRESS (no network
    address known: a relative path), THIS_MACHINE (localhost), or "" when it can."""
    if not base_url.startswith(("http://", "https://")):
        return NO_ADDRESS
    if points_to_this_machine(base_url):
        return THIS_MACHINE
    return ""


def qr_png(text: str) -> bytes:
    """A QR code of `text` as PNG (drawn locally)."""
    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, box_size=6, border=2)
    qr.add_data(text)
    qr.make(fit=True)
    image = qr.make_image(fill_color="black", back_color="white")
    out = BytesIO()
    image.save(out)
    return out.getvalue()


def qr_data_uri(text: str) -> str:
    """A PNG QR code as a data: URI (drawn locally, fetched from nowhere)."""
    return "data:image/png;base64," + base64.b64encode(qr_png(text)).decode("ascii")
