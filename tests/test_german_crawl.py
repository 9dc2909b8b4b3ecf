"""Every page and every print a director reaches, in German: no English text of the app.

The list of English texts is the app's own catalogue: each msgid whose German differs.
A page showing one of them in German mode has a string that missed translation (not
marked, or marked but rendered outside the request's language). The catalogue itself
must have no empty and no fuzzy entries.
"""

import html
import re
from collections import deque
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import pytest

from tests.factories import user_with_role
from tests.pdf_checks import page_texts
from tests.standings.db.conftest import generated

pytestmark = pytest.mark.django_db
PO = Path(__file__).resolve().parents[1] / "locale" / "de" / "LC_MESSAGES" / "django.po"
DE = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
SKIP = ("/admin/", "/logout/", "/i18n/", "/static/", "/exports/jobs/")
MAX_PAGES = 250


def _catalogue():
    """(msgid, msgstr, fuzzy) of the German catalogue, plural forms by their singular."""
    entries, block = [], []
    for line in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        if line.strip():
            block.append(line)
            continue
        if block:
            entries.append(_entry(block))
        block = []
    return [e for e in entries if e and e[0]]


def _entry(block):
    fields, current, fuzzy = {}, None, False
    for line in block:
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            fields[current] += _unquote(line)
        else:
            key, _space, rest = line.partition(" ")
            current = key
            fields[current] = _unquote(rest)
    msgstr = fields.get("msgstr", fields.get("msgstr[0]", ""))
    return fields.get("msgid", ""), msgstr, fuzzy


def _unquote(text):
    return text.strip()[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")


def _english_phrases():
    """Literal pieces (two words or more) of msgids whose German is different."""
    phrases = set()
    for msgid, msgstr, _fuzzy in _catalogue():
        if msgstr == msgid:
            continue
        for piece in re.split(r"%\(\w+\)\w|%\w|\{[^}]*\}|<[^>]+>", msgid):
            piece = " ".join(piece.split()).strip(" .,:;–-()“”\"'")
            if len(piece) >= 10 and " " in piece and re.search(r"[a-z]{3}", piece):
                phrases.add(piece)
    return phrases


def _visible_text(page_html):
    page_html = re.sub(r"<(script|style)\b.*?</\1>", " ", page_html, flags=re.S | re.I)
    attributes = re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', page_html)
    text = re.sub(r"<[^>]+>", " ", page_html)
    return " ".join(html.unescape(" ".join([text, *attributes])).split())


def test_the_catalogue_is_complete():
    entries = _catalogue()
    assert len(entries) > 500
    assert [m for m, s, _f in entries if not s] == []
    assert [m for m, _s, f in entries if f] == []


@pytest.fixture
def german_event(club_a):
    return generated(club_a, 12, series=2, rounds=1, pairs=2, teams=1)


def _crawl(client, start_urls):
    seen, queue, pages, downloads = set(), deque(start_urls), {}, []
    while queue and len(pages) < MAX_PAGES:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url, **DE)
        assert response.status_code in (200, 302, 403, 404), (url, response.status_code)
        kind = response.get("Content-Type", "")
        if response.status_code != 200:
            continue
        if "text/html" not in kind:
            downloads.append((url, kind, response))
            continue
        body = response.content.decode()
        pages[url] = body
        for href in re.findall(r'href="([^"#][^"]*)"', body):
            href = urldefrag(html.unescape(href))[0]
            parsed = urlparse(href)
            if parsed.scheme or parsed.netloc or not href.startswith("/"):
                continue
            if href.startswith(SKIP) or href in seen:
                continue
            # One sort order and one page of each list is enough.
            # ?lang= links choose another language on public pages, as /i18n/ does elsewhere
            if re.search(r"[?&](sort|page|lang)=", href):
                continue
            queue.append(href)
    return pages, downloads


def test_every_page_and_print_is_german(client, club_a, german_event):
    organiser = user_with_role(club_a, "organiser", username="leitung")
    client.force_login(organiser)
    pages, downloads = _crawl(client, ["/", german_event.get_absolute_url()])
    assert len(pages) > 25
    phrases = _english_phrases()
    assert len(phrases) > 200
    found = {}
    for url, body in pages.items():
        text = _visible_text(body)
        hits = [p for p in phrases if p in text]
        # Internal values (status codes) must not reach the page either.
        hits += re.findall(r"\b(?:in_play|planned|seated|complete|disputed|entered)\b", text)
        if hits:
            found[url] = sorted(hits)[:5]
    assert found == {}
    pdfs = [(url, response) for url, kind, response in downloads if "pdf" in kind]
    assert pdfs, "the crawl reached no PDF"
    pdf_found = {}
    for url, response in pdfs:
        content = b"".join(response.streaming_content) if response.streaming else response.content
        text = " ".join(" ".join(page_texts(content)).split())
        hits = [p for p in phrases if p in text]
        if hits:
            pdf_found[url] = sorted(hits)[:5]
    assert pdf_found == {}


def test_no_translation_call_inside_an_f_string():
    """xgettext cannot read `f"{_('…')}"`: such a text never reaches the catalogue and stays
    English (it happened to three PDF titles)."""
    root = Path(__file__).resolve().parents[1]
    pattern = re.compile(r"""f(["'])[^"'\n]*\{\s*(_|gettext|ngettext|pgettext)\(""")
    found = []
    for folder in ("clubs", "tournaments", "scoring", "romme"):
        for path in (root / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(root)}:{number}")
    assert found == []


class _FormControls(HTMLParser):
    """Form controls a person fills in, and whether each has a name for a screen reader: a
    <label for>, a <label> around it, or aria-label / aria-labelledby."""

    UNNAMED = ("hidden", "submit", "button", "reset", "image")

    def __init__(self):
        super().__init__()
        self.controls, self.label_for, self.open_labels = [], set(), 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "label":
            self.open_labels += 1
            if attrs.get("for"):
                self.label_for.add(attrs["for"])
        elif tag in ("input", "select", "textarea"):
            if tag == "input" and attrs.get("type", "text") in self.UNNAMED:
                return
            named = self.open_labels > 0 or "aria-label" in attrs or "aria-labelledby" in attrs
            self.controls.append((attrs.get("id"), attrs.get("name"), named))

    def handle_endtag(self, tag):
        if tag == "label" and self.open_labels:
            self.open_labels -= 1

    def unlabelled(self):
        return [
            name for id_, name, named in self.controls if not named and id_ not in self.label_for
        ]


def test_every_form_field_has_a_label(client, club_a, german_event):
    organiser = user_with_role(club_a, "organiser", username="leitung")
    client.force_login(organiser)
    pages, _downloads = _crawl(client, ["/", german_event.get_absolute_url(), "/players/"])
    found = {}
    for url, body in pages.items():
        parser = _FormControls()
        parser.feed(body)
        if parser.unlabelled():
            found[url] = parser.unlabelled()
    assert found == {}
    assert any("/players/" in url and url != "/players/" for url in pages)


class _References(HTMLParser):
    """Every id on a page and every id an aria-describedby or aria-labelledby names."""

    def __init__(self):
        super().__init__()
        self.ids, self.named = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for name in ("aria-describedby", "aria-labelledby"):
            self.named += [(name, ref) for ref in (attrs.get(name) or "").split()]

    def dangling(self):
        return [(name, ref) for name, ref in self.named if ref not in self.ids]


def test_every_description_a_field_names_is_on_its_page(client, club_a, german_event):
    """A help text under a field is read with it (Django names `<id>_helptext`)."""
    organiser = user_with_role(club_a, "organiser", username="leitung")
    client.force_login(organiser)
    pages, _downloads = _crawl(client, ["/", german_event.get_absolute_url(), "/players/"])
    found, described = {}, 0
    for url, body in pages.items():
        parser = _References()
        parser.feed(body)
        described += sum(1 for name, _ref in parser.named if name == "aria-describedby")
        if parser.dangling():
            found[url] = parser.dangling()[:3]
    assert found == {}
    assert described > 5
