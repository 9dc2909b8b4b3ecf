"""Hostile files, built quickly and without holding their unpacked size in memory."""

from __future__ import annotations

import io
import zipfile

GIB = 1024 * 1024 * 1024
MIB = 1024 * 1024
HEADER = ["Spielernummer", "Vorname", "Nachname"]


NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006"
CONTENT_TYPES = f"""<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="{PKG}/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
<Override PartName="/xl/sharedStrings.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>
</Types>""".encode()
ROOT_RELS = f"""<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="{PKG}/relationships">
<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/>
</Relationships>""".encode()
WORKBOOK = f"""<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{REL}">
<sheets><sheet name="Spieler" sheetId="1" r:id="rId1"/></sheets></workbook>""".encode()
WORKBOOK_RELS = f"""<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="{PKG}/relationships">
<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>
<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>
</Relationships>""".encode()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plain_xlsx(rows=(("1", "Anna", "Abel"),)) -> bytes:
    """A minimal workbook as Excel writes it: every text cell a shared string."""
    table = [HEADER, *[list(r) for r in rows]]
    strings: list[str] = []
    sheet = [b"<worksheet " + NS + b"><sheetData>"]
    for r, row in enumerate(table, start=1):
        cells = []
        for c, value in enumerate(row):
            strings.append(value)
            cells.append(f'<c r="{chr(65 + c)}{r}" t="s"><v>{len(strings) - 1}</v></c>')
        sheet.append(f'<row r="{r}">{"".join(cells)}</row>'.encode())
    sheet.append(b"</sheetData></worksheet>")
    sst = b"".join(f"<si><t>{_escape(s)}</t></si>".encode() for s in strings)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", CONTENT_TYPES)
        zf.writestr("_rels/.rels", ROOT_RELS)
        zf.writestr("xl/workbook.xml", WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        zf.writestr("xl/worksheets/sheet1.xml", b"".join(sheet))
        zf.writestr("xl/sharedStrings.xml", b"<sst " + NS + b">" + sst + b"</sst>")
    return out.getvalue()


def _rewrite(base: bytes, replace: dict, *, level=9) -> bytes:
    """``base`` with some members replaced; a value may be bytes or an iterable of chunks,
    written (compressed) as it comes."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base)) as src,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as dst,
    ):
        for info in src.infolist():
            body = replace.pop(info.filename, None)
            if body is None:
                dst.writestr(info.filename, src.read(info))
                continue
            with dst.open(info.filename, "w", force_zip64=True) as stream:
                for chunk in [body] if isinstance(body, bytes) else body:
                    stream.write(chunk)
        for name, body in replace.items():
            dst.writestr(name, body if isinstance(body, bytes) else b"".join(body))
    return out.getvalue()


SST_OPEN = b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'


def _huge_string(size: int):
    yield SST_OPEN
    for text in HEADER:
        yield f"<si><t>{text}</t></si>".encode()
    yield b"<si><t>"
    chunk = b"A" * MIB
    for _ in range(size // MIB):
        yield chunk
    yield b"</t></si></sst>"


def shared_string_bomb(size: int = 256 * MIB) -> bytes:
    """About 260 KB packed: one cell whose shared string unpacks to ``size`` bytes
    (compressed about 1000-fold; 1 GiB behaves the same but takes 15 s to build)."""
    base = plain_xlsx(rows=[("1", "Anna", "Abel")])
    return _rewrite(base, {"xl/sharedStrings.xml": _huge_string(size)})


def modest_long_cell(chars: int = 20_000) -> bytes:
    """Below every size limit, but one cell is longer than the cell limit."""
    return plain_xlsx(rows=[("1", "A" * chars, "Abel")])


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<si><t>Spielernummer</t></si><si><t>Vorname</t></si><si><t>Nachname</t></si>
<si><t>&lol9;</t></si></sst>"""

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<si><t>Spielernummer</t></si><si><t>Vorname</t></si><si><t>Nachname</t></si>
<si><t>&xxe;</t></si></sst>"""


def billion_laughs_xlsx() -> bytes:
    return _rewrite(plain_xlsx(), {"xl/sharedStrings.xml": BILLION_LAUGHS})


def xxe_xlsx() -> bytes:
    return _rewrite(plain_xlsx(), {"xl/sharedStrings.xml": XXE})


def _many_rows(rows: int):
    yield b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    yield b"<sheetData>"
    for start in range(1, rows + 1, 1000):
        yield b"".join(
            b'<row r="%d"><c r="A%d"><v>%d</v></c></row>' % (i, i, i * 7919)
            for i in range(start, min(start + 1000, rows + 1))
        )
    yield b"</sheetData></worksheet>"


def row_bomb(rows: int = 30_000) -> bytes:
    """Rows of distinct numbers: an ordinary compression ratio, but far too many rows."""
    return _rewrite(plain_xlsx(), {"xl/worksheets/sheet1.xml": _many_rows(rows)})


def forged_dimension_xlsx() -> bytes:
    """A sheet whose cell sits in column XFD and row 1048576: padding it would be huge."""
    sheet = (
        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b'<dimension ref="A1:XFD1048576"/><sheetData>'
        b'<row r="1"><c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>'
        b'<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>'
        b"</sheetData></worksheet>"
    )
    return _rewrite(plain_xlsx(), {"xl/worksheets/sheet1.xml": sheet})


def long_line_csv(chars: int = 4 * MIB) -> bytes:
    return b"Spielernummer;Vorname;Nachname\n1;" + b"A" * chars + b";Abel\n"


def many_rows_csv(rows: int = 400_000) -> bytes:
    return b"Spielernummer;Vorname;Nachname\n" + b"1;A;B\n" * rows


def many_columns_csv(columns: int = 5_000) -> bytes:
    return b"Spielernummer;Vorname;Nachname\n" + b";" * columns + b"\n"


def deep_json(depth: int = 1_000_000) -> bytes:
    return b"[" * depth + b"]" * depth


def huge_number_json(digits: int = 1_000_000) -> bytes:
    return b'{"format": 1' + b"9" * digits + b"}"


def long_array_json(items: int = 5_000_000) -> bytes:
    return b"[" + b"0," * (items - 1) + b"0]"
