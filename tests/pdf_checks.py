"""What the print stylesheet gives a PDF, read back with pypdf.

Shared by the export tests and the production smoke (`python -m tests.prod_smoke`):
a PDF laid out with `static/css/print.css` embeds DejaVu Sans (the stylesheet's font;
WeasyPrint's default without it is a serif) and has "Page n of N" ("Seite n von N") in the
footer of every page.
"""

from __future__ import annotations

import io
import re

PRINT_FONT = "DejaVuSans"
FOOTER = {
    "de": re.compile(r"Seite (\d+) von (\d+)"),
    "en": re.compile(r"Page (\d+) of (\d+)"),
}


def embedded_fonts(content: bytes) -> set[str]:
    """The base font names of every page ("DejaVuSans", "DejaVuSansBold", ...)."""
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(io.BytesIO(content)).pages:
        resources = page.get("/Resources") or {}
        fonts = resources.get("/Font") or {}
        for ref in fonts.values():
            base = str(ref.get_object().get("/BaseFont", ""))
            # Subset fonts are named "/ABCDEF+DejaVuSans".
            # WeasyPrint writes "DejaVu-Sans-Bold"; compare without the separators.
            name = base.lstrip("/").split("+", 1)[-1]
            names.add(name.replace("-", "").replace(" ", ""))
    return names


def page_texts(content: bytes) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def print_style_problems(content: bytes, language: str = "de") -> list[str]:
    """Why `content` does not look styled by print.css (empty if it does)."""
    problems = []
    if not content.startswith(b"%PDF"):
        return ["not a PDF"]
    fonts = embedded_fonts(content)
    if not any(name.startswith(PRINT_FONT) and "Mono" not in name for name in fonts):
        problems.append(f"print font {PRINT_FONT} not embedded (fonts: {sorted(fonts)})")
    if any("Serif" in name for name in fonts):
        problems.append(f"a serif font is embedded: {sorted(fonts)}")
    texts = page_texts(content)
    pattern = FOOTER[language]
    for number, text in enumerate(texts, start=1):
        match = pattern.search(text)
        if match is None or (int(match[1]), int(match[2])) != (number, len(texts)):
            problems.append(f"page {number}: no footer like {pattern.pattern!r}")
            break
    return problems
