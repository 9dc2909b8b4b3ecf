"""One WeasyPrint document laid out and written, its boxes freed as soon as it is written.

A print's layout makes some 130,000 objects a part (boxes, styles, text layouts), and
WeasyPrint ties them into reference cycles: the layout context holds its own image getter
(`functools.partial(…, context=self)`), and each table's columns their cell getters, closures
over the table. Every box hangs off one of those, so reference counting freed none of them
and the cyclic collector had to walk them all, once while they lived and again to free them:
about a sixth of a print part's CPU (docs/performance-log.md, session 48). Written, the document
is no longer needed; cutting those two links lets reference counting free the whole tree at
once, and the collector, paused during the layout, finds almost nothing left.
tests/exports/test_weasy.py holds the cyclic garbage of our prints under a limit, so that a
new WeasyPrint with another cycle shows here.

WeasyPrint parses the HTML with tinyhtml5, whose tokenizer asks `chars_until` for the run of
characters up to one of a few, ten thousand times in a print. tinyhtml5 2.1.0 caches the
regular expression for each set under the wrong key (`characters = cache[key] = regex` binds
`characters` before the key is built), so every call builds it again: some 40 % of the
parse's instructions. `_RegexCache` keeps the same expressions under the key the lookup uses.
"""

from __future__ import annotations

import re
import threading

import tinyhtml5.inputstream
from weasyprint import DEFAULT_OPTIONS, HTML, Document
from weasyprint.formatting_structure.boxes import TableBox

from common.gc_tuning import cycle_collection_paused

_contexts = threading.local()


class _RegexCache(dict):
    """tinyhtml5's `characters_until_regex`, filled on a miss under the key it is read with:
    `[^…]+` for the characters up to one of ``characters``, `[…]+` for a run of them."""

    def __missing__(self, key: tuple) -> re.Pattern:
        characters, opposite = key
        escaped = "".join(f"\\x{ord(character):02x}" for character in characters)
        regex = self[key] = re.compile(f"[{escaped}]+" if opposite else f"[^{escaped}]+")
        return regex


# Only tinyhtml5's plain dict (not ours again on a reload, nor a later release's own cache).
if type(getattr(tinyhtml5.inputstream, "characters_until_regex", None)) is dict:
    tinyhtml5.inputstream.characters_until_regex = _RegexCache()


class _Document(Document):
    """WeasyPrint's document, remembering the layout context it builds (this thread's)."""

    @classmethod
    def _build_layout_context(cls, *args, **kwargs):
        context = super()._build_layout_context(*args, **kwargs)
        _contexts.last = context
        return context


def write_pdf(html: HTML, options: dict) -> tuple[bytes, int]:
    """The PDF of ``html`` (``options`` as for `HTML.render`) and its number of pages."""
    options = {**DEFAULT_OPTIONS, **options}
    fonts = options.pop("font_config", None)
    with cycle_collection_paused():
        _contexts.last = None
        try:
            document = _Document._render(html, fonts, None, None, options)  # as HTML.render
            data, pages = document.write_pdf(), len(document.pages)
            _cut_cycles(document, _contexts.last)
            del document  # freed here, before the collector runs again
        finally:
            _contexts.last = None
    return data, pages


def _cut_cycles(document: Document, context) -> None:
    if context is not None:  # (its image getter and the SVG images it made refer to it)
        context.__dict__.clear()
    for page in document.pages:
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            if isinstance(box, TableBox):  # its rows hold no table
                for group in box.column_groups:
                    for column in group.children:
                        column.__dict__.pop("get_cells", None)
                continue
            stack.extend(getattr(box, "children", ()))
