"""Public league answers (pages, JSON, prints) cached per season version, as the public
standings are per results version (scoring.standings.public supplies the ETag, 304 and
headers): one query reads the season's version; an anonymous reader's `If-None-Match` is a
304 and a hit is served from the cache without reading the table. Every write that changes
a public figure bumps the version (leagues.seasons.services.bump). Logged-in readers get a
private, uncached render."""

from __future__ import annotations

import re
from functools import wraps

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import Http404
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.text import compress_string

from scoring.standings.public import (
    CACHE_SECONDS,
    cached_answer,
    is_anonymous,
    normalised_query,
    public_language,
)

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _private(response):
    patch_cache_control(response, private=True, no_cache=True)
    return response


def season_state(model, pk):
    """(season pk, version, changed_at, created_at) of the public season owning object
    `pk` of `model` (a Division, MatchDay, Team or the season itself), or None."""
    path = {
        "leagueseason": "",
        "division": "season__",
        "matchday": "division__season__",
        "team": "division__season__",
    }[model._meta.model_name]
    row = (
        model.objects.filter(pk=pk, **{f"{path}public": True})
        .values_list(
            f"{path}pk" if path else "pk",
            f"{path}version",
            f"{path}changed_at",
            f"{path}created_at",
        )
        .first()
    )
    return row


def season_view(kind: str, model, params: tuple[str, ...] = ()):
    """Serve ``view(request, pk, **kwargs)`` for a public season's object, cached per
    season version for anonymous readers."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, pk, **kwargs):
            row = season_state(model, pk)
            if row is None:
                raise Http404("no such public league page")
            _season, version, changed, created = row
            anonymous = is_anonymous(request)
            request.GET = normalised_query(request.GET, (*params, "lang"))
            language = public_language(request, anonymous)
            translation.activate(language)
            request.LANGUAGE_CODE = language
            if not anonymous:
                return _private(view(request, pk, **kwargs))
            request.user = AnonymousUser()
            extra = ":".join(f"{k}={v}" for k, v in sorted(kwargs.items()))
            stamp = int(created.timestamp() * 1_000_000)
            query = request.GET.urlencode()
            key = f"leaguepub:{kind}:{pk}:{stamp}:{version}:{extra}:{language}:{query}"
            gzipped = bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
            state = (version, changed, created)
            response = cached_answer(request, key, state, gzipped)
            if response is not None:
                return response
            rendered = view(request, pk, **kwargs)
            if rendered.status_code != 200 or rendered.streaming:
                return _private(rendered)
            content_type, body = rendered["Content-Type"], rendered.content
            cache.set_many(
                {key: (content_type, body), f"{key}:gz": (content_type, compress_string(body))},
                CACHE_SECONDS,
            )
            response = cached_answer(request, key, state, gzipped)
            return response if response is not None else _private(rendered)

        return wrapped

    return decorator
