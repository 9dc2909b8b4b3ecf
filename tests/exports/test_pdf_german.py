"""Every PDF in German: the title inside the document, the page footer, the job's result."""

import pytest
from django.utils import translation

from scoring.exports.registry import EXPORTERS, SCOPES, exporters_for
from scoring.exports.rendering import render_export
from tests.exports.conftest import pdf_text

pytestmark = pytest.mark.django_db

# Words of the English titles that must not be left in a German PDF's title.
ENGLISH = ("Standings", "Seating list", "Score sheets", "Season ranking", "Player", "workbook")


@pytest.fixture
def objects(club_a, series_a):
    from tournaments.models import Category

    category = Category.objects.create(event=series_a.event, kind="women", name="Damen")
    return {"club": club_a, "event": series_a.event, "series": series_a, "category": category}


def _pdf_exporters():
    for scope in ("club", "event", "series", "category"):
        exporters_for(scope)
    # Scopes of other apps' own pages (the federation's lists) are tested there.
    return sorted(
        (e for e in EXPORTERS.values() if "pdf" in e.formats and e.scope in SCOPES),
        key=lambda exporter: exporter.slug,
    )


def test_every_pdf_title_is_german(objects):
    exporters = _pdf_exporters()
    assert {e.slug for e in exporters} >= {"players", "seating", "score-sheets", "standings"}
    for exporter in exporters:
        obj = objects[exporter.scope]
        with translation.override("en"):
            english = exporter.title(obj)
        with translation.override("de"):
            german = exporter.title(obj)
        assert german != english, exporter.slug
        assert not any(word in german for word in ENGLISH), (exporter.slug, german)


@pytest.mark.parametrize("slug", ["standings", "seating", "players"])
def test_the_pdf_shows_the_german_title_and_footer(objects, slug):
    exporter = EXPORTERS[slug]
    obj = objects[exporter.scope]
    with translation.override("de"):
        title = exporter.title(obj)
        content = render_export(slug, obj, "pdf")[0]
    text = pdf_text(content).replace("\n", " ")
    assert title.split(" – ")[0] in text
    assert "Seite 1 von" in text
