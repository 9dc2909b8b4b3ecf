"""PDFs with DEBUG off: static files come from `collectstatic`'s manifest storage.

With DEBUG off `{% static %}` names the hashed file (`css/print.<hash>.css`); the PDF
fetcher must find it in STATIC_ROOT, or the PDF loses its stylesheet (serif text, no
footer). These tests collect the static files into a temporary STATIC_ROOT as
`make serve-prod` does.
"""

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

from scoring.exports.formats import pdf
from scoring.exports.registry import get_exporter
from scoring.exports.rendering import render_document, render_export
from tests.pdf_checks import embedded_fonts, print_style_problems

pytestmark = pytest.mark.django_db

MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def static_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root, STORAGES=MANIFEST, DEBUG=False):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production(static_root):
    with override_settings(STATIC_ROOT=static_root, STORAGES=MANIFEST, DEBUG=False):
        yield static_root


def _standings_pdf(series_a):
    with translation.override("de"):
        return render_export("standings", series_a.event, "pdf")[0]


def test_the_html_names_the_hashed_stylesheet(production, series_a):
    with translation.override("de"):
        html = render_document(get_exporter("standings"), series_a.event, "pdf")
    hashed = [p.name for p in production.glob("css/print.*.css")]
    assert len(hashed) == 1
    assert f'href="/static/css/{hashed[0]}"' in html
    assert "/static/css/print.css" not in html


def test_standings_pdf_is_styled_with_debug_off(production, series_a):
    content = _standings_pdf(series_a)
    assert print_style_problems(content, "de") == []


def test_pdf_styled_without_the_source_tree(production, series_a):
    # A server with only the collected files: no STATICFILES_DIRS, no app static folders.
    finders_off = {"STATICFILES_DIRS": [], "STATICFILES_FINDERS": []}
    with override_settings(**finders_off):
        content = _standings_pdf(series_a)
    assert print_style_problems(content, "de") == []


def test_every_pdf_of_a_series_is_styled_with_debug_off(production, series_a):
    for slug in ("seating", "score-sheets"):
        with translation.override("de"):
            content = render_export(slug, series_a, "pdf")[0]
        assert print_style_problems(content, "de") == [], slug


def test_the_check_sees_an_unstyled_pdf():
    # The same check on a PDF without print.css: serif, no footer.
    content = pdf.render_pdf("<h1>Rangliste</h1><p>Seite ohne Stil</p>")
    problems = print_style_problems(content, "de")
    assert any("print font" in p for p in problems)
    assert any("footer" in p for p in problems)
    assert not any(name.startswith("DejaVuSans") for name in embedded_fonts(content))


@pytest.mark.parametrize(
    "url",
    [
        "https://romme-ledger.invalid/static/../romme/settings.py",
        "https://romme-ledger.invalid/static/staticfiles.json/../../etc/passwd",
        "https://romme-ledger.invalid/etc/passwd",
        "http://example.invalid/static/css/print.css",
        "file:///etc/passwd",
    ],
)
def test_the_fetcher_still_refuses_everything_else(production, url):
    with pytest.raises(pdf.FetchRefused):
        pdf.make_url_fetcher().fetch(url)


def test_the_fetcher_serves_the_hashed_file(production):
    hashed = next(production.glob("css/print.*.css"))
    response = pdf.make_url_fetcher().fetch(
        f"https://romme-ledger.invalid/static/css/{hashed.name}"
    )
    assert b"@page" in response.read()
