"""Every PDF in German: the title inside the document, the page footer, the job's result."""

import time

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.exports import jobs
from scoring.exports.registry import EXPORTERS, exporters_for
from scoring.exports.rendering import render_export
from tests.exports.conftest import pdf_text

pytestmark = pytest.mark.django_db

# Words of the English titles that must not be left in a German PDF's title.
ENGLISH = ("Standings", "Seating list", "Score sheets", "Season ranking", "Player", "workbook")


@pytest.fixture
def objects(club_a, series_a):
    return {"club": club_a, "event": series_a.event, "series": series_a}


def _pdf_exporters():
    for scope in ("club", "event", "series"):
        exporters_for(scope)
    return sorted(
        (e for e in EXPORTERS.values() if "pdf" in e.formats), key=lambda exporter: exporter.slug
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


@pytest.mark.django_db(transaction=True)
def test_a_job_started_in_german_renders_german(client, scorer_a, series_a, settings):
    # The job thread renders with the language of the request that started it.
    settings.EXPORTS_RUN_JOBS_INLINE = False
    client.force_login(scorer_a)
    event = series_a.event
    url = reverse("exports:job_start", args=["event", event.pk, "standings", "pdf"])
    response = client.post(url, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code in (200, 202, 302)
    job_id = next(p.name for p in jobs.job_root().iterdir() if p.is_dir())
    for _ in range(600):
        status = jobs.read_status(job_id)
        if status["state"] in ("done", "failed"):
            break
        time.sleep(0.05)
    assert status["state"] == "done", status
    text = pdf_text(jobs.result_path(job_id).read_bytes()).replace("\n", " ")
    assert "Wertung (alle bestätigten Listen)" in text
    assert "Standings (all confirmed sheets)" not in text
    assert "Seite 1 von" in text
