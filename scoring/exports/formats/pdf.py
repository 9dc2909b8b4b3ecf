"""PDF with WeasyPrint, which reads nothing but the app's own static files.

The HTML comes from Django templates (autoescaped, so a name is text, never markup).
WeasyPrint gets `StaticOnlyFetcher`: it serves `/static/...` and `data:` URIs (the QR codes),
and refuses everything else (http, https, file, ftp, ...) without opening it, whatever a
player name or a note contains.

A static URL is looked up with the staticfiles finders (the source folders), then in the
configured static storage: the names `{% static %}` gives with DEBUG off (the manifest's
hashed `css/print.<hash>.css`) exist only there, in STATIC_ROOT after `collectstatic`, which
also serves a machine without the source tree.

Progress: WeasyPrint logs "Creating layout - Page N" on its progress logger; a handler
passes those records to the callback registered for the rendering thread.
"""

from __future__ import annotations

import base64
import logging
import mimetypes
import threading
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlencode, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.utils.html import escape
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from scoring.exports.formats.weasy import write_pdf
from scoring.exports.tables import Progress

# A made-up origin: relative and `/static/` URLs in the templates resolve against it, and
# the fetcher maps it to the staticfiles finders. `.invalid` never resolves on a network.
BASE_URL = "https://romme-ledger.invalid/"
log = logging.getLogger(__name__)


class FetchRefused(ValueError):
    """Raised for every URL that is not one of the app's static files or a data: URI."""


def _static_prefix() -> str:
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    return prefix if prefix.endswith("/") else prefix + "/"


def static_name(url: str) -> str | None:
    """The static file's name (relative to STATIC_URL) behind a URL of ours, or None."""
    parts = urlsplit(url)
    origin = urlsplit(BASE_URL)
    if (parts.scheme, parts.netloc) != (origin.scheme, origin.netloc):
        return None
    path = unquote(parts.path)
    prefix = _static_prefix()
    if not path.startswith(prefix):
        return None
    relative = path[len(prefix) :]
    if not relative or "\\" in relative or any(p in ("", ".", "..") for p in relative.split("/")):
        return None
    return relative


def _from_storage(name: str) -> bytes | None:
    """The collected file (hashed or not) from the static storage, or None."""
    try:
        if not staticfiles_storage.exists(name):
            return None
        with staticfiles_storage.open(name) as handle:
            return handle.read()
    except Exception:  # SuspiciousFileOperation, no STATIC_ROOT, ...: not ours to serve.
        return None


def _from_finders(name: str) -> bytes | None:
    """The source file from the staticfiles finders (the app folders), or None."""
    try:
        found = finders.find(name)
    except Exception:  # SuspiciousFileOperation and the like: not ours to serve.
        return None
    if not found:
        return None
    try:
        return Path(found).read_bytes()
    except OSError:
        return None


def static_content(url: str) -> tuple[str, bytes] | None:
    """(name, bytes) of one of the app's static files behind `url`, or None."""
    name = static_name(url)
    if name is None:
        return None
    # The source folders first (a stale STATIC_ROOT never hides an edited stylesheet), then
    # the collected files: the hashed names only exist there.
    for source in (_from_finders, _from_storage):
        content = source(name)
        if content is not None:
            return name, content
    return None


QR_PATH = "/qr/"


def qr_image_url(text: str) -> str:
    """The image of a QR code of `text` in a PDF: drawn by the fetcher where the page is
    laid out, so a long print's QR codes are drawn in its worker processes, not one after
    the other before them (about 8 ms each: 0.8 s of 100 score sheets)."""
    return BASE_URL.rstrip("/") + QR_PATH + "?" + urlencode({"text": text})


def qr_text(url: str) -> str | None:
    """The text of a qr_image_url, or None."""
    parts, origin = urlsplit(url), urlsplit(BASE_URL)
    if (parts.scheme, parts.netloc, parts.path) != (origin.scheme, origin.netloc, QR_PATH):
        return None
    texts = parse_qs(parts.query).get("text", [])
    return texts[0] if len(texts) == 1 and len(texts[0]) <= 1000 else None


class StaticOnlyFetcher(URLFetcher):
    """The only URL fetcher the exports give WeasyPrint (tests spy on `fetch`): the app's
    static files, data: URIs and QR codes (qr_image_url)."""

    def __init__(self):
        super().__init__(allowed_protocols=("https", "data"), fail_on_errors=False)

    def fetch(self, url, headers=None):
        if url.startswith("data:"):
            return _data_uri(url)
        text = qr_text(url)
        if text is not None:
            from scoring.sheets.codes import qr_png

            return URLFetcherResponse(url, qr_png(text), {"Content-Type": "image/png"})
        found = static_content(url)
        if found is None:
            log.warning("PDF export refused to fetch %r", url[:200])
            raise FetchRefused(f"not one of the app's static files: {url[:200]}")
        name, content = found
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, content, {"Content-Type": content_type})


def _data_uri(url: str):
    header, sep, payload = url[5:].partition(",")
    if not sep:
        raise FetchRefused("malformed data: URI")
    if header.endswith(";base64"):
        body = base64.b64decode(payload)
        header = header.removesuffix(";base64")
    else:
        body = unquote(payload).encode()
    return URLFetcherResponse(url, body, {"Content-Type": header or "text/plain"})


def make_url_fetcher() -> StaticOnlyFetcher:
    return StaticOnlyFetcher()


# ----- progress from WeasyPrint's layout ---------------------------------------------------


_callbacks: dict[int, Progress] = {}
_callbacks_lock = threading.Lock()
_handler_installed = False


class _LayoutProgressHandler(logging.Handler):
    def emit(self, record):
        callback = _callbacks.get(record.thread)
        if callback is None:
            return
        message = str(record.msg)
        if message.startswith("Step 5 - Creating layout - Page") and record.args:
            # Progress must never break the export.
            with suppress(Exception):
                callback(int(record.args[0]), 0, "page")


def _install_handler() -> None:
    global _handler_installed
    with _callbacks_lock:
        if _handler_installed:
            return
        # (Kept out of the console by settings.LOGGING.)
        logging.getLogger("weasyprint.progress").addHandler(_LayoutProgressHandler())
        _handler_installed = True


@contextmanager
def layout_progress(callback: Progress | None):
    _install_handler()
    if callback is None:
        yield
        return
    ident = threading.get_ident()
    with _callbacks_lock:
        _callbacks[ident] = callback
    try:
        yield
    finally:
        with _callbacks_lock:
            _callbacks.pop(ident, None)


# print.css parsed once a thread, with the fonts it names: 37 ms of every document, and a
# standings print has six parts and a footer document (docs/performance-log.md, session
# 27). Once a thread, because a FontConfiguration (Pango's font map) is not shared between
# threads; by the sheet's URL, which carries its hash in production.
_parsed = threading.local()


@receiver(setting_changed)
def _forget_parsed_sheets(setting, **kwargs):
    if setting.startswith("STATIC") or setting in ("STORAGES", "DEBUG"):  # (the tests)
        _parsed.sheets = {}


def print_css_link(href: str | None = None) -> str:
    """The link to print.css as exports/document.html writes it."""
    return f'<link rel="stylesheet" href="{escape(href or static("css/print.css"))}">'


def with_print_css(html: str, stylesheets: list | None = None) -> tuple[str, dict]:
    """The document without its link to print.css, and WeasyPrint's `render` options that
    give it that sheet parsed once. print.css becomes the first user sheet, before
    `stylesheets`: it gives way to a document's own `<style>` whatever the selectors'
    weight; those rules came after it and repeat its selectors or set what it leaves open,
    so they won before as well. The pages are byte for byte the same (tests/exports)."""
    href = static("css/print.css")
    link = print_css_link(href)
    if link not in html:
        return html, {"stylesheets": stylesheets or []}
    sheets = getattr(_parsed, "sheets", None)
    if sheets is None:
        sheets = _parsed.sheets = {}
    if link not in sheets:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        fonts = FontConfiguration()
        url = urljoin(BASE_URL, href)
        sheets[link] = (CSS(url=url, url_fetcher=make_url_fetcher(), font_config=fonts), fonts)
    sheet, fonts = sheets[link]
    options = {"stylesheets": [sheet, *(stylesheets or [])], "font_config": fonts}
    return html.replace(link, "", 1), options


def render_pdf(html: str, *, progress: Progress | None = None, expected_pages: int = 1) -> bytes:
    """Lay out and write the PDF; reports "page n of about m" while laying out."""
    total = max(1, expected_pages)
    state = {"done": 0}

    def on_page(page, _total, _unit):
        state["done"] = max(state["done"], page)
        if progress:
            progress(state["done"], max(total, state["done"]), "page")

    with layout_progress(on_page if progress else None):
        html, options = with_print_css(html)
        document = HTML(string=html, base_url=BASE_URL, url_fetcher=make_url_fetcher())
        data, pages = write_pdf(document, options)
    if progress:
        progress(pages, pages, "page")
    return data
