"""Sections of the event archive beyond the core (event, players, series): each is one
top-level key of the document with its own JSON Schema, dump, check and load.

The event's categories are a section of scoring itself (`scoring.archive.categories`,
registered by `scoring.apps`); apps above scoring add theirs in their ``AppConfig.ready``
with :func:`register` (the prize-giving registers "prizes" from `prizes.apps`), so scoring
never imports them. Sections are dumped, checked and loaded by their ``order`` (a section
may use what an earlier one loaded: the fees of a category); an archive without a section
(an older one) loads without it. Sections raise `scoring.archive.validate.ArchiveError`.
See docs/event-format.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class DumpContext:
    """What a section's dump reads besides the event: participant refs by id, and the
    archive's way of writing a model's fields (users as usernames)."""

    ref_of: dict[int, int]
    fields: Callable[..., dict]  # fields(obj, model, skip=()) -> dict

    def username(self, user) -> str | None:
        return None if user is None else user.get_username()


@dataclass
class CheckContext:
    """What a section's check sees: the whole document and the participant refs."""

    data: dict
    refs: set[int]


@dataclass
class LoadContext:
    """What a section's load gets: participant ids by ref, users by name, the acting user
    and reason for the history, ``fill`` (the archive's checked field setter: unknown
    fields become warnings, bad values an ArchiveError at their path), and ``created``
    (counts shown after the import). ``shared`` carries ids one section hands to the next
    (the categories by name, for the fees of a category)."""

    event: Any
    pid: dict[int, int]
    users: dict[str, Any]
    actor: Any
    reason: str
    fill: Callable[..., Any]  # fill(obj, data, path, *, skip=(), extra=()) -> obj
    created: dict[str, int]
    shared: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Section:
    name: str
    schema: dict
    dump: Callable[[Any, DumpContext], Any]
    load: Callable[[Any, LoadContext], None]  # load(value, ctx)
    check: Callable[[Any, CheckContext], None] = lambda value, ctx: None
    usernames: Callable[[Any], set[str]] = lambda value: set()
    order: int = 50


SECTIONS: dict[str, Section] = {}


def register(section: Section) -> Section:
    """Add a section (registering the same name again replaces it: a module reloaded)."""
    SECTIONS[section.name] = section
    return section


def registered() -> list[Section]:
    return sorted(SECTIONS.values(), key=lambda s: (s.order, s.name))


def dump_all(event, ctx: DumpContext) -> dict[str, Any]:
    return {s.name: s.dump(event, ctx) for s in registered()}


def check_all(data: dict) -> None:
    ctx = CheckContext(data, {p["ref"] for p in data.get("participants", [])})
    for s in registered():
        if s.name in data:
            s.check(data[s.name], ctx)


def usernames(data: dict) -> set[str]:
    names: set[str] = set()
    for s in registered():
        if data.get(s.name) is not None:
            names.update(n for n in s.usernames(data[s.name]) if n)
    return names


def load_all(data: dict, ctx: LoadContext) -> None:
    for s in registered():
        if data.get(s.name) is not None:
            s.load(data[s.name], ctx)


def schemas() -> dict[str, dict]:
    return {s.name: s.schema for s in registered()}
