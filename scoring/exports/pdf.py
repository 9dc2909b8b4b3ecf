"""PDF with WeasyPrint, which reads nothing but the app's own static files.

The HTML comes from Django templates (autoescaped, so a name is text, never markup).
WeasyPrint gets `StaticOnlyFetcher`: it serves `/static/...` from the staticfiles finders
and `data:` URIs (the QR codes), and refuses everything else (http, https, file, ftp, ...)
without opening it, whatever a player name or a note contains.

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
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from .base import Progress

# A made-up origin: relative and `/static/` URLs in the templates resolve against it, and
# the fetcher maps it to the staticfiles finders. `.invalid` never resolves on a network.
BASE_URL = "https://romme-ledger.invalid/"

log = logging.getLogger(__name__)


class FetchRefused(ValueError):
    """Raised for every URL that is not one of the app's static files or a data: URI."""


def _static_prefix() -> str:
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    return prefix if prefix.endswith("/") else prefix + "/"


def static_path(url: str) -> Path | None:
    """The file behind a URL of the app's static files, or None."""
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
    try:
        found = finders.find(relative)
    except Exception:  # SuspiciousFileOperation and the like: not ours to serve.
        return None
    return Path(found) if found else None


class StaticOnlyFetcher(URLFetcher):
    """The only URL fetcher the exports give WeasyPrint (tests spy on `fetch`)."""

    def __init__(self):
        super().__init__(allowed_protocols=("https", "data"), fail_on_errors=False)

    def fetch(self, url, headers=None):
        if url.startswith("data:"):
            return _data_uri(url)
        path = static_path(url)
        if path is None:
            log.warning("PDF export refused to fetch %r", url[:200])
            raise FetchRefused(f"not one of the app's static files: {url[:200]}")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})


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
        progress_logger = logging.getLogger("weasyprint.progress")
        progress_logger.addHandler(_LayoutProgressHandler())
        # The page-by-page records feed the progress bars; keep them out of the console.
        progress_logger.setLevel(logging.INFO)
        progress_logger.propagate = False
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


def render_pdf(html: str, *, progress: Progress | None = None, expected_pages: int = 1) -> bytes:
    """Lay out and write the PDF; reports "page n of about m" while laying out."""
    total = max(1, expected_pages)
    state = {"done": 0}

    def on_page(page, _total, _unit):
        state["done"] = max(state["done"], page)
        if progress:
            progress(state["done"], max(total, state["done"]), "page")

    with layout_progress(on_page if progress else None):
        document = HTML(string=html, base_url=BASE_URL, url_fetcher=make_url_fetcher()).render()
    pages = len(document.pages)
    data = document.write_pdf()
    if progress:
        progress(pages, pages, "page")
    return data
