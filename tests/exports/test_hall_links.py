"""Every QR code and table link uses the hall address, never the address of the director's
own browser (issue 26, item 2): the table-links page, the score sheets and the seating list
as page and PDF; no QR that cannot work (no network, localhost), and a warning instead."""

import io

import pytest
from django.urls import reverse
from PIL import Image

from common.lan import Interface
from tests.exports.conftest import pdf_text, read_pdf
from tests.exports.test_table_link_qr import _same_qr

pytestmark = pytest.mark.django_db
HALL = "http://192.168.1.23:8000"
LAPTOP = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000"}


def _phone_url(link) -> str:
    return HALL + reverse("scoring:table_phone", kwargs={"token": link.token})


def _links_page(client, series):
    return client.get(reverse("scoring:table_links", args=[series.pk]), **LAPTOP)


def _pdf(client, series, slug):
    url = reverse("exports:export", args=["series", series.pk, slug, "pdf"])
    response = client.get(url, **LAPTOP)
    assert response.status_code == 200, response.status_code
    return b"".join(response.streaming_content) if response.streaming else response.content


def _images(content):
    return [Image.open(io.BytesIO(i.data)) for p in read_pdf(content).pages for i in p.images]


def test_the_director_at_127_0_0_1_gets_the_hall_address(
    client, series_a, links, organiser_a, hall_mode
):
    client.force_login(organiser_a)
    page = _links_page(client, series_a).content.decode()
    assert _phone_url(links[1]) in page and _phone_url(links[2]) in page
    assert "127.0.0.1" not in page.split("<main", 1)[1].split("link-cards", 1)[1]
    assert 'id="links-address"' in page and "links-local" not in page
    for slug in ("score-sheets", "seating"):
        content = _pdf(client, series_a, slug)
        text = pdf_text(content).replace("\n", "")
        assert _phone_url(links[1]) in text and "127.0.0.1" not in text, slug
        images = _images(content)
        assert any(_same_qr(image, _phone_url(links[1])) for image in images), slug


def test_hall_url_is_printed_when_set(client, series_a, links, organiser_a, hall_mode, settings):
    settings.HALL_URL = "http://10.10.0.1:8000"
    from common import lan

    lan.forget_cached_address()
    client.force_login(organiser_a)
    content = _pdf(client, series_a, "score-sheets")
    url = "http://10.10.0.1:8000" + reverse("scoring:table_phone", args=[links[1].token])
    assert url in pdf_text(content).replace("\n", "")
    assert any(_same_qr(image, url) for image in _images(content))


def test_no_network_no_qr_but_a_plain_message(
    client, series_a, links, organiser_a, hall_mode, network
):
    network[:] = [Interface("lo", "127.0.0.1", True)]
    from common import lan

    lan.forget_cached_address()
    client.force_login(organiser_a)
    page = _links_page(client, series_a).content.decode()
    assert 'id="links-no-network"' in page and "link-qr-missing" in page
    assert 'class="link-qr"' not in page
    for slug in ("score-sheets", "seating"):
        content = _pdf(client, series_a, slug)
        text = pdf_text(content).replace("\n", " ")
        assert "No QR code" in text and "had no network" in text, slug
        assert not _images(content), slug  # no QR that cannot work


def test_localhost_links_warn_outside_the_hall_mode(client, series_a, links, organiser_a, settings):
    """`make run` on 127.0.0.1: the links would point to localhost; say so, print no QR."""
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    client.force_login(organiser_a)
    page = _links_page(client, series_a).content.decode()
    assert 'id="links-local"' in page and 'class="link-qr"' not in page
    text = pdf_text(_pdf(client, series_a, "score-sheets")).replace("\n", " ")
    assert "No QR code" in text and "localhost" in text
    assert "(romme-ledger hall)" in text  # the command a club's install has, on one line


def test_a_new_address_asks_for_new_prints(
    client, series_a, links, organiser_a, hall_mode, network
):
    from common import lan

    client.force_login(organiser_a)
    assert 'id="links-moved"' not in _links_page(client, series_a).content.decode()
    network[1] = Interface("wlan0", "10.0.0.7", True)
    lan.forget_cached_address()
    page = _links_page(client, series_a).content.decode()
    assert 'id="links-moved"' in page
    assert "http://10.0.0.7:8000/t/" in page and HALL in page  # now and before
    # Links made after the change carry the new address: no warning for them.
    from scoring.models import TableLink
    from scoring.sheets.table import links as table_links

    for link in links.values():
        table_links.revoke_table_link(organiser_a, link)
    TableLink.objects.all().delete()
    table_links.create_table_links(organiser_a, series_a)
    assert 'id="links-moved"' not in _links_page(client, series_a).content.decode()
