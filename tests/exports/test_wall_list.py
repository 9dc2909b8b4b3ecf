"""The wall list: the overall standing on A3 portrait, bordered, large type, German."""

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from scoring.exports.rendering import render_export
from tests.pdf_checks import page_texts, print_style_problems
from tests.standings.db.conftest import generated

pytestmark = pytest.mark.django_db
A3_PORTRAIT = (842, 1191)  # points


def _render(event):
    with translation.override("de"):
        content, filename, content_type = render_export("standings-wall", event, "pdf")
    assert content_type == "application/pdf" and filename.endswith(".pdf")
    return content


def test_wall_list_is_a3_portrait_german_and_styled(club_a):
    event = generated(club_a, 30, series=2, rounds=1)
    content = _render(event)
    page = PdfReader(io.BytesIO(content)).pages[0]
    size = (round(float(page.mediabox.width)), round(float(page.mediabox.height)))
    assert size == A3_PORTRAIT
    assert print_style_problems(content, "de") == []
    text = " ".join(page_texts(content))
    assert "Gesamtwertung" in text and event.name in text
    assert "Platz" in text and "Summe" in text
    assert "VORLÄUFIG" not in text
    # Every player is on the list, in rank order.
    names = [p.player.full_name for p in event.participants.select_related("player")]
    assert all(name in text for name in names)


def test_wall_list_says_provisional_when_a_sheet_is_not_confirmed(club_a):
    from scoring.models import Sheet

    event = generated(club_a, 12, series=2, rounds=1)
    sheet = Sheet.objects.filter(table__series__event=event, table__series__number=2).first()
    sheet.status = Sheet.Status.ENTERED
    sheet.save()
    text = " ".join(page_texts(_render(event)))
    assert "VORLÄUFIG" in text
