"""A written document's boxes are freed by reference counting (scoring.exports.formats.weasy):
the same PDF as WeasyPrint's own way, a fifth of its cyclic garbage or less (what is left is
the HTML parser's tree and the anonymous boxes' styles, each a cycle of its own). A new
WeasyPrint that ties the boxes into another cycle fails here, not only in the bench."""

import gc

import pytest
from weasyprint import HTML

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
