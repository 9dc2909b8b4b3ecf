"""Long PDFs laid out in parallel worker processes, then joined (issues 13 and 18).

WeasyPrint lays out one page after the other in one thread (about 1,000 table cells a second
here), so a long print is split into parts that each start on a new page anyway (a score
sheet, a standings table, a run of whole pages of a long table). Each part is a complete HTML
document rendered from the same template; workers get only that HTML string, never a model or
a database connection. The parent joins the parts' PDFs with pypdf and then draws the footer
"Seite x von y" on every page: a part cannot know its first page number or the total before
every part is laid out. The footer comes from WeasyPrint as well (one small document with
only that margin box, same page sizes, same stylesheet), placed on each page as a form
XObject: no content stream of the parts is parsed or rewritten, which keeps joining cheap.
Where the exporter knows each part's page count beforehand (score sheets: one page each;
standings grids whose rows' lines are known, `parts.grid_pages`), the parts draw their
numbers themselves (`numbered_css`) and no footer document is needed.

`PDF_WORKERS` < 2, one core, or an exporter that gives fewer than two parts (a short
document) take the in-process path (`rendering.render_pdf_document`).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from io import BytesIO

from django.conf import settings
from django.utils.html import escape
from django.utils.translation import gettext as _

from scoring.exports.tables import Progress

log = logging.getLogger(__name__)
PARENT_POLL_S = 1.0

# Added to every part (a user stylesheet, hence !important): the page number is drawn
# after joining (see the module doc).
NO_PAGE_NUMBER_CSS = "@page { @bottom-right { content: none !important; } }"
# The footer document: the page-number box only, on empty pages of the parts' sizes.
STAMP_CSS = (
    "@page { @top-left { content: none; } @top-right { content: none; } "
    "@top-center { content: none; } @bottom-left { content: none; } } "
    ".stamp { break-after: page; height: 1mm; } .stamp:last-child { break-after: auto; } "
    ".stamp.wide { page: wide; } .stamp.wall { page: wall; }"
)
# The named pages of print.css by their size in points: A4 portrait (595 x 842), "wide" A4
# landscape (842 x 595), "wall" A3 portrait (842 x 1191). Each has its own margins, so the
# page number must be drawn on a page of the same name.
A4_LANDSCAPE_MIN_WIDTH = 800
A3_MIN_HEIGHT = 1000


def page_kind(width: float, height: float) -> str:
    """The named page of print.css a page of this size was laid out on ("" for A4)."""
    if height > A3_MIN_HEIGHT:
        return "wall"
    return "wide" if width > A4_LANDSCAPE_MIN_WIDTH else ""


def pdf_workers() -> int:
    """How many processes lay out one long PDF: the setting, never more than the cores."""
    wanted = int(getattr(settings, "PDF_WORKERS", 1) or 1)
    return max(1, min(wanted, os.cpu_count() or 1))


def numbered_css(first_page: int, total: int) -> str:
    """A part's page numbers when every part's page count is known before the layout (one
    score sheet, one page): they are drawn with the part, and the join draws none."""
    return (
        "@page { @bottom-right { content: string(label-page) ' ' counter(page) ' ' "
        f"string(label-of) ' {total}' !important; }} }} "
        f"@page :first {{ counter-reset: page {first_page}; }}"
    )


def _render_part(html: str, css: str = NO_PAGE_NUMBER_CSS) -> bytes:
    """In a worker: one part's PDF, without the page number unless `css` draws it."""
    from weasyprint import CSS, HTML

    from scoring.exports.formats.pdf import BASE_URL, make_url_fetcher, with_print_css
    from scoring.exports.formats.weasy import write_pdf

    html, options = with_print_css(html, [CSS(string=css)])
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=make_url_fetcher())
    return write_pdf(document, options)[0]


_warm = False
WARM_UP_HTML = (
    '<html lang="de"><body><p style="hyphens: auto; font-family: DejaVu Sans">'
    "Gewonnene Spiele</p></body></html>"
)


def _warm_up() -> None:
    """Lay out a tiny document once in this process before forking: Pango and fontconfig
    load here (about 1 s), not once in every worker. The hyphenation dictionaries are read
    here too: WeasyPrint reads one only when a line must break inside a word, which the tiny
    document never does, so each worker read the German one again (0.5 s of every long
    print; docs/performance-log.md, session 22)."""
    global _warm
    if not _warm:
        import pyphen

        from scoring.exports.formats.pdf import print_css_link, render_pdf, with_print_css

        render_pdf(WARM_UP_HTML)
        with_print_css(print_css_link())  # parsed here, the workers inherit it
        for code, _name in settings.LANGUAGES:
            lang = pyphen.language_fallback(code)
            if lang:  # (pyphen keeps the patterns per file, for every later Pyphen)
                pyphen.Pyphen(lang=lang)
        _warm = True


def _watch_parent(parent: int) -> None:
    """End this worker when the process that started it ends, however it ended (a hall's
    task worker killed during a render). The pool never tells its workers: each waits on
    its queue for ever, and forked siblings hold each other's pipe ends open, so no end of
    file comes. On POSIX an orphan gets a new parent; Windows hands the parent's handle."""
    if os.name == "nt":
        from multiprocessing.connection import wait

        pool_process = multiprocessing.parent_process()
        if pool_process is not None:
            wait([pool_process.sentinel])
    else:
        # `parent` is the pool's process id, read there: a worker that reads its own
        # parent may start after that parent died and read its new one.
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
    os._exit(0)


def _init_worker(parent: int) -> None:
    # A forked worker inherits the parent's database connections and never uses them. It
    # must not close them either: closing sends PostgreSQL's "terminate" on the socket the
    # parent still uses. The worker keeps them untouched and ends with os._exit (no
    # finalisers). A spawned worker starts empty and sets Django up here.
    import django
    from django.apps import apps

    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()
    if not apps.ready:
        django.setup()
        _warm_up()  # (a forked worker has it from the parent)


def _context():
    # fork: the workers start with Django set up and the fonts and templates loaded.
    method = getattr(settings, "PDF_WORKER_START", "fork")
    return multiprocessing.get_context(method)


def pool_of(workers: int) -> ProcessPoolExecutor:
    """The part workers' pool: each watches this process and ends with it."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_context(),
        initializer=_init_worker,
        initargs=(os.getpid(),),
    )


# Spawned workers, kept from one print to the next (see `kept_pool`).
KEPT_IDLE_S = 300  # ended after this long without a print: their memory back to the machine
KEPT_PARTS = 400  # and made afresh after this many parts: their heaps stay young


class _Kept:
    def __init__(self, workers: int):
        self.workers = workers  # its key in `_kept`
        self.pool = pool_of(workers)
        self.busy = 0  # prints laying out on it now
        self.parts = 0  # parts handed to it so far
        self.idle: threading.Timer | None = None


_kept: dict[int, _Kept] = {}  # by their number
_kept_lock = threading.Lock()


def kept_pool(workers: int) -> ProcessPoolExecutor:
    """The pool of spawned workers this process keeps: a spawned worker starts empty and
    sets Django up, loads Pango and fontconfig and reads the hyphenation dictionaries
    before its first part (1.3 s of every standings print of a 400-player event, on a
    laptop without fork). Kept, only the first print pays that. They end after
    `KEPT_IDLE_S` without a print and are made afresh after `KEPT_PARTS` parts. A forked
    pool is made per print instead: a fork is cheap and starts with what this process has
    loaded (kept forked workers took a third of the page faults and were not faster,
    docs/performance-log.md, session 26)."""
    with _kept_lock:
        return _kept_entry(workers).pool


def _kept_entry(workers: int) -> _Kept:
    entry = _kept.get(workers)
    if entry is None or (entry.parts >= KEPT_PARTS and not entry.busy):
        if entry is not None:
            _retire(entry)
        entry = _kept[workers] = _Kept(workers)
    return entry


def _retire(entry: _Kept) -> None:
    """(Under the lock.) The pool ends once its queued parts are done."""
    if _is_kept(entry):
        del _kept[entry.workers]
    if entry.idle is not None:
        entry.idle.cancel()
    entry.pool.shutdown(wait=False)


def _is_kept(entry: _Kept) -> bool:
    return _kept.get(entry.workers) is entry


def _end_if_idle(entry: _Kept) -> None:
    with _kept_lock:
        if not entry.busy and _is_kept(entry):
            _retire(entry)


@contextmanager
def _kept_for_print(workers: int, parts: int) -> Iterator[_Kept]:
    with _kept_lock:
        entry = _kept_entry(workers)
        entry.busy += 1
        entry.parts += parts
        if entry.idle is not None:
            entry.idle.cancel()
            entry.idle = None
    try:
        yield entry
    finally:
        with _kept_lock:
            entry.busy -= 1
            if not entry.busy and _is_kept(entry):
                entry.idle = threading.Timer(KEPT_IDLE_S, _end_if_idle, (entry,))
                entry.idle.daemon = True
                entry.idle.start()


def forget_kept_pools() -> None:
    """End the kept workers (the tests)."""
    with _kept_lock:
        entries = list(_kept.values())
        _kept.clear()
    for entry in entries:
        if entry.idle is not None:
            entry.idle.cancel()
        entry.pool.shutdown(wait=True, cancel_futures=True)


def render_parts(
    parts: list[str],
    costs: list[int],
    workers: int,
    progress: Progress | None = None,
    css: list[str] | None = None,
) -> list[bytes]:
    """Each part's PDF, in document order, laid out in `workers` processes. The costliest
    parts are handed out first, so no worker is left with a long part at the end."""
    css = css or [NO_PAGE_NUMBER_CSS] * len(parts)
    if _context().get_start_method() == "fork":
        _warm_up()  # before the fork: the workers inherit what it loaded
        with pool_of(min(workers, len(parts))) as pool:
            return _lay_out(pool, parts, costs, css, progress)
    with _kept_for_print(workers, len(parts)) as entry:
        try:
            return _lay_out(entry.pool, parts, costs, css, progress)
        except BrokenProcessPool:  # a worker died (killed, out of memory): once more, afresh
            log.warning("PDF workers lost; starting new ones")
            with _kept_lock:
                _retire(entry)  # (another print may have replaced it already)
    with _kept_for_print(workers, len(parts)) as entry:
        return _lay_out(entry.pool, parts, costs, css, progress)


def _lay_out(pool, parts, costs, css, progress) -> list[bytes]:
    results: list[bytes | None] = [None] * len(parts)
    order = sorted(range(len(parts)), key=lambda n: -costs[n])
    total, done = sum(costs), 0
    futures = {pool.submit(_render_part, parts[n], css[n]): n for n in order}
    for future in as_completed(futures):
        n = futures[future]
        results[n] = future.result()
        done += costs[n]
        if progress:
            progress(done, total, "cost")
    return [r for r in results if r is not None]


def stamp_html(kinds: list[str]) -> str:
    """One empty page per page of the joined PDF; WeasyPrint draws only the page number.
    The labels sit in the first page's box, so that page has the first page's size."""
    labels = (
        '<div class="running" aria-hidden="true">'
        f'<span class="running-page">{escape(_("Page"))}</span>'
        f'<span class="running-of">{escape(_("of"))}</span></div>'
    )
    pages = "".join(
        f'<div class="stamp{" " + kind if kind else ""}">{labels if n == 0 else ""}</div>'
        for n, kind in enumerate(kinds)
    )
    from scoring.exports.formats.pdf import print_css_link  # (WeasyPrint only when printing)

    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f"{print_css_link()}<style>{STAMP_CSS}</style></head><body>{pages}</body></html>"
    )


def join(part_pdfs: list[bytes], *, numbered: bool = False) -> bytes:
    """The parts as one PDF (outline and metadata of the parts kept), each page numbered
    (unless the parts drew their numbers: `numbered`)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    from scoring.exports.formats.pdf import render_pdf

    writer = PdfWriter()
    first = PdfReader(BytesIO(part_pdfs[0]))
    for data in part_pdfs:
        writer.append(PdfReader(BytesIO(data)))
    if first.metadata:
        writer.add_metadata(dict(first.metadata))
    if numbered:
        out = BytesIO()
        writer.write(out)
        return out.getvalue()
    kinds = [page_kind(float(p.mediabox.width), float(p.mediabox.height)) for p in writer.pages]
    stamp = PdfReader(BytesIO(render_pdf(stamp_html(kinds))))
    if len(stamp.pages) != len(writer.pages):
        raise RuntimeError("page numbers: the footer document has another page count")

    def stream(text: bytes):
        obj = DecodedStreamObject()
        obj.set_data(text)
        return writer._add_object(obj)

    opening = stream(b"q\n")
    for n, (page, stamp_page) in enumerate(zip(writer.pages, stamp.pages, strict=True)):
        form = DecodedStreamObject()
        form.set_data(stamp_page.get_contents().get_data())
        form.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): stamp_page.mediabox,
                NameObject("/Resources"): stamp_page["/Resources"].clone(writer),
            }
        )
        name = f"/PageNumber{n}"
        resources = page.get("/Resources")
        resources = resources.get_object() if resources is not None else DictionaryObject()
        xobjects = resources.get("/XObject")
        if xobjects is None:
            xobjects = DictionaryObject()
            resources[NameObject("/XObject")] = xobjects
        xobjects.get_object()[NameObject(name)] = writer._add_object(form)
        page[NameObject("/Resources")] = resources
        # Streams stay indirect objects (the array holds references, never a stream itself).
        raw = page.raw_get("/Contents")
        contents = raw.get_object()
        existing = list(contents) if isinstance(contents, ArrayObject) else [raw]
        # The part's drawing is closed in q/Q so its transformations do not move the number.
        closing = stream(f"Q q {name} Do Q\n".encode())
        page[NameObject("/Contents")] = ArrayObject([opening, *existing, closing])
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(BytesIO(pdf)).pages)


def render_pdf_parts(
    parts: list[str],
    costs: list[int],
    workers: int,
    progress: Progress | None = None,
    pages: list[int] | None = None,
) -> bytes:
    """The PDF of a document given as parts (each a complete HTML document beginning on a
    new page), laid out in parallel and joined with its pages numbered. With `pages` (each
    part's page count, known beforehand) the parts draw their own numbers, which saves
    laying out a footer page for every page (0.4 s of 100 score sheets); a part that came
    out longer or shorter is laid out again the other way, never numbered wrongly."""
    workers = max(2, workers)
    if pages and len(pages) == len(parts):
        firsts = [1 + sum(pages[:n]) for n in range(len(pages))]
        css = [numbered_css(first, sum(pages)) for first in firsts]
        pdfs = render_parts(parts, costs, workers, progress, css)
        counts = [page_count(pdf) for pdf in pdfs]
        if counts == pages:
            return join(pdfs, numbered=True)
        log.warning("PDF parts: page counts %s, not the %s foreseen; numbered after joining",
                    counts, pages)  # fmt: skip
    return join(render_parts(parts, costs, workers, progress))
