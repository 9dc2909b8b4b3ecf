"""A written document's boxes are freed by reference counting (scoring.exports.formats.weasy):
the same PDF as WeasyPrint's own way, a fifth of its cyclic garbage or less (what is left is
the HTML parser's tree and the anonymous boxes' styles, each a cycle of its own). A new
WeasyPrint that ties the boxes into another cycle fails here, not only in the bench. And the
HTML parser's regex cache, mended there, builds each pattern once and parses the same tree."""

import gc
import xml.etree.ElementTree as ET

import pytest
import tinyhtml5.inputstream
from weasyprint import HTML

from scoring.exports.formats import weasy
from scoring.exports.formats.pdf import BASE_URL, make_url_fetcher, with_print_css
from scoring.exports.formats.weasy import write_pdf
from scoring.exports.registry import get_exporter
from scoring.exports.rendering import render_document
from tests.exports.test_pdf_prints import _event

pytestmark = pytest.mark.django_db


def _cyclic_garbage(write) -> tuple[bytes, int]:
    """What `write` returns, and how many objects it left that only the collector frees."""
    gc.collect()
    gc.disable()
    try:
        data = write()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = len(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    return data, left


@pytest.mark.parametrize("slug", ["standings", "score-sheets"])
def test_written_document_leaves_its_boxes_to_reference_counting(club_a, slug):
    event = _event(club_a, 100, series=2, rounds=1, seed=5)
    obj = event if slug == "standings" else event.series.get(number=1)
    html, options = with_print_css(render_document(get_exporter(slug), obj, "pdf"))

    def document():
        return HTML(string=html, base_url=BASE_URL, url_fetcher=make_url_fetcher())

    plain, plain_left = _cyclic_garbage(lambda: document().render(**options).write_pdf())
    (ours, pages), ours_left = _cyclic_garbage(lambda: write_pdf(document(), options))
    assert ours == plain  # (the score sheets' grids are SVG images: their cycle is cut too)
    assert pages >= 2
    assert plain_left > 20_000  # WeasyPrint's cycles hold every box
    assert ours_left * 5 <= plain_left, (ours_left, plain_left)


def test_html_parser_builds_each_regular_expression_once(club_a, monkeypatch):
    """tinyhtml5 2.1.0 stored the regex of `chars_until` under a key no lookup uses, so it
    built one for each of the ten thousand calls of a print; our cache (weasy._RegexCache)
    builds each once, and the tree parsed is the same."""
    event = _event(club_a, 40, series=1, rounds=1, seed=7)
    html = render_document(get_exporter("score-sheets"), event.series.get(number=1), "pdf")
    assert isinstance(tinyhtml5.inputstream.characters_until_regex, weasy._RegexCache)

    def tree(cache) -> bytes:
        monkeypatch.setattr(tinyhtml5.inputstream, "characters_until_regex", cache)
        return ET.tostring(tinyhtml5.parse(html, namespace_html_elements=False))

    built = []
    missing = weasy._RegexCache.__missing__
    monkeypatch.setattr(weasy._RegexCache, "__missing__",
                        lambda self, key: built.append(key) or missing(self, key))  # fmt: skip
    ours = weasy._RegexCache()
    assert tree(ours) == tree({})  # the same tree as tinyhtml5's own (empty) cache
    assert 3 <= len(built) == len(ours) <= 20
    tree(ours)
    assert len(built) == len(ours)  # a second parse builds none
