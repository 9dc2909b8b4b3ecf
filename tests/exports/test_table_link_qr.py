"""The printed score sheets and seating list lead the players' phones to their table link
(issue 16): the QR encodes the link, the seat codes stand next to the seats."""

import io

import pytest
import qrcode
from django.urls import reverse
from PIL import Image, ImageChops
from qrcode.constants import ERROR_CORRECT_M

from scoring.exports.exporters.score_sheets import prefilled_sheets
from scoring.exports.rendering import render_export
from scoring.sheets.table import links as table_links
from tests.exports.conftest import pdf_text, read_pdf
from tournaments.models import Series

pytestmark = pytest.mark.django_db
BASE = "http://hall.local"


def _qr_matrix(text: str) -> Image.Image:
    """The QR of ``text`` as codes.qr_data_uri draws it, as black and white pixels."""
    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, box_size=6, border=2)
    qr.add_data(text)
    qr.make(fit=True)
    return qr.make_image().get_image().convert("1")


def _same_qr(image: Image.Image, text: str) -> bool:
    expected = _qr_matrix(text)
    image = image.convert("1")
    return image.size == expected.size and ImageChops.difference(image, expected).getbbox() is None


def _url(link) -> str:
    return BASE + reverse("scoring:table_phone", kwargs={"token": link.token})


def test_sheets_lead_to_the_table_link_with_the_seat_codes(series_a, links, organiser_a):
    table_links.revoke_table_link(organiser_a, links[2])
    first, second = prefilled_sheets(series_a, base_url=BASE)
    assert first.phone and first.url == _url(links[1])
    assert [p.code for p in first.players] == links[1].seat_codes
    # A locked table goes back to the director's entry page, without seat codes.
    assert not second.phone
    assert second.url == f"{BASE}/series/{series_a.pk}/tables/2/sheet/"
    assert {p.code for p in second.players} == {""}


def test_the_printed_qr_decodes_to_the_table_link(series_a, links):
    content, _, _ = render_export("score-sheets", series_a, "pdf", base_url=BASE)
    reader = read_pdf(content)
    for number, page in zip((1, 2), reader.pages, strict=True):
        text = page.extract_text().replace("\n", "")
        assert all(code in text for code in links[number].seat_codes)
        assert _url(links[number]) in text
        images = [Image.open(io.BytesIO(image.data)) for image in page.images]
        assert any(_same_qr(image, _url(links[number])) for image in images)
        # The comparison tells links apart (a URL one character longer is another QR).
        assert not any(_same_qr(image, _url(links[number]) + "x") for image in images)


def test_the_seating_list_carries_each_tables_qr(series_a, links):
    content, _, _ = render_export("seating", series_a, "pdf", base_url=BASE)
    text = pdf_text(content).replace("\n", "")
    assert _url(links[1]) in text and _url(links[2]) in text
    assert not any(code in text for code in links[1].seat_codes)  # codes: score sheet only
    images = [
        Image.open(io.BytesIO(image.data))
        for page in read_pdf(content).pages
        for image in page.images
    ]
    # (pypdf lists the document's shared images on every page)
    assert {n for image in images for n in (1, 2) if _same_qr(image, _url(links[n]))} == {1, 2}


def test_no_table_link_qr_once_the_series_is_over(series_a, links):
    Series.objects.filter(pk=series_a.pk).update(status=Series.Status.COMPLETE)
    series_a.refresh_from_db()
    html = render_export("seating", series_a, "html", base_url=BASE)[0].decode()
    assert "table-link-qrs" not in html and links[1].token not in html
    sheets = prefilled_sheets(series_a, base_url=BASE)
    assert not any(sheet.phone for sheet in sheets)


def test_seat_codes_are_printed_for_scorers_not_viewers(
    client, series_a, links, viewer_a, scorer_a
):
    url = reverse("exports:export", args=["series", series_a.pk, "score-sheets", "html"])
    client.force_login(viewer_a)
    assert client.get(url).status_code == 403
    client.force_login(scorer_a)
    page = client.get(url).content.decode()
    assert links[1].seat_codes[0] in page and links[1].token in page
