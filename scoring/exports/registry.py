"""The exporter registry: one table definition per export, offered as XLSX, PDF and print page.

An exporter is a class with a `slug`, a `name`, a `scope` (the kind of object it exports:
"club", "event", "series" or "category"), a minimum role and a `tables(obj)` method returning the
`ExportTable`s that the workbook, the PDF and the print page all render. Register it with
`@register`; see docs/exports.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clubs.permissions import VIEWER
from scoring.exports.tables import FORMATS, ExportTable, Progress

SCOPE_NAMES = ("club", "event", "series", "category")


class Exporter:
    """Base class of every export. Subclasses set the class attributes and `tables`."""

    slug: ClassVar[str]
    name: ClassVar[str]
    scope: ClassVar[str]
    permission: ClassVar[str] = VIEWER
    description: ClassVar[str] = ""
    # A custom template for the PDF and print page; None renders `tables()` one after another.
    template: ClassVar[str | None] = None
    formats: ClassVar[tuple[str, ...]] = FORMATS

    def tables(self, obj) -> list[ExportTable]:
        raise NotImplementedError

    def title(self, obj) -> str:
        """The document title, shown in the page header of the PDF."""
        return f"{self.name} – {obj}"

    def header_text(self, obj) -> str:
        """The running header of every PDF page (the event name where there is one)."""
        return str(obj)

    def context(self, obj, *, base_url: str = "") -> dict[str, Any]:
        """Extra template context for a custom `template` (the tables are always there)."""
        return {}

    def empty_note(self, obj) -> str:
        """What a file without a table says (its one worksheet, a wall page)."""
        return _("Nothing to list yet.")

    def label(self, obj) -> str:
        """What the file is of, for its name ("Series 1"; a day standing: "Day 2")."""
        return str(obj)

    def filename(self, obj, fmt: str) -> str:
        label = str(self.label(obj))
        header = str(self.header_text(obj))
        if header and header not in label:
            label = f"{header} {label}"
        # In the reader's language: "spielabend-serie-1-setzliste.pdf", not the internal slug.
        stem = slugify(f"{label}-{self.name}".translate(_GERMAN))[:120] or self.slug
        return f"{stem}.{fmt}"

    def render_file(self, obj, fmt: str, progress: Progress | None = None) -> bytes:
        """The content of a format in `FILE_FORMATS` (an exporter that offers one writes it
        itself: the event archive is JSON, not tables)."""
        raise NotImplementedError

    def is_long(self, obj, fmt: str) -> bool:
        """Whether the menu runs this export as a job with a progress bar."""
        return False

    def pdf_parts(self, context: dict[str, Any], workers: int) -> list[dict[str, Any]]:
        """The PDF's template context split into parts that each begin on a new page, laid
        out in `workers` processes and joined (formats.pdf_parts); [] lays it out whole."""
        return []

    def expected_pages(self, obj) -> int:
        """A guess of the PDF's page count for the progress bar (refined while laying out)."""
        rows = sum(len(t.rows) + 2 for t in self.tables(obj))
        return max(1, rows // 40 + 1)


_GERMAN = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
)


EXPORTERS: dict[str, Exporter] = {}


def register(cls: type[Exporter]) -> type[Exporter]:
    """Class decorator: add an exporter (one instance) to `EXPORTERS` under its slug."""
    for attribute in ("slug", "name", "scope"):
        if not getattr(cls, attribute, None):
            raise TypeError(f"{cls.__name__} needs a {attribute}")
    if cls.scope not in SCOPE_NAMES and cls.scope not in APP_SCOPES:
        raise ValueError(f"{cls.__name__}.scope must be one of {SCOPE_NAMES}")
    existing = EXPORTERS.get(cls.slug)
    if existing is not None and type(existing).__qualname__ != cls.__qualname__:
        raise ValueError(f"two exporters with the slug {cls.slug!r}")
    EXPORTERS[cls.slug] = cls()
    return cls


def get_exporter(slug: str) -> Exporter:
    return EXPORTERS[slug]


def exporters_for(scope: str) -> list[Exporter]:
    return [e for e in EXPORTERS.values() if e.scope == scope]


# ----- scopes: which object an export reads, and whose club guards it ----------------------


@dataclass(frozen=True)
class Scope:
    name: str
    label: Any

    def queryset(self):
        from clubs.models import Club
        from tournaments.models import Category, Event, Series

        if self.name == "club":
            return Club.objects.all()
        if self.name == "event":
            return Event.objects.select_related("club")
        if self.name == "category":
            return Category.objects.select_related("event__club")
        return Series.objects.select_related("event__club")

    def club_of(self, obj):
        if self.name == "club":
            return obj
        if self.name == "event":
            return obj.club
        return obj.event.club  # a series' or a category's event

    def url(self, obj, slug: str = "", fmt: str = "") -> str:
        """The export menu (no slug), or one export's download."""
        from django.urls import reverse

        if not slug:
            return reverse("exports:menu", args=[self.name, obj.pk])
        return reverse("exports:export", args=[self.name, obj.pk, slug, fmt])


SCOPES = {
    "club": Scope("club", _("club")),
    "event": Scope("event", _("event")),
    "series": Scope("series", _("series")),
    "category": Scope("category", _("category")),
}


@dataclass(frozen=True)
class AppScope:
    """A scope served by another app's own pages, which check that app's permissions (the
    federation's ranking lists: roles per association, not per club). The generic export
    pages and jobs never serve it. ``url(obj, slug, fmt)``: the page (no slug) or a download.
    The object names its scope in ``export_scope``."""

    name: str
    label: Any
    url: Callable[..., str]


APP_SCOPES: dict[str, AppScope] = {}


def register_scope(scope: AppScope) -> AppScope:
    if scope.name in SCOPES:
        raise ValueError(f"{scope.name!r} is a built-in scope")
    APP_SCOPES[scope.name] = scope
    return scope


def scope_of(obj) -> Scope | AppScope:
    name = getattr(obj, "export_scope", None)
    if name in APP_SCOPES:
        return APP_SCOPES[name]
    return SCOPES[type(obj)._meta.model_name]
