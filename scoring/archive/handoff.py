"""Another way in for an uploaded event archive, offered on the import page beside the
plain import: an app above scoring registers one in its ``AppConfig.ready`` (the
federation: "as a submission to the federation", `federation.submissions.jobs`), so scoring
never imports it. The page reads the upload within the archive limits and checks its
outline; the handoff checks who may hand it over, stores it and names the page to go to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Handoff:
    label: Any  # the choice on the upload form (lazy text)
    help_text: Any
    offered: Callable[[Any], bool]  # offered(user): the form shows the choice
    take: Callable[[Any, dict], str]  # take(user, data) -> URL; raises ArchiveError


_HANDOFFS: list[Handoff] = []


def register(handoff: Handoff) -> None:
    if handoff not in _HANDOFFS:
        _HANDOFFS.append(handoff)


def offered(user) -> Handoff | None:
    """The handoff the import page offers this user, if any (one at most is registered)."""
    if not user.is_authenticated:
        return None
    return next((handoff for handoff in _HANDOFFS if handoff.offered(user)), None)
