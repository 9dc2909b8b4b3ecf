"""Public answers of a ranking (page, card, JSON) cached per snapshot, as the public standings
are per results version (scoring.standings.public, whose key shape, ETag, 304 and headers
these reuse).

An anonymous reader's answer is keyed on (ranking, newest snapshot number, ranking and
association names, view, language, normalised query): one query reads the key, then a match
of ``If-None-Match`` is a 304 and a hit is served from the shared cache, the snapshot unread.
A new snapshot is a new key, so a recomputed list is never hidden. A player's card is also
keyed on the newest snapshot of any ranking (the same query): its official results come from
every ranking's computation. Logged-in readers get a private, uncached render (their page
names them)."""

from __future__ import annotations

import re
from functools import wraps

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.text import compress_string

from federation.public.selectors import ranking_state
from scoring.standings.public import (
    CACHE_SECONDS,
    cached_answer,
    is_anonymous,
    normalised_query,
    public_language,
)

LANGUAGE_PARAM = "lang"
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _key(kind: str, state, extra, language: str, query) -> str:
    return f"fedpub:{kind}:{state.stamp}:{extra}:{language}:{query.urlencode()}"


def _private(response):
    patch_cache_control(response, private=True, no_cache=True)
    return response


def snapshot_view(kind: str, params: tuple[str, ...] = (), *, every_ranking: bool = False):
    """Serve ``view(request, state, **kwargs)`` for the public ranking ``pk`` (404 when it
    is not public), cached per snapshot for anonymous readers (see above). With
    ``every_ranking`` the key also changes with a new snapshot of any ranking (a card's
    official results, written by every ranking's computation)."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, pk, **kwargs):
            state = ranking_state(pk)  # the one query of a hit or a 304
            if state is None:
                raise Http404("no such public ranking")
            anonymous = is_anonymous(request)
            request.GET = normalised_query(request.GET, (*params, LANGUAGE_PARAM))
            language = public_language(request, anonymous)
            translation.activate(language)
            request.LANGUAGE_CODE = language
            if not anonymous:
                return _private(view(request, state, **kwargs))
            request.user = AnonymousUser()  # known from the cookies: no session read
            extra = ":".join(f"{k}={v}" for k, v in sorted(kwargs.items()))
            if every_ranking:
                extra += f":latest={state.latest_snapshot_id}"
            key = _key(kind, state, extra, language, request.GET)
            gzipped = bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
            cache_state = state.as_cache_state()
            if cache_state[1] is None:  # no snapshot yet: the ranking's creation dates it
                cache_state = (0, state.created_at, state.created_at)
            response = cached_answer(request, key, cache_state, gzipped)
            if response is not None:
                return response
            entry = cache.get(key) if gzipped else None  # a plain reader's render
            if entry is None:
                rendered = view(request, state, **kwargs)
                if rendered.status_code != 200 or rendered.streaming:
                    return _private(rendered)  # an error page is never cached
                entry = (rendered["Content-Type"], rendered.content)
            # The gzip form only when a reader asks for it: compressing the national JSON
            # (1.5 MB) costs more than building it.
            found = {key: entry}
            if gzipped:
                found[f"{key}:gz"] = (entry[0], compress_string(entry[1]))
            cache.set_many(found, CACHE_SECONDS)
            # Read back through the one path that sets ETag, Last-Modified and Cache-Control.
            response = cached_answer(request, key, cache_state, gzipped)
            if response is None:  # the cache lost it already: this reader gets it unstored
                response = _private(HttpResponse(entry[1], content_type=entry[0]))
            return response

        return wrapped

    return decorator
